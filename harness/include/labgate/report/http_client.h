// The HTTP boundary of the reports (a Pushgateway push) behind an interface, so
// the push logic is tested on a fake and the real client is libcurl's.
#pragma once

#include <chrono>
#include <memory>
#include <string>

namespace labgate::report {

struct HttpResponse {
  long status = 0;     ///< HTTP status; 0 when no answer came
  std::string body;    ///< what the server said (its reason for a refusal)
  std::string error;   ///< transport error (connection refused, timeout); empty when answered
};

class HttpClient {
 public:
  virtual ~HttpClient() = default;
  /// PUT `body` to `url`; never throws for network trouble (it is in `error`).
  virtual HttpResponse put(const std::string& url, const std::string& body, const std::string& content_type) = 0;
};

/// libcurl's client: connect timeout 5 s, whole request `timeout`.
std::unique_ptr<HttpClient> make_curl_client(std::chrono::seconds timeout = std::chrono::seconds(30));

}  // namespace labgate::report

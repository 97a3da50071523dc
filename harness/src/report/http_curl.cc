// HttpClient on libcurl (Debian's libcurl4-openssl-dev): the one real HTTP client.
#include <curl/curl.h>

#include <mutex>

#include "labgate/report/http_client.h"

namespace labgate::report {

namespace {

std::size_t collect(char* data, std::size_t size, std::size_t n, void* out) {
  static_cast<std::string*>(out)->append(data, size * n);
  return size * n;
}

class CurlClient : public HttpClient {
 public:
  explicit CurlClient(std::chrono::seconds timeout) : timeout_(timeout) {
    // curl_global_init is not thread-safe; once per process is what it wants.
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
  }

  HttpResponse put(const std::string& url, const std::string& body, const std::string& content_type) override {
    HttpResponse r;
    CURL* curl = curl_easy_init();
    if (!curl) {
      r.error = "curl_easy_init failed";
      return r;
    }
    char error[CURL_ERROR_SIZE] = {};
    curl_slist* headers = curl_slist_append(nullptr, ("Content-Type: " + content_type).c_str());
    curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
    curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, "PUT");
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body.data());
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body.size()));
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, collect);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &r.body);
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error);
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, 5L);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT, static_cast<long>(timeout_.count()));
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
    const CURLcode rc = curl_easy_perform(curl);
    if (rc != CURLE_OK)
      r.error = error[0] ? error : curl_easy_strerror(rc);
    else
      curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &r.status);
    curl_slist_free_all(headers);
    curl_easy_cleanup(curl);
    return r;
  }

 private:
  std::chrono::seconds timeout_;
};

}  // namespace

std::unique_ptr<HttpClient> make_curl_client(std::chrono::seconds timeout) {
  return std::make_unique<CurlClient>(timeout);
}

}  // namespace labgate::report

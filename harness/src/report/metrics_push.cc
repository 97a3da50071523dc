// Sends a results folder's metrics.prom to a Prometheus Pushgateway (PUT: the
// lab's group is replaced by this run's metrics).
#include <regex>

#include "junit_model.h"
#include "labgate/report/http_client.h"
#include "labgate/report/metrics.h"
#include "labgate/results/atomic_file.h"
#include "labgate/results/run_dir.h"
#include "labgate/util/exit_code.h"

namespace labgate::report {

namespace {

// Base64url without padding: the Pushgateway's "label@base64/value" form, which
// carries any lab name (slashes, spaces) in one path segment.
std::string base64url(const std::string& in) {
  static const char* abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  std::string out;
  std::size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    const unsigned v = (static_cast<unsigned char>(in[i]) << 16) | (static_cast<unsigned char>(in[i + 1]) << 8) |
                       static_cast<unsigned char>(in[i + 2]);
    out += {abc[(v >> 18) & 63], abc[(v >> 12) & 63], abc[(v >> 6) & 63], abc[v & 63]};
  }
  if (i + 1 == in.size()) {
    const unsigned v = static_cast<unsigned char>(in[i]) << 16;
    out += {abc[(v >> 18) & 63], abc[(v >> 12) & 63]};
  } else if (i + 2 == in.size()) {
    const unsigned v = (static_cast<unsigned char>(in[i]) << 16) | (static_cast<unsigned char>(in[i + 1]) << 8);
    out += {abc[(v >> 18) & 63], abc[(v >> 12) & 63], abc[(v >> 6) & 63]};
  }
  // An empty value is written "=" in base64 form (the Pushgateway's rule).
  return out.empty() ? "=" : out;
}

}  // namespace

std::string pushgateway_url(const std::string& base, const results::RunResult& run) {
  static const std::regex form(R"(https?://[A-Za-z0-9._\-\[\]:]+(/[A-Za-z0-9._~\-/]*)?)");
  if (!std::regex_match(base, form))
    throw Failure(ExitCode::kUsageError,
                  "--push " + base + ": expected a Pushgateway URL like http://127.0.0.1:9091");
  std::string root = base;
  while (!root.empty() && root.back() == '/') root.pop_back();
  return root + "/metrics/job/labgate/lab@base64/" + base64url(junit_detail::identity_of(run));
}

void push_metrics(const std::filesystem::path& run_dir, const std::string& url, HttpClient& http) {
  const results::RunDir dir = results::RunDir::open(run_dir);
  const results::RunResult run = dir.load_run();
  const std::string target = pushgateway_url(url, run);
  const auto file = dir.path() / "metrics.prom";
  // An older folder (or one whose publish was interrupted) gets its metrics from run.json.
  if (!std::filesystem::is_regular_file(file)) dir.write_text("metrics.prom", metrics_text(run));
  const HttpResponse r = http.put(target, results::read_file(file), "text/plain; version=0.0.4; charset=utf-8");
  if (!r.error.empty())
    throw Failure(ExitCode::kCouldNotRun, "push of " + file.string() + " to " + target + " failed: " + r.error);
  if (r.status < 200 || r.status > 299)
    throw Failure(ExitCode::kCouldNotRun, "the Pushgateway at " + target + " refused " + file.string() +
                                              " (HTTP " + std::to_string(r.status) + "): " + r.body);
}

void push_metrics(const std::filesystem::path& run_dir, const std::string& url) {
  const auto http = make_curl_client();
  push_metrics(run_dir, url, *http);
}

}  // namespace labgate::report

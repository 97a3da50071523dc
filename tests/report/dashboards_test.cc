// End-to-end tests of the dashboards' outputs on synthetic results folders:
// junit-strict.xml against the strict Ant schema (xmllint), metrics.prom
// through `promtool check metrics`, `labgate metrics --push` into a real
// Prometheus Pushgateway on the loopback (started and stopped here) and read
// back, and the `labgate trend` page rendered in headless Chromium.
#include <curl/curl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

#include "labgate/report/publish.h"
#include "labgate/results/atomic_file.h"
#include "labgate/results/run_dir.h"
#include "report/synthetic_run.h"
#include "run_process.h"

namespace labgate::report_test {
namespace {

namespace fs = std::filesystem;
using std::chrono::seconds;
using ::testing::HasSubstr;
using ::testing::Not;

const fs::path kOut = fs::path(LABGATE_REPORT_TEST_OUT) / "dashboards";
const fs::path kStrictXsd = fs::path(LABGATE_SOURCE_DIR) / "tests/report/junit-strict.xsd";
const std::string kLabgate = LABGATE_BINARY;

results::RunDir publish_run(const results::RunResult& run, const std::string& suffix) {
  fs::remove_all(kOut / "results" / suffix);
  const auto dir = results::RunDir::create(kOut / "results" / suffix, suffix, run.start_time);
  report::publish(dir, run);
  return dir;
}

ProcessResult run(const std::vector<std::string>& argv, const std::string& log) {
  fs::create_directories(kOut);
  return run_process(argv, seconds(60), (kOut / log).string());
}

TEST(JunitStrictSchema, StrictJunitOfARealisticRunIsValid) {
  const auto dir = publish_run(report::testing::synthetic_run(), "strict");
  const ProcessResult r = run({"xmllint", "--noout", "--schema", kStrictXsd.string(),
                               (dir.path() / "junit-strict.xml").string()},
                              "xmllint-strict.log");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("validates"));
}

TEST(JunitStrictSchema, TheStrictSchemaRejectsJenkinsTestcaseProperties) {
  // Proves the validation can fail, on exactly what the strict file avoids.
  const auto dir = publish_run(report::testing::synthetic_run(), "strict-bad");
  const ProcessResult r = run({"xmllint", "--noout", "--schema", kStrictXsd.string(),
                               (dir.path() / "junit.xml").string()},
                              "xmllint-strict-bad.log");
  EXPECT_NE(r.exit_code, 0) << r.output;
}

TEST(Prometheus, PromtoolAcceptsTheMetricsOfARun) {
  const auto dir = publish_run(report::testing::synthetic_run(), "promtool");
  const fs::path prom = dir.path() / "metrics.prom";
  ASSERT_TRUE(fs::is_regular_file(prom));
  const ProcessResult r = run({"sh", "-c", "promtool check metrics < \"$1\"", "_", prom.string()}, "promtool.log");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output, "") << "promtool found lint problems";
  // promtool can fail: a family in bits and a sample without its TYPE block.
  const fs::path bad = kOut / "bad.prom";
  results::write_file_atomic(bad, "# HELP x_bits Bits.\n# TYPE x_bits gauge\nx_bits 1\nx_bits 2\n");
  const ProcessResult b = run({"sh", "-c", "promtool check metrics < \"$1\"", "_", bad.string()}, "promtool-bad.log");
  EXPECT_NE(b.exit_code, 0) << b.output;
}

std::size_t collect(char* data, std::size_t size, std::size_t n, void* out) {
  static_cast<std::string*>(out)->append(data, size * n);
  return size * n;
}

long http_get(const std::string& url, std::string* body) {
  CURL* c = curl_easy_init();
  curl_easy_setopt(c, CURLOPT_URL, url.c_str());
  curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, collect);
  curl_easy_setopt(c, CURLOPT_WRITEDATA, body);
  curl_easy_setopt(c, CURLOPT_TIMEOUT, 5L);
  long status = 0;
  if (curl_easy_perform(c) == CURLE_OK) curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
  curl_easy_cleanup(c);
  return status;
}

int free_loopback_port() {
  const int s = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a);
  socklen_t len = sizeof a;
  ::getsockname(s, reinterpret_cast<sockaddr*>(&a), &len);
  ::close(s);
  return ntohs(a.sin_port);
}

// A real Pushgateway on 127.0.0.1 for one test, in its own process group,
// killed (and reaped) when the test ends, whatever happened.
class Pushgateway {
 public:
  Pushgateway() : port_(free_loopback_port()) {
    const std::string listen = "--web.listen-address=127.0.0.1:" + std::to_string(port_);
    const std::string log = (kOut / "pushgateway.log").string();
    pid_ = ::fork();
    if (pid_ == 0) {
      ::setpgid(0, 0);
      FILE* f = std::freopen(log.c_str(), "w", stdout);
      if (f) ::dup2(::fileno(stdout), 2);
      ::execlp("prometheus-pushgateway", "prometheus-pushgateway", listen.c_str(), "--persistence.file=",
               static_cast<char*>(nullptr));
      ::_exit(127);
    }
    ::setpgid(pid_, pid_);
  }
  ~Pushgateway() {
    if (pid_ > 0) {
      ::kill(-pid_, SIGTERM);
      int status = 0;
      ::waitpid(pid_, &status, 0);
    }
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  bool ready() const {
    for (int i = 0; i < 100; ++i) {
      std::string body;
      if (http_get(url() + "/-/ready", &body) == 200) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return false;
  }

 private:
  int port_;
  pid_t pid_ = -1;
};

// The value of the one sample of `name` whose labels include every one of `parts`
// ("" when there is none or more than one).
std::string sample(const std::string& exposition, const std::string& name, const std::vector<std::string>& parts) {
  std::istringstream in(exposition);
  std::string line, found;
  int matches = 0;
  while (std::getline(in, line)) {
    if (line.rfind(name + "{", 0) != 0) continue;
    bool all = true;
    for (const auto& p : parts) all = all && line.find(p) != std::string::npos;
    if (!all) continue;
    ++matches;
    found = line.substr(line.rfind(' ') + 1);
  }
  return matches == 1 ? found : "";
}

TEST(Prometheus, PushToARealPushgatewayAndReadTheMetricsBack) {
  fs::create_directories(kOut);
  Pushgateway gateway;
  ASSERT_TRUE(gateway.ready()) << "the Pushgateway did not start; see " << (kOut / "pushgateway.log");
  results::RunResult r = report::testing::synthetic_run();
  r.lab_name = "ctp-pair-1";
  const auto dir = publish_run(r, "push");
  const ProcessResult push = run({kLabgate, "metrics", dir.path().string(), "--push", gateway.url()}, "push.log");
  ASSERT_EQ(push.exit_code, 0) << push.output;
  EXPECT_THAT(push.output, HasSubstr("pushed to " + gateway.url() + "/metrics/job/labgate/lab@base64/"));

  std::string metrics;
  ASSERT_EQ(http_get(gateway.url() + "/metrics", &metrics), 200);
  results::write_file_atomic(kOut / "pushgateway-metrics.txt", metrics);
  // The gateway adds job/instance and sorts the labels: look for the samples by their parts.
  EXPECT_EQ(sample(metrics, "labgate_run_start_time_seconds", {"job=\"labgate\"", "lab=\"ctp-pair-1\""}),
            "1.7145648e+09");
  EXPECT_EQ(sample(metrics, "labgate_test_verdict",
                   {"lab=\"ctp-pair-1\"", "pair=\"a->b\"", "test=\"tcp_rr_64\"", "verdict=\"pass\""}),
            "1");
  EXPECT_EQ(sample(metrics, "labgate_test_verdict",
                   {"lab=\"ctp-pair-1\"", "test=\"udp_stream_64\"", "verdict=\"error\""}),
            "1");
  char p99[64];
  std::snprintf(p99, sizeof p99, "%g", *r.tests[0].figures.value("p99") * 1e-9);
  EXPECT_EQ(sample(metrics, "labgate_latency_seconds",
                   {"lab=\"ctp-pair-1\"", "statistic=\"p99\"", "test=\"tcp_rr_64\""}),
            p99);

  // Nothing listening: exit 3 naming the gateway; a bad URL: exit 2.
  const ProcessResult down = run({kLabgate, "metrics", dir.path().string(), "--push",
                                  "http://127.0.0.1:" + std::to_string(free_loopback_port())},
                                 "push-down.log");
  EXPECT_EQ(down.exit_code, 3) << down.output;
  EXPECT_THAT(down.output, HasSubstr("failed"));
  const ProcessResult bad = run({kLabgate, "metrics", dir.path().string(), "--push", "not a url"}, "push-bad.log");
  EXPECT_EQ(bad.exit_code, 2) << bad.output;
}

std::vector<std::string> chromium(const std::vector<std::string>& extra, const fs::path& profile_dir) {
  return chromium_argv(extra, profile_dir.string());
}

TEST(Trend, TrendPageRendersOneChartPerTestInHeadlessChromium) {
  // Three runs, given out of order: one imported a year earlier (no preconditions
  // judged), one conforming, one not, each measured again (not edited figures).
  std::vector<std::string> args = {kLabgate, "trend"};
  for (int i = 0; i < 3; ++i) {
    results::RunResult r = report::testing::synthetic_run(10 + i);
    r.run_id = "run-" + std::to_string(i);
    r.start_time += std::chrono::hours(24 * (i == 2 ? -365 : i));
    if (i == 1)  // every rule checked and held: conforming
      for (auto& c : r.checks) c.verdict = results::CheckVerdict::kPass;
    if (i == 2) {
      r.checks.clear();
      r.tests[0].measurement["parameters"]["imported_from"] = "netperf-2023.txt";
    }
    args.push_back(publish_run(r, "trend-" + std::to_string(i)).path().string());
  }
  const fs::path page = kOut / "trend.html";
  args.insert(args.end(), {"--out", page.string()});
  const ProcessResult t = run(args, "trend.log");
  ASSERT_EQ(t.exit_code, 0) << t.output;
  const std::string csv = results::read_file(kOut / "trend.csv");
  EXPECT_THAT(csv, HasSubstr(",not checked,yes,"));
  EXPECT_THAT(csv, HasSubstr(",yes,no,"));
  EXPECT_THAT(csv, HasSubstr(",no,no,"));

  const fs::path profile = kOut / "chromium-profile";
  fs::remove_all(profile);
  fs::create_directories(profile);
  const ProcessResult dom = run_process(chromium({"--dump-dom", "file://" + fs::absolute(page).string()}, profile),
                                        seconds(120), (kOut / "trend-dom.html").string());
  ASSERT_FALSE(dom.timed_out);
  ASSERT_EQ(dom.exit_code, 0) << "see " << (kOut / "trend-dom.html");
  // The page's script made a Chart.js chart with a non-empty canvas for every test.
  // (Chart.js inlined makes the DOM large: match on it, never print it.)
  EXPECT_NE(dom.output.find("data-lg-status=\"ok\""), std::string::npos) << "see " << (kOut / "trend-dom.html");
  EXPECT_NE(dom.output.find("data-lg-charts=\"5\""), std::string::npos) << "see " << (kOut / "trend-dom.html");
  const std::regex canvas("<canvas id=\"lg-chart-[0-9]+\"[^>]*(width|height)=");
  EXPECT_EQ(std::distance(std::sregex_iterator(dom.output.begin(), dom.output.end(), canvas),
                          std::sregex_iterator()),
            5);

  const fs::path png = kOut / "trend.png";
  fs::remove(png);
  const ProcessResult shot = run_process(
      chromium({"--hide-scrollbars", "--window-size=1200,2400", "--screenshot=" + png.string(),
                "file://" + fs::absolute(page).string()},
               profile),
      seconds(120), (kOut / "trend-screenshot.log").string());
  ASSERT_EQ(shot.exit_code, 0) << shot.output;
  ASSERT_TRUE(fs::is_regular_file(png));
  // A blank 1200x2400 page compresses to a few KB; five charts and tables do not.
  EXPECT_GT(fs::file_size(png), 60'000u) << "screenshot looks empty";
  std::cout << "screenshot: " << png.string() << "\n";
}

}  // namespace
}  // namespace labgate::report_test

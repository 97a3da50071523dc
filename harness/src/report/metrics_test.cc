// Tests of the Prometheus output: base units through the one figure adapter,
// one block per family with HELP/TYPE, escaped labels, and the push on a fake
// HTTP client (the real Pushgateway is in tests/report).
#include "labgate/report/metrics.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "labgate/report/http_client.h"
#include "labgate/report/publish.h"
#include "labgate/results/run_dir.h"
#include "labgate/util/exit_code.h"
#include "report/synthetic_run.h"

namespace labgate::report {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

TEST(MetricFigures, ConvertsEveryRecordedFigureToItsBaseUnit) {
  results::TestRecord t;
  using stats::FigureSource;
  for (const stats::Figure& f : {stats::Figure{"p99", 18'500, "ns", FigureSource::kHistogram, ""},
                                 stats::Figure{"max", 1'200'000, "ns", FigureSource::kHistogram, ""},
                                 stats::Figure{"samples", 1000, "count", FigureSource::kHistogram, ""},
                                 stats::Figure{"throughput", 941.5e6, "bit/s", FigureSource::kProbe, ""},
                                 stats::Figure{"loss", 0.025, "fraction", FigureSource::kProbe, ""},
                                 stats::Figure{"mtu_forward", 1500, "bytes", FigureSource::kProbe, ""},
                                 stats::Figure{"iops", 320, "1/s", FigureSource::kProbe, ""}})
    t.figures.put(f);
  t.duration_s = 5.2;
  std::map<std::string, MetricFigure> by;
  for (const auto& f : metric_figures(t)) by[f.family + "/" + f.statistic] = f;
  EXPECT_DOUBLE_EQ(by.at("latency_seconds/p99").value, 18.5e-6);
  EXPECT_DOUBLE_EQ(by.at("latency_seconds/max").value, 1.2e-3);
  EXPECT_DOUBLE_EQ(by.at("test_counts/samples").value, 1000);
  EXPECT_DOUBLE_EQ(by.at("throughput_bytes_per_second/mean").value, 941.5e6 / 8);
  EXPECT_DOUBLE_EQ(by.at("loss_ratio/loss").value, 0.025);
  EXPECT_DOUBLE_EQ(by.at("path_mtu_bytes/forward").value, 1500);
  EXPECT_DOUBLE_EQ(by.at("test_duration_seconds/measured").value, 5.2);
  EXPECT_DOUBLE_EQ(by.at("io_operations_per_second/mean").value, 320);
}

TEST(MetricsText, VerdictsFiguresBudgetsAndTheRunStartAsGauges) {
  const results::RunResult run = testing::synthetic_run();
  const std::string text = metrics_text(run);
  EXPECT_THAT(text, HasSubstr("# TYPE labgate_run_start_time_seconds gauge\n"
                              "labgate_run_start_time_seconds{lab=\"lab\"} 1714564800\n"));
  EXPECT_THAT(text, HasSubstr("labgate_run_passed{lab=\"lab\"} 0\n"));
  EXPECT_THAT(text, HasSubstr("labgate_run_exit_code{lab=\"lab\"} 1\n"));
  EXPECT_THAT(text, HasSubstr("labgate_precondition_verdict{lab=\"lab\",host=\"b\",rule=\"sysctl/net.ipv4.tcp_sack\","
                              "verdict=\"fail\"} 1\n"));
  EXPECT_THAT(text, HasSubstr("labgate_test_verdict{lab=\"lab\",test=\"udp_stream_64\",pair=\"b->a\",network=\"\","
                              "verdict=\"error\"} 1\n"));
  const double p99_s = *run.tests[0].figures.value("p99") * 1e-9;
  char expected[200];
  std::snprintf(expected, sizeof expected,
                "labgate_latency_seconds{lab=\"lab\",test=\"tcp_rr_64\",pair=\"a->b\",network=\"\","
                "statistic=\"p99\"} %.17g\n",
                p99_s);
  EXPECT_THAT(text, HasSubstr(expected));
  EXPECT_THAT(text, HasSubstr("labgate_budget_latency_seconds{lab=\"lab\",test=\"tcp_rr_64\",pair=\"a->b\","
                              "network=\"\",statistic=\"p99\"} 0.00014"));
  EXPECT_THAT(text, HasSubstr("labgate_budget_throughput_bytes_per_second{lab=\"lab\",test=\"tcp_stream_64\""));
  // Every family once, with HELP before TYPE.
  EXPECT_EQ(text.find("# TYPE labgate_latency_seconds"), text.rfind("# TYPE labgate_latency_seconds"));
  EXPECT_LT(text.find("# HELP labgate_latency_seconds"), text.find("# TYPE labgate_latency_seconds"));
}

TEST(MetricsText, LabelValuesAreEscaped) {
  results::RunResult run = testing::synthetic_run();
  run.tests[0].name = "rr \"x\"\\y\nz";
  EXPECT_THAT(metrics_text(run), HasSubstr("test=\"rr \\\"x\\\"\\\\y\\nz\""));
}

class FakeHttp : public HttpClient {
 public:
  HttpResponse answer{200, "", ""};
  std::string url, body, type;
  HttpResponse put(const std::string& u, const std::string& b, const std::string& t) override {
    url = u;
    body = b;
    type = t;
    return answer;
  }
};

std::filesystem::path published(const std::string& name, results::RunResult run) {
  const auto root = std::filesystem::temp_directory_path() / ("labgate-metrics-test-" + name);
  std::filesystem::remove_all(root);
  const auto dir = results::RunDir::create(root, name, results::Clock::now());
  publish(dir, run);
  return dir.path();
}

TEST(PushMetrics, PutsTheFolderMetricsUnderTheLabsGroup) {
  results::RunResult run = testing::synthetic_run();
  run.lab_name = "rack/1";
  const auto dir = published("push", run);
  FakeHttp http;
  push_metrics(dir, "http://127.0.0.1:9091/", http);
  EXPECT_EQ(http.url, "http://127.0.0.1:9091/metrics/job/labgate/lab@base64/cmFjay8x");  // "rack/1"
  EXPECT_EQ(http.body, metrics_text(run));
  EXPECT_THAT(http.type, HasSubstr("text/plain; version=0.0.4"));
}

TEST(PushMetrics, RefusalsAndBadUrlsAreClearErrors) {
  const auto dir = published("refused", testing::synthetic_run());
  FakeHttp http;
  http.answer = {400, "pushed metrics are invalid or inconsistent with existing metrics", ""};
  try {
    push_metrics(dir, "http://127.0.0.1:9091", http);
    FAIL() << "no throw";
  } catch (const Failure& f) {
    EXPECT_EQ(f.code(), ExitCode::kCouldNotRun);
    EXPECT_THAT(f.what(), HasSubstr("(HTTP 400): pushed metrics are invalid"));
  }
  http.answer = {0, "", "Failed to connect to 127.0.0.1 port 9 after 0 ms: Connection refused"};
  try {
    push_metrics(dir, "http://127.0.0.1:9", http);
    FAIL() << "no throw";
  } catch (const Failure& f) {
    EXPECT_THAT(f.what(), HasSubstr("Connection refused"));
  }
  try {
    push_metrics(dir, "ftp://x; rm -rf /", http);
    FAIL() << "no throw";
  } catch (const Failure& f) {
    EXPECT_EQ(f.code(), ExitCode::kUsageError);
    EXPECT_THAT(f.what(), HasSubstr("expected a Pushgateway URL"));
  }
}

}  // namespace
}  // namespace labgate::report

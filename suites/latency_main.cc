// The latency suite: one GoogleTest per profile test and direction (or host, for
// jitter) — Latency.tcp_rr_64/a->b, Throughput.udp_stream_64/a->b,
// Jitter.timer_jitter/a — each measuring on the pair, judging the budget, and
// recording its figures as test properties (p99_us, max_us, ...) for dashboards.
#include <iostream>
#include <memory>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "labgate/budget/budget.h"
#include "labgate/gate/case_runner.h"
#include "labgate/gate/records.h"
#include "labgate/gate/run_book.h"
#include "labgate/gate/session.h"
#include "labgate/gate/test_cases.h"
#include "labgate/transport/interrupt.h"
#include "labgate/util/exit_code.h"
#include "labgate/util/logging.h"
#include "suite_context.h"

namespace labgate::suites {
namespace {

/// What every case needs: the session (opened by the first case, once), the
/// run book, and where "could not run" is noted.
struct Shared {
  const profile::Profile* profile = nullptr;
  std::vector<std::string> hosts;
  gate::RunBook* book = nullptr;
  Outcome* outcome = nullptr;
  std::unique_ptr<gate::GateSession> session;
  std::string session_error;
  bool tried = false;

  gate::GateSession* get() {
    if (!tried) {
      tried = true;
      try {
        session = std::make_unique<gate::GateSession>(*profile, hosts, book->dir().id());
      } catch (const std::exception& e) {
        session_error = e.what();
        spdlog::error("{}", session_error);
      }
    }
    return session.get();
  }
};

std::string fmt_us(double us) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.1f us", us);
  return buf;
}

class CaseTest : public ::testing::Test {
 public:
  CaseTest(Shared& shared, gate::TestCase c) : shared_(shared), c_(std::move(c)) {}

  void TestBody() override {
    auto* session = shared_.get();
    if (!session) return could_not_run("connecting: " + shared_.session_error);
    gate::CaseRun run;
    try {
      spdlog::info("{}: measuring for {} s ({} s warm-up excluded)", c_.name(),
                   std::chrono::duration<double>(c_.spec->duration).count(),
                   std::chrono::duration<double>(c_.spec->warmup).count());
      gate::run_case(*session, c_, &run);
    } catch (const std::exception& e) {
      try {
        keep_raw(run, c_.pair);
      } catch (const std::exception& w) {  // a full disk: the fault above matters more
        spdlog::error("{}: keeping its raw output: {}", c_.name(), w.what());
      }
      return could_not_run(e.what());
    }
    try {
      for (const auto& m : run.measurements) judge(m, run);
    } catch (const std::exception& e) {
      // Measured, but the results could not be written (a full disk): the gate
      // failed, not the servers, so exit 3 rather than a plain test failure.
      return could_not_run(std::string("recording the results: ") + e.what());
    }
    if (session->lease_lost()) {
      shared_.book->warn(c_.name() + ": the lab lease was broken during the test; numbers may be spoiled");
      ADD_FAILURE() << "the lab lease was broken by someone else during this test";
    }
  }

 private:
  std::vector<std::string> keep_raw(const gate::CaseRun& run, const std::string& pair) {
    std::vector<std::string> files;
    for (const auto& [name, content] : run.raw_files)
      files.push_back(shared_.book->dir().write_test_file(c_.spec->name, pair, name, content));
    return files;
  }

  void judge(const measure::Measurement& m, const gate::CaseRun& run) {
    const std::string pair = m.cpu >= 0 ? c_.pair + "/cpu" + std::to_string(m.cpu) : c_.pair;
    const auto verdict = budget::evaluate(m, c_.spec->budget);
    auto record = gate::to_record(c_, m, verdict, pair);
    gate::add_rules(record, run.rules);  // path MTU, buffers_cover_bdp: judged by the runner
    record.conforming = shared_.book->conforming();
    record.raw_files = keep_raw(run, pair);
    record.raw_files.push_back(shared_.book->dir().write_measurement(c_.spec->name, pair, record.measurement));
    const std::string prefix = m.cpu >= 0 ? "cpu" + std::to_string(m.cpu) + "." : "";
    for (const auto& [name, value] : record.figures) RecordProperty(prefix + name, std::to_string(value));
    RecordProperty(prefix + "metric", record.metric);
    if (auto p99 = m.stat("p99"))
      spdlog::info("{}: {} p99 {} max {} ({} samples){}", record.test_name(), record.metric, fmt_us(*p99 / 1000),
                   fmt_us(m.stat("max").value_or(0) / 1000), m.histogram.count(),
                   record.conforming ? "" : " [non-conforming system]");
    shared_.book->put_test(record);
    shared_.book->publish();
    if (record.verdict == results::TestVerdict::kFail)
      ADD_FAILURE() << record.test_name() << " (" << record.metric << ") over budget:\n" << record.failure
                    << (record.conforming ? "" : "\n(measured on a system that failed its preconditions)");
  }

  void could_not_run(const std::string& why) {
    shared_.outcome->could_not_run();
    shared_.book->put_test(gate::error_record(c_, why));
    try {
      shared_.book->publish();
    } catch (const std::exception& e) {  // main() tries again at the end
      spdlog::error("writing the results: {}", e.what());
    }
    FAIL() << "could not run " << c_.name() << ": " << why;
  }

  Shared& shared_;
  gate::TestCase c_;
};

}  // namespace
}  // namespace labgate::suites

int main(int argc, char** argv) {
  using namespace labgate;
  ::testing::InitGoogleTest(&argc, argv);
  const auto options = suites::parse_suite_options(argc, argv, "labgate-latency");
  setup_console_logging(Verbosity::kNormal);
  auto profile = suites::load_profile(options.profile);
  if (!profile) return 2;
  const auto cases = gate::expand_cases(*profile, options.only_test);
  if (cases.empty() && !options.only_test.empty()) {
    std::cerr << "labgate-latency: no test named '" << options.only_test << "' in " << options.profile << "\n";
    return 2;
  }
  suites::Outcome outcome;
  suites::Shared shared;
  std::optional<gate::RunBook> book;
  if (!suites::listing_only()) {
    transport::install_interrupt_handlers();
    try {
      book.emplace(gate::open_or_create_run_dir(options.suffix), *profile, options.suffix);
    } catch (const Failure& f) {
      std::cerr << f.what() << "\n";
      return to_int(f.code());
    }
    shared.profile = &*profile;
    shared.hosts = gate::hosts_of(cases);
    shared.book = &*book;
    shared.outcome = &outcome;
  }
  for (const auto& c : cases) {
    ::testing::RegisterTest(c.suite.c_str(), c.name().c_str(), nullptr, nullptr, __FILE__, __LINE__,
                            [&shared, c]() -> ::testing::Test* { return new suites::CaseTest(shared, c); });
  }
  const int rc = RUN_ALL_TESTS();
  if (suites::listing_only()) return rc;
  try {
    if (shared.session) shared.session->close();
  } catch (const std::exception& e) {
    spdlog::error("{}", e.what());
    book->set_error("cleanup: " + std::string(e.what()));
    outcome.could_not_run();
  }
  try {
    book->publish();
    std::cout << "results: " << book->dir().path().string() << "\n";
  } catch (const std::exception& e) {
    spdlog::error("writing the results: {}", e.what());
    outcome.could_not_run();
  }
  return outcome.exit_code(rc);
}

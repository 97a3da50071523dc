// The console and labgate.log as a Reporter: the spdlog lines the gate has
// always printed (the lab tests grep them), the verdict on stdout.
#include <spdlog/spdlog.h>

#include <iostream>

#include "labgate/gate/case_step.h"
#include "labgate/gate/kinds.h"
#include "labgate/gate/progress_line.h"
#include "labgate/gate/reporter.h"
#include "labgate/gate/tail_case.h"
#include "labgate/measure/one_way.h"
#include "labgate/util/logging.h"

namespace labgate::gate {
namespace {

class ConsoleReporter : public Reporter {
 public:
  void run_started(const std::string& log_path) override { add_log_file(log_path); }

  // On stdout, after GoogleTest's lines; the log holds the verdict as the
  // console said it (a blank line apart is the console's alone).
  void run_finished(const std::vector<std::string>& summary) override {
    for (const auto& line : summary) {
      std::cout << line << "\n";
      if (!line.empty()) write_log_file_only(line);
    }
  }

  void case_started(const TestCase& c) override {
    spdlog::info("{}: {}", c.suite + "." + c.name(), measuring_description(*c.spec));
  }

  void case_progress(const std::string& case_name, const std::string& line) override {
    if (auto progress = format_progress(case_name, line)) spdlog::info("{}", *progress);
  }

  void case_finished(const results::TestRecord& r, const std::string& error) override {
    if (!error.empty()) return;  // said when it happened; the record keeps it
    spdlog::info("{}", result_line(r));
    // Pass or fail, the tail's top cause follows the figures (issue 25).
    if (const std::string why = tail_line(r.tail); !why.empty()) spdlog::info("{}: {}", r.test_name(), why);
    if (const std::string ow = measure::one_way_line(measure::one_way_of_record(r.measurement)); !ow.empty())
      spdlog::info("{}: {}", r.test_name(), ow);
  }

  void info(const std::string& m) override { spdlog::info("{}", m); }
  void warning(const std::string& m) override { spdlog::warn("{}", m); }
  void error(const std::string& m) override { spdlog::error("{}", m); }
  void debug(const std::string& m) override { spdlog::debug("{}", m); }
  void shown(const std::string& line) override { write_log_file_only(line); }
};

}  // namespace

Reporter& console_reporter() {
  static ConsoleReporter console;
  return console;
}

}  // namespace labgate::gate

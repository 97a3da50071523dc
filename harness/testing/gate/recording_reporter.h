// Test support: a Reporter that keeps every event in order, one string each
// ("started Latency.rr/a->b", "finished rr a->b pass", "error could not ..."),
// so a test checks what a run told, not how the console formats it.
// Header-only, for tests; nothing in labgate links it.
#pragma once

#include <string>
#include <vector>

#include "labgate/gate/reporter.h"
#include "util/recording_messages.h"

namespace labgate::gate::testing {

class RecordingReporter : public Reporter {
 public:
  void run_started(const std::string& log_path) override { add("run_started " + log_path); }
  void run_finished(const std::vector<std::string>& summary) override {
    std::string first;  // its first line said (the console's blank line apart)
    for (const auto& l : summary)
      if (first.empty()) first = l;
    add("run_finished " + first);
  }
  void case_started(const TestCase& c) override { add("started " + c.suite + "." + c.name()); }
  void case_progress(const std::string& case_name, const std::string& line) override {
    add("progress " + case_name + " " + line);
  }
  void case_finished(const results::TestRecord& r, const std::string& error) override {
    add("finished " + r.name + " " + r.pair + " " + std::string(results::to_string(r.verdict)) +
        (error.empty() ? "" : ": " + error));
  }
  void info(const std::string& m) override { add("info " + m); }
  void warning(const std::string& m) override { add("warning " + m); }
  void error(const std::string& m) override { add("error " + m); }
  void debug(const std::string& m) override { add("debug " + m); }
  void shown(const std::string& line) override { add("shown " + line); }

  /// Every event so far, in the order told (cases of a mesh round tell from their threads).
  std::vector<std::string> events() const { return log_.events(); }
  /// The events that start with `kind` ("started ", "finished ", "error "), in order.
  std::vector<std::string> of(const std::string& kind) const { return log_.of(kind); }

 private:
  void add(std::string e) { log_.add(std::move(e)); }
  labgate::testing::EventLog log_;
};

}  // namespace labgate::gate::testing

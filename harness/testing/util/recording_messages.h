// Test support: messages kept in order, one string each ("info host a: ...",
// "warning ..."), so a test checks what a layer told, not how the console
// shows it. EventLog is the store (RecordingReporter keeps its events in one
// too); RecordingMessages is util::Messages over it. Header-only, for tests.
#pragma once

#include <mutex>
#include <string>
#include <vector>

#include "labgate/util/messages.h"

namespace labgate::testing {

/// Events in the order told, from any thread.
class EventLog {
 public:
  void add(std::string e) {
    std::lock_guard<std::mutex> lock(mu_);
    events_.push_back(std::move(e));
  }
  std::vector<std::string> events() const {
    std::lock_guard<std::mutex> lock(mu_);
    return events_;
  }
  /// The events that start with `kind` ("info ", "warning ", "started "), in order.
  std::vector<std::string> of(const std::string& kind) const {
    std::vector<std::string> out;
    for (const auto& e : events())
      if (e.rfind(kind, 0) == 0) out.push_back(e);
    return out;
  }

 private:
  mutable std::mutex mu_;
  std::vector<std::string> events_;
};

class RecordingMessages : public util::Messages {
 public:
  void info(const std::string& m) override { log_.add("info " + m); }
  void warning(const std::string& m) override { log_.add("warning " + m); }
  void error(const std::string& m) override { log_.add("error " + m); }
  void debug(const std::string& m) override { log_.add("debug " + m); }
  std::vector<std::string> events() const { return log_.events(); }
  std::vector<std::string> of(const std::string& kind) const { return log_.of(kind); }

 private:
  EventLog log_;
};

}  // namespace labgate::testing

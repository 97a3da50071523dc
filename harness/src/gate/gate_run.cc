// One gate run's session and stop state.
#include "labgate/gate/gate_run.h"

#include "labgate/transport/interrupt.h"
#include "labgate/util/exit_code.h"

namespace labgate::gate {

GateRun::GateRun(const profile::Profile& profile, RunBook& book, SessionBoundaries boundaries)
    : profile_(profile), book_(book), boundaries_(std::move(boundaries)) {}

GateRun::~GateRun() { close(); }

GateSession* GateRun::session(const std::vector<std::string>& hosts) {
  if (session_ || tried_) return session_.get();
  tried_ = true;
  if (stopped()) return nullptr;
  try {
    session_ = std::make_unique<GateSession>(profile_, hosts, book_.dir().id(), boundaries_, book_.reporter());
    // run.json says which address each name was on its host (the tests' parameters carry it too).
    for (const ResolvedName& n : session_->resolved_names())
      book_.resolved_test_address(n.host, n.key, n.name, n.address);
  } catch (const SessionFailure& e) {
    stop("could not " + e.step() + ": " + e.what());
    return nullptr;
  } catch (const std::exception& e) {
    stop(std::string("could not reach the hosts: ") + e.what());
    return nullptr;
  }
  return session_.get();
}

void GateRun::stop(const std::string& why) {
  if (stopped_) return;
  stopped_ = why;
  book_.reporter().error(why);
  book_.set_error(why);
  try {
    book_.publish();
  } catch (const std::exception& e) {
    book_.reporter().error(std::string("writing the results: ") + e.what());
  }
}

std::optional<std::string> GateRun::stopped() const {
  if (stopped_) return stopped_;
  if (const int sig = transport::pending_interrupt()) return "interrupted by " + transport::signal_name(sig);
  return std::nullopt;
}

void GateRun::close() {
  if (!session_) return;
  try {
    session_->close();
  } catch (const std::exception& e) {
    // What is left, on which host: the session's error names each.
    book_.reporter().error(e.what());
    book_.set_error(std::string("clean-up: ") + e.what());
  }
  session_.reset();
}

std::string brief_reason(const std::string& why) { return why.substr(0, why.find(": ")); }

std::optional<std::string> stopped_why(const results::RunResult& run) {
  if (run.error.empty()) return std::nullopt;
  return run.error;
}

}  // namespace labgate::gate

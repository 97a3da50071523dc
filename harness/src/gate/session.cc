// The gate run's hold on its hosts: lease first, then connections and run dirs.
#include "labgate/gate/session.h"

#include <spdlog/spdlog.h>

#include <chrono>
#include <exception>
#include <future>

#include "labgate/deploy/digest.h"
#include "labgate/gate/probe_locator.h"
#include "labgate/transport/connect_all.h"
#include "labgate/util/exit_code.h"

namespace labgate::gate {

namespace {
// Step timings at debug level ("timing: ..."): bench/gate_overhead.py reads them.
using Clock = std::chrono::steady_clock;
long long ms_since(Clock::time_point t0) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count();
}
}  // namespace

namespace {
class RealLease : public LeaseHold {
 public:
  explicit RealLease(std::unique_ptr<lease::LabLease> l) : lease_(std::move(l)) {}
  void release() override { lease_->release(); }
  bool lost() const override { return lease_->lost(); }
  std::string holder() const override { return lease_->holder().describe(); }

 private:
  std::unique_ptr<lease::LabLease> lease_;
};
}  // namespace

SessionBoundaries SessionBoundaries::real() {
  SessionBoundaries b;
  b.connect = [](const profile::Host& h) { return transport::make_transport(h); };
  b.take_lease = [](const profile::Profile& p, const std::vector<profile::Host>& hosts, const std::string& run_id) {
    lease::LeaseOptions options;
    options.wait = p.lease_wait;
    // Every host is reached first, in parallel, and the lease uses those
    // connections: a run that cannot start names every unreachable host, each
    // error once (before, the lease stopped at the first and printed it twice).
    auto reached = std::make_shared<transport::Connected>(transport::connect_all(hosts));
    options.make_transport = [reached](const profile::Host& h) {
      auto it = reached->find(h.name);
      return it != reached->end() && it->second ? std::move(it->second) : transport::make_transport(h);
    };
    // The results folder's name is unique only under one results root: two runs
    // started in the same second with the same --suffix (two Jenkins agents, two
    // profiles) had one lease id, and each took the other's lease for its own.
    const std::string lease_id = run_id + "." + deploy::random_token(4);
    return std::make_unique<RealLease>(
        std::make_unique<lease::LabLease>(p.lab_name, hosts, lease::Holder::current(lease_id), options));
  };
  return b;
}

GateSession::GateSession(const profile::Profile& profile, const std::vector<std::string>& hosts,
                         const std::string& run_id, const SessionBoundaries& boundaries)
    : profile_(profile) {
  std::vector<profile::Host> leased;
  for (const auto& name : hosts) {
    const profile::Host* h = profile.find_host(name);
    if (!h) throw Failure(ExitCode::kUsageError, "host '" + name + "' is not in " + profile.path);
    leased.push_back(*h);
  }
  // The lease comes first: a second run must not even sweep our directories.
  spdlog::info("taking the lease '{}' on {} host(s)", profile.lab_name, leased.size());
  auto t0 = Clock::now();
  lease_ = boundaries.take_lease(profile, leased, run_id);
  spdlog::debug("timing: lease taken in {} ms", ms_since(t0));
  const std::string owner = lease_->holder();
  // Hosts are reached in parallel: each connection is a key exchange and a few
  // round trips, and a rack of six should not pay for them one after another.
  std::vector<std::future<HostState>> pending;
  for (const auto& name : hosts) {
    pending.push_back(std::async(std::launch::async, [this, &profile, &owner, &boundaries, name] {
      auto t0 = Clock::now();
      HostState st;
      st.host = profile.find_host(name);
      spdlog::info("host {}: connecting ({})", name, st.host->address);
      st.transport = boundaries.connect(*st.host);
      spdlog::debug("host {}: {}", name, st.transport->describe());
      spdlog::debug("timing: host {}: connected in {} ms", name, ms_since(t0));
      t0 = Clock::now();
      st.deployment = std::make_unique<deploy::HostDeployment>(*st.transport, *st.host, profile_.lab_name,
                                                               owner, /*sweep_leftovers=*/true);
      // (What the sweep removed the deployment has said, once: not again here.)
      spdlog::debug("timing: host {}: run directory made in {} ms", name, ms_since(t0));
      return st;
    }));
  }
  // Every host is waited for, so none is still being set up when a failure
  // unwinds (its deployment cleans up when its state is destroyed).
  // Every failing host is named, each error once.
  std::string failures;
  ExitCode code = ExitCode::kCouldNotRun;
  for (std::size_t i = 0; i < hosts.size(); ++i) {
    try {
      hosts_.emplace(hosts[i], pending[i].get());
    } catch (const Failure& f) {
      if (f.code() == ExitCode::kUsageError) code = ExitCode::kUsageError;
      failures += (failures.empty() ? "" : "\n") + std::string(f.what());
    } catch (const std::exception& e) {
      failures += (failures.empty() ? "" : "\n") + ("host " + hosts[i] + ": " + e.what());
    }
  }
  if (!failures.empty()) {
    close_quietly();
    throw Failure(code, failures);
  }
}

void GateSession::close_quietly() {
  try {
    close();
  } catch (const std::exception& e) {
    spdlog::error("cleanup: {}", e.what());
  }
}

GateSession::~GateSession() {
  try {
    close();
  } catch (const std::exception& e) {
    spdlog::error("cleanup: {}", e.what());
  }
}

GateSession::HostState& GateSession::state(const std::string& name) {
  auto it = hosts_.find(name);
  if (it == hosts_.end())
    throw Failure(ExitCode::kCouldNotRun, "host '" + name + "' is not part of this gate session");
  return it->second;
}

const profile::Host& GateSession::host(const std::string& name) const {
  const profile::Host* h = profile_.find_host(name);
  if (!h) throw Failure(ExitCode::kUsageError, "host '" + name + "' is not in " + profile_.path);
  return *h;
}

transport::Transport& GateSession::transport(const std::string& name) { return *state(name).transport; }

deploy::HostDeployment& GateSession::deployment(const std::string& name) { return *state(name).deployment; }

std::string GateSession::probe(const std::string& name, const std::string& probe) {
  const auto t0 = Clock::now();
  std::string path = state(name).deployment->install(local_probe(probe));
  spdlog::debug("timing: host {}: probe {} ready in {} ms", name, probe, ms_since(t0));
  return path;
}

bool GateSession::lease_lost() const { return lease_ && lease_->lost(); }

void GateSession::close() {
  if (closed_) return;
  closed_ = true;
  std::string errors;
  for (auto& [name, st] : hosts_) {
    const auto t0 = Clock::now();
    try {
      if (st.deployment) st.deployment->cleanup();
    } catch (const std::exception& e) {
      errors += (errors.empty() ? "" : "; ") + std::string(e.what());
    }
    st.deployment.reset();
    st.transport.reset();
    spdlog::debug("timing: host {}: cleaned up and disconnected in {} ms", name, ms_since(t0));
  }
  const auto t0 = Clock::now();
  if (lease_) lease_->release();
  lease_.reset();
  spdlog::debug("timing: lease released in {} ms", ms_since(t0));
  if (!errors.empty()) throw Failure(ExitCode::kCouldNotRun, "cleanup failed: " + errors);
}

}  // namespace labgate::gate

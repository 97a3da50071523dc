// The gate run's hold on its hosts: one connection per host, the lease over
// them, then the run directories; every step on every host at once.
#include "labgate/gate/session.h"

#include <spdlog/fmt/fmt.h>

#include <algorithm>
#include <chrono>
#include <exception>

#include "labgate/deploy/digest.h"
#include "labgate/gate/cloned_hosts.h"
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
  void stop_heartbeat() override { lease_->stop_heartbeat(); }
  std::vector<std::string> release_command(const std::string& host) override {
    return lease_->release_argv_for(host);
  }
  void released(const std::string& host) override { lease_->released(host); }

 private:
  std::unique_ptr<lease::LabLease> lease_;
};
}  // namespace

lease::LeaseOptions session_lease_options(const profile::Profile& profile,
                                          const std::vector<profile::Host>& hosts) {
  lease::LeaseOptions options;
  options.wait = profile.lease_wait;
  // The heartbeat shares each host's connection. The SSH transport lets it in
  // between the looks of a waiting command, but a local or slower transport may
  // hold it behind a whole command: the lease's stale limit stays beyond the
  // longest command_timeout, so no other run calls a busy run's lease stale.
  transport::Nanos longest{0};
  for (const auto& h : hosts) longest = std::max(longest, h.ssh.command_timeout);
  const auto beat = options.heartbeat.count();
  const int beats = static_cast<int>((longest.count() + beat - 1) / beat) + 1;
  options.stale_after_beats = std::max(options.stale_after_beats, beats);
  return options;
}

SessionBoundaries SessionBoundaries::real() {
  SessionBoundaries b;
  b.connect = [](const profile::Host& h) { return transport::make_transport(h); };
  b.take_lease = [](const profile::Profile& p, std::vector<lease::LeaseTarget> targets, const std::string& run_id,
                    util::Messages& messages) {
    std::vector<profile::Host> hosts;
    for (const auto& t : targets) hosts.push_back(t.host);
    // The results folder's name is unique only under one results root: two runs
    // started in the same second with the same --suffix (two Jenkins agents, two
    // profiles) had one lease id, and each took the other's lease for its own.
    const std::string lease_id = run_id + "." + deploy::random_token(4);
    return std::make_unique<RealLease>(std::make_unique<lease::LabLease>(
        p.lab_name, std::move(targets), lease::Holder::current(lease_id), session_lease_options(p, hosts),
        messages));
  };
  return b;
}

GateSession::GateSession(const profile::Profile& profile, const std::vector<std::string>& hosts,
                         const std::string& run_id, const SessionBoundaries& boundaries, Reporter& reporter)
    : profile_(profile), reporter_(reporter) {
  std::vector<profile::Host> leased;
  for (const auto& name : hosts) {
    const profile::Host* h = profile.find_host(name);
    if (!h) throw Failure(ExitCode::kUsageError, "host '" + name + "' is not in " + profile.path);
    leased.push_back(*h);
  }
  try {
    open(leased, run_id, boundaries);
  } catch (const Failure& f) {
    close_quietly();
    // Which step failed is the run's headline: a read-only probe_dir is not an unreachable host.
    throw SessionFailure(f, step_);
  } catch (...) {
    close_quietly();
    throw;
  }
}

void GateSession::open(const std::vector<profile::Host>& leased, const std::string& run_id,
                       const SessionBoundaries& boundaries) {
  const auto name_of = [&](std::size_t i) { return leased[i].name; };
  // One connection per host for the whole run, every host at once: each is a
  // key exchange and an authentication, and a rack should not pay for them one
  // after another. An unreachable host is named here, each error once.
  auto t0 = Clock::now();
  for (const auto& h : leased) {
    reporter_.info(fmt::format("host {}: connecting ({})", h.name, h.address));
    hosts_[h.name].host = profile_.find_host(h.name);
  }
  transport::on_each_host(
      leased.size(),
      [&](std::size_t i) {
        auto t = boundaries.connect(leased[i]);
        t->connect();
        if (boundaries.processes) t->prepare_processes();
        reporter_.debug(fmt::format("host {}: {}", leased[i].name, t->describe()));
        hosts_.at(leased[i].name).transport = std::move(t);
      },
      name_of)
      .throw_if_any();
  reporter_.debug(fmt::format("timing: hosts connected in {} ms", ms_since(t0)));
  // Cloned images present one host key: said at once, by name; the run goes on.
  std::vector<std::pair<std::string, std::string>> identities;
  for (const auto& h : leased) identities.emplace_back(h.name, hosts_.at(h.name).transport->host_identity());
  for (const std::string& w : cloned_host_warnings(identities)) reporter_.warning(w);
  // A test address given as a name is resolved on its own host (where the probe
  // or tool binds it), every host at once; the peers are given the address.
  std::vector<std::vector<ResolvedName>> names(leased.size());
  transport::on_each_host(
      leased.size(),
      [&](std::size_t i) {
        HostState& st = hosts_.at(leased[i].name);
        st.used = resolve_test_addresses(leased[i], *st.transport, names[i]);
      },
      name_of)
      .throw_if_any("test addresses cannot be resolved");
  for (const auto& per_host : names)
    for (const ResolvedName& n : per_host) {
      reporter_.info(fmt::format("host {}: {} \"{}\" is {} (resolved on {})", n.host, n.key, n.name, n.address, n.host));
      resolved_.push_back(n);
    }
  // The lease comes next, over those connections: a second run must not even
  // sweep our directories.
  step_ = "take the lab lease";
  reporter_.info(fmt::format("taking the lease '{}' on {} host(s)", profile_.lab_name, leased.size()));
  t0 = Clock::now();
  std::vector<lease::LeaseTarget> targets;
  for (const auto& h : leased) targets.push_back({h, hosts_.at(h.name).transport.get()});
  lease_ = boundaries.take_lease(profile_, std::move(targets), run_id, reporter_);
  reporter_.debug(fmt::format("timing: lease taken in {} ms", ms_since(t0)));
  const std::string owner = lease_->holder();
  step_ = "start the run on the hosts";
  t0 = Clock::now();
  transport::on_each_host(
      leased.size(),
      [&](std::size_t i) {
        HostState& st = hosts_.at(leased[i].name);
        // The sweep and the run's directory are one exec (it warns of what it swept).
        st.deployment = std::make_unique<deploy::HostDeployment>(*st.transport, *st.host, profile_.lab_name,
                                                                 owner, /*sweep_leftovers=*/true, reporter_);
      },
      name_of)
      .throw_if_any("hosts cannot start the run");
  reporter_.debug(fmt::format("timing: run directories made in {} ms", ms_since(t0)));
}

void GateSession::close_quietly() {
  try {
    close();
  } catch (const std::exception& e) {
    reporter_.error(std::string("cleanup: ") + e.what());
  }
}

GateSession::~GateSession() {
  try {
    close();
  } catch (const std::exception& e) {
    reporter_.error(std::string("cleanup: ") + e.what());
  }
}

GateSession::HostState& GateSession::state(const std::string& name) {
  auto it = hosts_.find(name);
  if (it == hosts_.end())
    throw Failure(ExitCode::kCouldNotRun, "host '" + name + "' is not part of this gate session");
  return it->second;
}

const profile::Host& GateSession::host(const std::string& name) const {
  if (auto it = hosts_.find(name); it != hosts_.end() && !it->second.used.name.empty()) return it->second.used;
  const profile::Host* h = profile_.find_host(name);
  if (!h) throw Failure(ExitCode::kUsageError, "host '" + name + "' is not in " + profile_.path);
  return *h;
}

transport::Transport& GateSession::transport(const std::string& name) { return *state(name).transport; }

deploy::HostDeployment& GateSession::deployment(const std::string& name) { return *state(name).deployment; }

std::string GateSession::probe(const std::string& name, const std::string& probe) {
  const auto t0 = Clock::now();
  std::string path = state(name).deployment->install(local_probe(probe));
  reporter_.debug(fmt::format("timing: host {}: probe {} ready in {} ms", name, probe, ms_since(t0)));
  return path;
}

void GateSession::install(const std::vector<std::string>& hosts, const std::string& probe) {
  std::vector<std::string> names;  // a host named twice is installed once
  for (const auto& n : hosts)
    if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
  for (const auto& n : names) state(n);  // an unknown host fails before anything starts
  const auto t0 = Clock::now();
  transport::on_each_host(
      names.size(), [&](std::size_t i) { this->probe(names[i], probe); },
      [&](std::size_t i) { return names[i]; })
      .throw_if_any("hosts cannot run probe " + probe);
  reporter_.debug(fmt::format("timing: probe {} ready on {} host(s) in {} ms", probe, names.size(), ms_since(t0)));
}

bool GateSession::lease_lost() const { return lease_ && lease_->lost(); }

void GateSession::close() {
  if (closed_) return;
  closed_ = true;
  std::vector<HostState*> states;
  for (auto& [name, st] : hosts_) states.push_back(&st);
  const auto name_of = [&](std::size_t i) { return states[i]->host->name; };
  // Every host at once: stop what the run started, remove its directory and
  // release the lease there, in one exec per host (the release right after the
  // clean-up, in the same command, whatever the clean-up did).
  auto t0 = Clock::now();
  if (lease_) lease_->stop_heartbeat();
  const auto failed = transport::on_each_host(
      states.size(),
      [&](std::size_t i) {
        HostState& st = *states[i];
        std::unique_ptr<deploy::HostDeployment> d = std::move(st.deployment);
        if (!d) return;
        const std::string& name = st.host->name;
        const auto release = lease_ ? lease_->release_command(name) : std::vector<std::string>{};
        if (d->cleanup(release)) lease_->released(name);
      },
      name_of);
  reporter_.debug(fmt::format("timing: hosts cleaned up and released in {} ms", ms_since(t0)));
  // Whatever the clean-up did not release goes now, while the connections are
  // still up (the lease has none of its own).
  t0 = Clock::now();
  if (lease_) lease_->release();
  lease_.reset();
  reporter_.debug(fmt::format("timing: lease released in {} ms", ms_since(t0)));
  t0 = Clock::now();
  transport::on_each_host(
      states.size(), [&](std::size_t i) { states[i]->transport.reset(); }, name_of);
  reporter_.debug(fmt::format("timing: hosts disconnected in {} ms", ms_since(t0)));
  if (!failed.empty()) {
    std::string errors;
    for (const auto& m : failed.messages) errors += (errors.empty() ? "" : "; ") + m;
    throw Failure(ExitCode::kCouldNotRun, "cleanup failed: " + errors);
  }
}

}  // namespace labgate::gate

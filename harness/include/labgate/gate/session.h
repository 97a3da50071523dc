// One gate run's hold on its hosts: the lab lease, a transport and a private
// deployment directory per host, and the probes installed there. Destroying it
// stops everything the run started and removes its directories, then releases
// the lease — on success, on failure and on SIGINT/SIGTERM alike.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "labgate/deploy/host_deployment.h"
#include "labgate/gate/reporter.h"
#include "labgate/gate/test_addresses.h"
#include "labgate/lease/lab_lease.h"
#include "labgate/profile/profile.h"
#include "labgate/transport/transport.h"
#include "labgate/util/exit_code.h"

namespace labgate::gate {

/// The lab lease as the session holds it (lease::LabLease on real hosts; a fake in tests).
class LeaseHold {
 public:
  virtual ~LeaseHold() = default;
  /// Releases on every host (only if still ours). Idempotent; never throws.
  virtual void release() = 0;
  /// True if someone broke the lease during the run.
  virtual bool lost() const = 0;
  /// Who holds it ("labgate run 20240501-120000 by root@harness pid 4242"): the run directories' owner.
  virtual std::string holder() const = 0;
  /// For releasing a host inside the run's last exec there (its clean-up): the
  /// heartbeat stops first; release_command() is that host's release (empty:
  /// nothing to release there); released() says it ran. release() then
  /// releases whatever is left. The defaults release nothing early.
  virtual void stop_heartbeat() {}
  virtual std::vector<std::string> release_command(const std::string& host) {
    (void)host;
    return {};
  }
  virtual void released(const std::string& host) { (void)host; }
};

/// The OS and network boundaries of a session: how a host is reached and how the
/// lease is taken. The defaults are libssh (or a local process) and the real
/// lease; unit tests pass fakes.
struct SessionBoundaries {
  /// Makes the one transport of a host for the whole run; the session connects
  /// it (Transport::connect), every host at once.
  std::function<std::unique_ptr<transport::Transport>(const profile::Host&)> connect;
  /// Takes the lease for `run_id` over the session's own transports (one per
  /// host: the lease opens no connection of its own); throws
  /// Failure(kCouldNotRun) when refused. The transports outlive the hold;
  /// what the lease tells as it goes (waiting, a stale lease broken, lost)
  /// goes to `messages`, the run's Reporter, which outlives it too.
  std::function<std::unique_ptr<LeaseHold>(const profile::Profile&, std::vector<lease::LeaseTarget> targets,
                                           const std::string& run_id, util::Messages& messages)>
      take_lease;
  /// The session will start probes or tools (a run with cases; not `check`, nor
  /// a run of the preconditions alone):
  /// each host's transport prepares for them as soon as it is connected
  /// (Transport::prepare_processes), beside the session's other steps.
  bool processes = false;
  /// The real ones: transport::make_transport and lease::LabLease.
  static SessionBoundaries real();
};

/// The lease options of a session whose heartbeat shares each host's one
/// connection: a beat may wait behind a command (up to the longest
/// command_timeout of `hosts`), so the lease records a stale limit beyond it
/// (stale_after_beats >= command_timeout / heartbeat + 1).
lease::LeaseOptions session_lease_options(const profile::Profile& profile,
                                          const std::vector<profile::Host>& hosts);

/// Why a GateSession could not open, and at which step ("reach the hosts", "take
/// the lab lease", "start the run on the hosts"): the run's headline names the step.
class SessionFailure : public Failure {
 public:
  SessionFailure(const Failure& f, std::string step) : Failure(f), step_(std::move(step)) {}
  const std::string& step() const { return step_; }

 private:
  std::string step_;
};

class GateSession {
 public:
  /// Connects to every host of `hosts` (profile names) at once, takes the lease
  /// over those connections, and makes every host's run directory at once.
  /// Throws Failure(kCouldNotRun) naming each failing host once and the step.
  GateSession(const profile::Profile& profile, const std::vector<std::string>& hosts, const std::string& run_id,
              const SessionBoundaries& boundaries = SessionBoundaries::real(),
              Reporter& reporter = console_reporter());
  ~GateSession();
  GateSession(const GateSession&) = delete;
  GateSession& operator=(const GateSession&) = delete;

  /// The host as this run uses it: its test-address names resolved on it (see
  /// test_addresses.h) once connected; the profile's entry for a host not in the session.
  const profile::Host& host(const std::string& name) const;
  /// Every test-address name resolved when the session opened, host by host.
  const std::vector<ResolvedName>& resolved_names() const { return resolved_; }
  /// The profile the session was opened for (preconditions a case needs, e.g. buffers_cover_bdp).
  const profile::Profile& profile() const { return profile_; }
  /// Where the run is told as it goes (the case runners tell through it).
  Reporter& reporter() const { return reporter_; }
  transport::Transport& transport(const std::string& name);
  deploy::HostDeployment& deployment(const std::string& name);
  /// The remote path of probe `probe` on host `name`, uploading and verifying it
  /// the first time it is asked for.
  std::string probe(const std::string& name, const std::string& probe);
  /// Uploads and verifies `probe` on every host of `names` at once (a step
  /// that needs it on several hosts); throws Failure naming each failing host.
  void install(const std::vector<std::string>& hosts, const std::string& probe);
  /// True if someone broke our lease during the run: measurements may be spoiled.
  bool lease_lost() const;

  /// Cleans up every host at once, then releases the lease (every host at once)
  /// while the connections are still up, then disconnects; throws Failure if a
  /// host could not be cleaned (after trying all of them). Idempotent.
  void close();

 private:
  struct HostState {
    const profile::Host* host = nullptr;
    profile::Host used;  ///< *host with numeric test addresses
    std::unique_ptr<transport::Transport> transport;
    std::unique_ptr<deploy::HostDeployment> deployment;
  };
  HostState& state(const std::string& name);
  /// The constructor's steps (connect, lease, run directories); a throw leaves
  /// what was done for close() to undo.
  void open(const std::vector<profile::Host>& hosts, const std::string& run_id,
            const SessionBoundaries& boundaries);
  /// close(), logging instead of throwing (a constructor that fails, the destructor).
  void close_quietly();

  const profile::Profile& profile_;
  Reporter& reporter_;
  std::unique_ptr<LeaseHold> lease_;
  std::map<std::string, HostState> hosts_;
  std::vector<ResolvedName> resolved_;
  bool closed_ = false;
  std::string step_ = "reach the hosts";  ///< the step open() is at, for SessionFailure
};

}  // namespace labgate::gate

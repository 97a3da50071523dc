// One gate run's hold on its hosts: the lab lease, a transport and a private
// deployment directory per host, and the probes installed there. Destroying it
// stops everything the run started and removes its directories, then releases
// the lease — on success, on failure and on SIGINT/SIGTERM alike.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "labgate/deploy/host_deployment.h"
#include "labgate/lease/lab_lease.h"
#include "labgate/profile/profile.h"
#include "labgate/transport/transport.h"

#include <functional>

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
};

/// The OS and network boundaries of a session: how a host is reached and how the
/// lease is taken. The defaults are libssh (or a local process) and the real
/// lease; unit tests pass fakes.
struct SessionBoundaries {
  std::function<std::unique_ptr<transport::Transport>(const profile::Host&)> connect;
  /// Takes the lease on `hosts` for `run_id`; throws Failure(kCouldNotRun) when refused.
  std::function<std::unique_ptr<LeaseHold>(const profile::Profile&, const std::vector<profile::Host>& hosts,
                                           const std::string& run_id)>
      take_lease;
  /// The real ones: transport::make_transport and lease::LabLease.
  static SessionBoundaries real();
};

class GateSession {
 public:
  /// Takes the lease on `hosts` (profile names), connects to each and makes its
  /// run directory. Throws Failure(kCouldNotRun) naming the host and the step.
  GateSession(const profile::Profile& profile, const std::vector<std::string>& hosts, const std::string& run_id,
              const SessionBoundaries& boundaries = SessionBoundaries::real());
  ~GateSession();
  GateSession(const GateSession&) = delete;
  GateSession& operator=(const GateSession&) = delete;

  const profile::Host& host(const std::string& name) const;
  /// The profile the session was opened for (preconditions a case needs, e.g. buffers_cover_bdp).
  const profile::Profile& profile() const { return profile_; }
  transport::Transport& transport(const std::string& name);
  deploy::HostDeployment& deployment(const std::string& name);
  /// The remote path of probe `probe` on host `name`, uploading and verifying it
  /// the first time it is asked for.
  std::string probe(const std::string& name, const std::string& probe);
  /// True if someone broke our lease during the run: measurements may be spoiled.
  bool lease_lost() const;

  /// Cleans up every host and releases the lease; throws Failure if a host
  /// could not be cleaned (after trying all of them). Idempotent.
  void close();

 private:
  struct HostState {
    const profile::Host* host = nullptr;
    std::unique_ptr<transport::Transport> transport;
    std::unique_ptr<deploy::HostDeployment> deployment;
  };
  HostState& state(const std::string& name);
  /// close(), logging instead of throwing (a constructor that fails, the destructor).
  void close_quietly();

  const profile::Profile& profile_;
  std::unique_ptr<LeaseHold> lease_;
  std::map<std::string, HostState> hosts_;
  bool closed_ = false;
};

}  // namespace labgate::gate

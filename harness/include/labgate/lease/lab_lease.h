// The lab lease: two gate runs must never measure the same servers at once
// (their traffic would spoil each other's numbers). A run takes an exclusive
// lease on every host it uses, atomically on the target (mkdir of
// <lease_dir>/labgate-lease-<host identity>, holding who/when/pid/lab). It is
// keyed by the server itself (its host-key fingerprint, Transport::host_identity),
// never by the profile's [lab] name, so two profiles that name the same servers
// differently still exclude each other. Every host is tried at once (one exec
// each, in parallel); only when some are held by another run does the fixed
// order (sorted by name) matter: a run keeps the hosts before the first held
// one, gives back those after it, and waits for that one, so a run never holds
// a host while waiting for an earlier one, and two runs cannot deadlock. It is
// kept fresh with a heartbeat and released at the end, on every host at once. A second run waits up to the profile's lease_wait,
// then fails with exit 3 naming the holder. A lease whose holder is gone is
// stale: broken automatically when the holder provably died on this machine,
// otherwise reported, to be broken with `labgate lease break`.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "labgate/lease/holder.h"
#include "labgate/profile/profile.h"
#include "labgate/transport/transport.h"
#include "labgate/util/messages.h"

namespace labgate::lease {

using Nanos = std::chrono::nanoseconds;
/// Makes the transports the lease uses: its own sessions, so a heartbeat never
/// waits behind a two-minute measurement on the run's session.
using TransportFactory = std::function<std::unique_ptr<transport::Transport>(const profile::Host&)>;

struct LeaseOptions {
  Nanos wait = std::chrono::seconds(60);       ///< profile [lab] lease_wait
  Nanos poll = std::chrono::seconds(1);        ///< how often a waiting run looks again
  Nanos heartbeat = std::chrono::seconds(10);  ///< how often the holder refreshes it
  int stale_after_beats = 6;                   ///< missed beats before a lease counts as stale
  /// Where the lease directory goes on every host; unset: each host's
  /// lease_dir (default its probe_dir). Tests point it at a private directory.
  std::optional<std::string> root;
  TransportFactory make_transport = transport::make_transport;
};

/// <root>/labgate-lease-<lab>: the lease of a host whose transport cannot tell
/// its identity (fakes); throws Failure(kUsageError) for a name unsafe in a path.
std::string lease_dir(const std::string& lab_name, const std::string& root = "/tmp");

/// The lease directory of one host: <root>/labgate-lease-<identity>, or
/// lease_dir(lab_name, root) when `identity` is empty. Throws
/// Failure(kUsageError) for an identity or lab name unsafe in a path.
std::string host_lease_dir(const std::string& root, const std::string& identity, const std::string& lab_name);

/// A host the lease is taken on through a transport the caller already has open
/// (the gate session's, so a host costs one SSH connection); it must outlive
/// the lease. The SSH transport lets the heartbeat's channel in while another
/// command waits; a transport that cannot would hold a beat behind a whole
/// command, so keep heartbeat * stale_after_beats above the longest command
/// (command_timeout; gate::session_lease_options does): the lease records that
/// limit, and other runs, on this machine or another, judge staleness by it.
struct LeaseTarget {
  profile::Host host;
  transport::Transport* transport = nullptr;
};

struct RemoteLeaseState;  // what a try found on a host (lease_scripts.h)

class LabLease {
 public:
  /// Takes the lease on `hosts` (any order given; taken sorted by name) for
  /// `holder`, waiting up to options.wait. Throws Failure(kCouldNotRun) naming
  /// the holder when it cannot, having released whatever it took. What it
  /// tells as it goes (waiting, a stale lease broken, a lost lease) goes to
  /// `messages`, which must outlive it (a gate run passes its Reporter).
  LabLease(const std::string& lab_name, std::vector<profile::Host> hosts, Holder holder,
           LeaseOptions options, util::Messages& messages = util::log_messages());
  /// As above, over transports the caller owns (options.make_transport unused).
  LabLease(const std::string& lab_name, std::vector<LeaseTarget> targets, Holder holder,
           LeaseOptions options, util::Messages& messages = util::log_messages());
  ~LabLease();
  LabLease(const LabLease&) = delete;
  LabLease& operator=(const LabLease&) = delete;

  /// Releases on every host (only if still ours). Idempotent; never throws.
  void release();
  /// For a caller that releases a host inside its own last exec there: stops
  /// the heartbeat (a beat after that release would report the lease lost).
  void stop_heartbeat();
  /// The command that releases the lease on `host` (profile name), for that
  /// last exec; empty when it is not held there.
  std::vector<std::string> release_argv_for(const std::string& host);
  /// `host` was released by such a command: release() leaves it alone.
  void released(const std::string& host);
  /// True if a heartbeat found the lease no longer ours (someone broke it):
  /// measurements taken since may be spoiled.
  bool lost() const { return lost_; }
  const Holder& holder() const { return holder_; }

 private:
  struct Held {
    profile::Host host;
    transport::Transport* transport = nullptr;
    std::string dir;  ///< the lease directory on this host
  };
  struct Slot;  // a host while the lease is being taken (lab_lease.cc)
  void take_all(std::vector<LeaseTarget> targets);
  // One try on one host (a provably dead holder's lease is broken and tried
  // again): nullopt once taken (it is then in held_), else who holds it.
  // Throws Failure for what waiting cannot mend.
  std::optional<RemoteLeaseState> attempt(Slot& slot);
  // Polls a held host until it is ours; throws once the deadline passes.
  void wait_for(Slot& slot, RemoteLeaseState held, std::chrono::steady_clock::time_point deadline);
  // Releases one host taken in this run and forgets it (never throws).
  void give_back(const Held& h);
  void heartbeat_loop();

  std::string lab_;
  Holder holder_;
  LeaseOptions options_;
  util::Messages& messages_;
  /// The transports made for the hosts-only constructor; outlive held_.
  std::vector<std::unique_ptr<transport::Transport>> owned_;
  std::vector<Held> held_;
  std::mutex mutex_;  // guards held_ (the parallel takes, the heartbeat, release)
  std::condition_variable wake_;
  bool stopping_ = false;
  std::atomic<bool> lost_{false};
  std::thread heartbeat_;
};

/// One host's lease as `labgate lease` shows it.
struct LeaseStatus {
  std::string host;
  std::string dir;  ///< the lease directory on the host
  bool held = false;
  std::optional<Holder> holder;
  std::optional<long> heartbeat_age;  ///< seconds
  bool stale = false;
  std::string note;  ///< why stale, or what is odd
};

/// Reads the lease on each host without touching it.
std::vector<LeaseStatus> inspect(const std::string& lab_name, const std::vector<profile::Host>& hosts,
                                 const LeaseOptions& options);

/// Removes the lease on each host. A lease that does not look stale is refused
/// (Failure kCouldNotRun) unless `force`. Returns what was found, per host.
std::vector<LeaseStatus> break_lease(const std::string& lab_name, const std::vector<profile::Host>& hosts,
                                     const LeaseOptions& options, bool force);

}  // namespace labgate::lease

// The lab lease: two gate runs must never measure the same servers at once
// (their traffic would spoil each other's numbers). A run takes an exclusive
// lease on every host it uses, atomically on the target (mkdir of
// /tmp/labgate-lease-<lab>, holding who/when/pid), in a fixed order (hosts
// sorted by name, so two runs cannot deadlock), keeps it fresh with a heartbeat,
// and releases it at the end. A second run waits up to the profile's lease_wait,
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
  std::string root = "/tmp";                   ///< where the lease directory goes on each host
  TransportFactory make_transport = transport::make_transport;
};

/// /tmp/labgate-lease-<lab> (under options.root); throws Failure(kUsageError)
/// for a lab name unsafe in a path.
std::string lease_dir(const std::string& lab_name, const std::string& root = "/tmp");

class LabLease {
 public:
  /// Takes the lease on `hosts` (any order given; taken sorted by name) for
  /// `holder`, waiting up to options.wait. Throws Failure(kCouldNotRun) naming
  /// the holder when it cannot, having released whatever it took.
  LabLease(const std::string& lab_name, std::vector<profile::Host> hosts, Holder holder,
           LeaseOptions options);
  ~LabLease();
  LabLease(const LabLease&) = delete;
  LabLease& operator=(const LabLease&) = delete;

  /// Releases on every host (only if still ours). Idempotent; never throws.
  void release();
  /// True if a heartbeat found the lease no longer ours (someone broke it):
  /// measurements taken since may be spoiled.
  bool lost() const { return lost_; }
  const Holder& holder() const { return holder_; }

 private:
  struct Held {
    profile::Host host;
    std::unique_ptr<transport::Transport> transport;
  };
  void take_one(const profile::Host& host, std::chrono::steady_clock::time_point deadline);
  void heartbeat_loop();

  std::string lab_;
  std::string dir_;
  Holder holder_;
  LeaseOptions options_;
  std::vector<Held> held_;
  std::mutex mutex_;  // guards held_ transports between the heartbeat and release
  std::condition_variable wake_;
  bool stopping_ = false;
  std::atomic<bool> lost_{false};
  std::thread heartbeat_;
};

/// One host's lease as `labgate lease` shows it.
struct LeaseStatus {
  std::string host;
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

// The lab lease (see lab_lease.h).
#include "labgate/lease/lab_lease.h"

#include <spdlog/fmt/fmt.h>

#include <algorithm>
#include <thread>

#include "labgate/transport/connect_all.h"
#include "labgate/transport/interrupt.h"
#include "labgate/transport/remote_dir.h"
#include "labgate/transport/shell_quote.h"
#include "labgate/transport/shell_steps.h"
#include "labgate/transport/write_failure.h"
#include "labgate/util/excerpt.h"
#include "labgate/util/exit_code.h"
#include "lease_scripts.h"

namespace labgate::lease {

namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

long seconds(Nanos d) {
  return static_cast<long>(std::chrono::duration_cast<std::chrono::seconds>(d).count());
}

transport::RunOptions short_run(bool cleanup = false) {
  transport::RunOptions o;
  o.timeout = 30s;
  o.during_interrupt = cleanup;
  return o;
}

RemoteLeaseState parse_or_fail(const transport::RunResult& r, const std::string& host,
                               const std::string& dir) {
  auto s = r.ok() ? parse_state(r.out) : std::nullopt;
  if (!s) {
    could_not_run("host " + host + ": cannot read the lab lease " + dir + ": " + r.describe() + " " + r.err +
                  r.out);
  }
  return *s;
}

// How long a lease directory may be without its holder file while being taken.
constexpr long kTakingGraceS = 10;

// Why a held lease counts as stale, or "" if it does not.
std::string stale_reason(const RemoteLeaseState& s, const LeaseOptions& o) {
  // A take makes the directory, then writes its holder file, and a release
  // removes the file, then the directory: a lease met in between is being taken
  // or released (look again), not stale. Without even the directory's age it
  // went while we looked. Only an old directory without a holder is stale (a
  // take cut off between the two).
  if (!s.holder) return !s.dir_age || *s.dir_age <= kTakingGraceS ? "" : "it records no holder";
  if (s.holder->dead_on_this_machine()) {
    return "its harness (pid " + std::to_string(s.holder->pid) + " on this machine) no longer runs that run";
  }
  // The holder's own rule when it wrote one (a heartbeat over a shared
  // connection waits behind the longest command), else ours.
  const long limit =
      s.holder->stale_after_s > 0 ? s.holder->stale_after_s : seconds(o.heartbeat) * o.stale_after_beats;
  if (s.heartbeat_age && *s.heartbeat_age > limit) {
    return "its last heartbeat was " + std::to_string(*s.heartbeat_age) + "s ago (stale after " +
           std::to_string(limit) + "s)";
  }
  return "";
}

std::string holder_text(const RemoteLeaseState& s) {
  std::string t = s.holder ? s.holder->describe() : std::string("an unknown holder");
  if (s.heartbeat_age) t += ", heartbeat " + std::to_string(*s.heartbeat_age) + "s ago";
  return t;
}

// Removes a held lease found in state `s` (only if it is still that holder's).
transport::RunResult remove_held(transport::Transport& t, const std::string& dir, const RemoteLeaseState& s) {
  transport::ShellSteps in_shell;  // the host's one shell, not a channel each (issue 23)
  if (s.holder) return t.run(release_argv(dir, s.holder->run_id), short_run(true));
  return t.run(transport::sh_argv("rm -rf \"$1\"", {dir}), short_run(true));
}

}  // namespace

namespace {
bool path_safe(const std::string& s) {
  return !s.empty() && s[0] != '.' && s[0] != '-' &&
         s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.") ==
             std::string::npos;
}

// The lease root on `host`: the options' override, else the host's lease_dir.
std::string root_for(const profile::Host& host, const LeaseOptions& o) {
  return o.root ? *o.root : host.ssh.lease_root();
}

// The lease directory on a host reached by `t` (asks the host for its identity).
std::string dir_on(transport::Transport& t, const profile::Host& host, const std::string& lab,
                   const LeaseOptions& o) {
  return host_lease_dir(root_for(host, o), t.host_identity(), lab);
}
}  // namespace

std::string lease_dir(const std::string& lab_name, const std::string& root) {
  if (!path_safe(lab_name)) {
    throw Failure(ExitCode::kUsageError,
                  "lab name '" + lab_name +
                      "' cannot name a lease on the hosts: use letters, digits, '-', '_' "
                      "and '.', not starting with '.' or '-'");
  }
  return root + "/labgate-lease-" + lab_name;
}

std::string host_lease_dir(const std::string& root, const std::string& identity,
                           const std::string& lab_name) {
  if (identity.empty()) return lease_dir(lab_name, root);
  if (!path_safe(identity))
    throw Failure(ExitCode::kUsageError, "host identity '" + identity + "' cannot name a lease directory");
  return (root == "/" ? "" : root) + "/labgate-lease-" + identity;
}

struct LabLease::Slot {
  profile::Host host;
  transport::Transport* transport = nullptr;
  std::string dir;  ///< known once the host was reached (its identity keys it)
};

LabLease::LabLease(const std::string& lab_name, std::vector<profile::Host> hosts, Holder holder,
                   LeaseOptions options, util::Messages& messages)
    : lab_(lab_name), holder_(std::move(holder)), options_(std::move(options)), messages_(messages) {
  std::vector<LeaseTarget> targets;
  for (auto& h : hosts) {
    owned_.push_back(options_.make_transport(h));  // reached by the parallel try, not here
    targets.push_back({std::move(h), owned_.back().get()});
  }
  take_all(std::move(targets));
}

LabLease::LabLease(const std::string& lab_name, std::vector<LeaseTarget> targets, Holder holder,
                   LeaseOptions options, util::Messages& messages)
    : lab_(lab_name), holder_(std::move(holder)), options_(std::move(options)), messages_(messages) {
  for (const auto& t : targets) {
    if (!t.transport)
      throw Failure(ExitCode::kCouldNotRun, "host " + t.host.name + ": lease target without a transport");
  }
  take_all(std::move(targets));
}

void LabLease::take_all(std::vector<LeaseTarget> targets) {
  lease_dir(lab_, "/");  // the lab name must be safe whatever keys the lease
  if (holder_.lab.empty()) holder_.lab = lab_;
  holder_.stale_after_s = seconds(options_.heartbeat) * options_.stale_after_beats;
  // One global order for every run: nobody holds b while waiting for a.
  std::sort(targets.begin(), targets.end(),
            [](const auto& x, const auto& y) { return x.host.name < y.host.name; });
  std::vector<Slot> slots;
  for (auto& t : targets) slots.push_back({std::move(t.host), t.transport, ""});
  set_run_active(holder_.run_id, true);
  const auto deadline = Clock::now() + options_.wait;
  try {
    // Hosts before `next` are ours. Each round tries all the others at once:
    // uncontended, the whole lease is one round trip per host, in parallel.
    for (std::size_t next = 0; next < slots.size();) {
      const std::size_t n = slots.size() - next;
      std::vector<std::optional<RemoteLeaseState>> held_by(n);
      transport::on_each_host(
          n, [&](std::size_t i) { held_by[i] = attempt(slots[next + i]); },
          [&](std::size_t i) { return slots[next + i].host.name; })
          .throw_if_any("hosts refuse the lab lease");
      std::size_t first = 0;
      while (first < n && !held_by[first]) ++first;
      if (first == n) break;
      // The fixed order: while waiting for a host, hold none that sorts after
      // it (another run waiting for one of those may hold this one). Those
      // taken in this round are given back (at once) and tried again after.
      std::vector<Held> back;
      {
        std::lock_guard lock(mutex_);
        for (std::size_t j = first + 1; j < n; ++j) {
          if (held_by[j]) continue;
          const Slot& s = slots[next + j];
          back.push_back({s.host, s.transport, s.dir});
        }
      }
      transport::on_each_host(
          back.size(), [&](std::size_t i) { give_back(back[i]); },
          [&](std::size_t i) { return back[i].host.name; });
      wait_for(slots[next + first], *held_by[first], deadline);
      next += first + 1;
    }
  } catch (...) {
    release();
    throw;
  }
  heartbeat_ = std::thread([this] { heartbeat_loop(); });
}

LabLease::~LabLease() { release(); }

std::optional<RemoteLeaseState> LabLease::attempt(Slot& slot) {
  transport::ShellSteps in_shell;  // the host's one shell, not a channel each (issue 23)
  const profile::Host& host = slot.host;
  transport::Transport* t = slot.transport;
  // No symlink anywhere on the way, nor a world-writable directory without the
  // sticky bit: the lease goes where the profile says (docs/security.md). The
  // first take resolves its root in the same request (issue 23: the run's
  // first request is the lease's, one round trip fewer on far hosts).
  std::vector<std::string> resolve;
  const std::string root = root_for(host, options_);
  if (slot.dir.empty()) {
    // Connects and reads the host key: a host that cannot be reached fails here,
    // before anything could have been taken on it.
    slot.dir = dir_on(*t, host, lab_, options_);
    resolve = transport::remote_dir_paths(root);
  }
  const std::string& dir = slot.dir;
  for (;;) {
    transport::RunOptions o = short_run();
    o.input = holder_.serialize();
    transport::RunResult taken;
    try {
      taken = t->run(take_argv(dir, resolve), o);
    } catch (const Failure&) {
      // Interrupted (Ctrl-C) or cut off while the mkdir may have run on the host:
      // the host is not in held_ yet, so release() would not remove it. Only a
      // lease naming our run is removed.
      try {
        t->run(release_argv(dir, holder_.run_id), short_run(true));
      } catch (const std::exception& e) {
        messages_.warning(fmt::format("host {}: could not remove a lease taken as the run stopped: {}",
                                      host.name, e.what()));
      }
      throw;
    }
    if (!resolve.empty()) {
      // Every path reported (the script went on to take), or it stopped at the
      // one refused: named as resolve_remote_dir names it. A script that broke
      // before reporting them is the take's failure, diagnosed below.
      const auto infos = transport::parse_dir_safe(taken.out);
      if (taken.ok() || infos.size() == resolve.size())
        transport::check_remote_dir(*t, root, infos, "host " + host.name,
                                    host.ssh.lease_dir ? "lease_dir" : "lease_dir (probe_dir)");
      resolve.clear();
    }
    if (!taken.ok() && !parse_state(taken.out)) {
      // The take could not write the lease there (its holder file, or the
      // directory itself): a full, read-only or over-quota lease_dir is named as
      // such, with the bytes free, rather than as a lease we "cannot read".
      const std::string why = transport::describe_write_failure(*t, root_for(host, options_));
      could_not_run("host " + host.name + ": cannot take the lab lease " + dir + " (" + taken.describe() +
                    "): " + excerpt(taken.err) + (why.empty() ? "" : " (" + why + ")"));
    }
    const auto s = parse_or_fail(taken, host.name, dir);
    if (s.kind == RemoteLeaseState::Kind::kTaken ||
        // Ours already (a take whose answer was lost): only if this very process wrote it.
        (s.kind == RemoteLeaseState::Kind::kHeld && s.holder && s.holder->run_id == holder_.run_id &&
         s.holder->pid == holder_.pid && s.holder->host == holder_.host)) {
      std::lock_guard lock(mutex_);
      held_.push_back({host, t, dir});
      return std::nullopt;
    }
    if (s.kind == RemoteLeaseState::Kind::kNotADirectory) {
      could_not_run("host " + host.name + ": " + dir +
                    " exists but is not a directory (a planted file or symlink?); "
                    "remove it by hand after checking who made it");
    }
    const std::string stale = stale_reason(s, options_);
    if (!stale.empty() && s.holder && s.holder->dead_on_this_machine()) {
      // Provably dead (same machine, pid gone or run ended): nobody else can use it.
      messages_.warning(fmt::format("host {}: breaking the stale lab lease {} of {}: {}", host.name, dir,
                                    holder_text(s), stale));
      remove_held(*t, dir, s);
      continue;
    }
    if (!stale.empty()) {
      could_not_run("host " + host.name + ": the lab lease " + dir + " is held by " + holder_text(s) +
                    ", and looks stale: " + stale +
                    ". If that run is really gone, break it with `labgate lease break "
                    "PROFILE --host " +
                    host.name + "`");
    }
    return s;
  }
}

void LabLease::wait_for(Slot& slot, RemoteLeaseState held, Clock::time_point deadline) {
  const std::string& name = slot.host.name;
  for (bool said_waiting = false;;) {
    if (Clock::now() >= deadline) {
      could_not_run("host " + name + ": the lab lease " + slot.dir + " is held by " + holder_text(held) +
                    "; waited " + std::to_string(seconds(options_.wait)) +
                    "s (lease_wait). Two gate runs never measure the same "
                    "servers at once, whatever their profiles call them; run again when it is done");
    }
    if (!said_waiting) {
      messages_.info(fmt::format("host {}: lab lease held by {}; waiting up to {}s", name, holder_text(held),
                                 seconds(deadline - Clock::now())));
      said_waiting = true;
    }
    const auto pause = std::min<Clock::duration>(options_.poll, deadline - Clock::now());
    for (auto until = Clock::now() + pause; Clock::now() < until;) {
      transport::throw_if_interrupted("waiting for the lab lease on host " + name);
      std::this_thread::sleep_for(std::min<Clock::duration>(50ms, until - Clock::now()));
    }
    auto again = attempt(slot);
    if (!again) return;
    held = *again;
  }
}

void LabLease::give_back(const Held& h) {
  transport::ShellSteps in_shell;  // the host's one shell, not a channel each (issue 23)
  try {
    const auto r = h.transport->run(release_argv(h.dir, holder_.run_id), short_run(true));
    if (!r.ok())
      messages_.warning(
          fmt::format("host {}: releasing the lab lease {}: {} {}", h.host.name, h.dir, r.describe(), r.err));
  } catch (const std::exception& e) {
    messages_.warning(fmt::format(
        "host {}: could not release the lab lease {}: {} (it turns stale and the next run on this "
        "machine breaks it)",
        h.host.name, h.dir, e.what()));
  }
  std::lock_guard lock(mutex_);
  held_.erase(std::remove_if(held_.begin(), held_.end(),
                             [&](const Held& x) { return x.transport == h.transport && x.dir == h.dir; }),
              held_.end());
}

void LabLease::heartbeat_loop() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    wake_.wait_for(lock, options_.heartbeat, [this] { return stopping_; });
    if (stopping_) break;
    for (auto& h : held_) {
      try {
        const auto r = h.transport->run(heartbeat_argv(h.dir, holder_.run_id), short_run());
        if (r.ok() && r.out.find("lost") != std::string::npos && !lost_) {
          lost_ = true;
          messages_.error(fmt::format(
              "host {}: the lab lease {} is no longer ours (broken by someone?); measurements from "
              "now on may share the servers with another run",
              h.host.name, h.dir));
        }
      } catch (const std::exception& e) {
        messages_.warning(fmt::format("host {}: lease heartbeat failed: {}", h.host.name, e.what()));
      }
    }
  }
}

void LabLease::stop_heartbeat() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (heartbeat_.joinable()) heartbeat_.join();
}

std::vector<std::string> LabLease::release_argv_for(const std::string& host) {
  std::lock_guard lock(mutex_);
  for (const auto& h : held_)
    if (h.host.name == host) return lease::release_argv(h.dir, holder_.run_id);
  return {};
}

void LabLease::released(const std::string& host) {
  std::lock_guard lock(mutex_);
  held_.erase(std::remove_if(held_.begin(), held_.end(), [&](const Held& h) { return h.host.name == host; }),
              held_.end());
}

void LabLease::release() {
  stop_heartbeat();
  std::vector<Held> held;
  {
    std::lock_guard lock(mutex_);
    held = held_;
  }
  // Every host at once; give_back never throws and forgets each host it released.
  transport::on_each_host(
      held.size(), [&](std::size_t i) { give_back(held[i]); },
      [&](std::size_t i) { return held[i].host.name; });
  set_run_active(holder_.run_id, false);
}

std::vector<LeaseStatus> inspect(const std::string& lab_name, const std::vector<profile::Host>& hosts,
                                 const LeaseOptions& options) {
  std::vector<LeaseStatus> out;
  for (const auto& h : hosts) {
    auto t = options.make_transport(h);
    const std::string dir = dir_on(*t, h, lab_name, options);
    const auto s = parse_or_fail(t->run(inspect_argv(dir), short_run()), h.name, dir);
    LeaseStatus st;
    st.host = h.name;
    st.dir = dir;
    st.held = s.kind == RemoteLeaseState::Kind::kHeld || s.kind == RemoteLeaseState::Kind::kNotADirectory;
    st.holder = s.holder;
    st.heartbeat_age = s.heartbeat_age;
    if (s.kind == RemoteLeaseState::Kind::kNotADirectory) {
      st.note = dir + " is not a directory";
    } else if (st.held) {
      st.note = stale_reason(s, options);
      st.stale = !st.note.empty();
    }
    out.push_back(st);
  }
  return out;
}

std::vector<LeaseStatus> break_lease(const std::string& lab_name, const std::vector<profile::Host>& hosts,
                                     const LeaseOptions& options, bool force) {
  std::vector<LeaseStatus> out;
  for (const auto& h : hosts) {
    auto t = options.make_transport(h);
    const std::string dir = dir_on(*t, h, lab_name, options);
    const auto s = parse_or_fail(t->run(inspect_argv(dir), short_run()), h.name, dir);
    LeaseStatus st;
    st.host = h.name;
    st.dir = dir;
    st.holder = s.holder;
    st.heartbeat_age = s.heartbeat_age;
    st.held = s.kind != RemoteLeaseState::Kind::kFree;
    if (s.kind == RemoteLeaseState::Kind::kHeld) {
      st.note = stale_reason(s, options);
      st.stale = !st.note.empty();
      if (!st.stale && !force) {
        could_not_run("host " + h.name + ": the lab lease " + dir + " is held by " + holder_text(s) +
                      ", which looks alive; not breaking it (add --force if you are sure that run is gone)");
      }
      const auto r = remove_held(*t, dir, s);
      transport::require_ok(r, h.name, {"(remove " + dir + ")"});
    } else if (s.kind == RemoteLeaseState::Kind::kNotADirectory) {
      could_not_run("host " + h.name + ": " + dir +
                    " is not a directory (a planted file or symlink?); check and remove "
                    "it by hand");
    }
    out.push_back(st);
  }
  return out;
}

}  // namespace labgate::lease

// A run's footprint on one host (see host_deployment.h).
#include "labgate/deploy/host_deployment.h"

#include <spdlog/fmt/fmt.h>

#include <algorithm>
#include <filesystem>
#include <sstream>

#include "labgate/deploy/digest.h"
#include "labgate/deploy/mounts.h"
#include "labgate/profile/limits.h"
#include "labgate/transport/remote_dir.h"
#include "labgate/transport/shell_quote.h"
#include "labgate/transport/shell_steps.h"
#include "labgate/transport/stat_line.h"
#include "labgate/transport/write_failure.h"
#include "labgate/util/excerpt.h"
#include "labgate/util/exit_code.h"
#include "remote_scripts.h"

namespace labgate::deploy {

namespace {

using namespace std::chrono_literals;

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
  return s;
}

std::string octal(unsigned mode) {
  std::ostringstream o;
  o << '0' << std::oct << mode;
  return o.str();
}

}  // namespace

std::string run_dir_prefix(const std::string& lab_name) {
  if (lab_name.empty() ||
      lab_name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.") !=
          std::string::npos ||
      lab_name[0] == '.' || lab_name[0] == '-') {
    throw Failure(ExitCode::kUsageError, "lab name '" + lab_name +
                                             "' cannot name a directory or lease on the hosts: use letters, "
                                             "digits, '-', '_' and '.', not starting with '.' or '-'");
  }
  return "labgate-" + lab_name + ".";
}

std::string host_tag(transport::Transport& transport, const profile::Host& host) {
  const std::string id = transport.host_identity();
  return id.empty() ? host.name : id;
}

HostDeployment::HostDeployment(transport::Transport& transport, const profile::Host& host,
                               const std::string& lab_name, const std::string& owner_note,
                               bool sweep_leftovers, util::Messages& messages)
    : transport_(transport),
      messages_(messages),
      host_name_(host.name),
      root_(deploy::root_access(host.ssh)),
      probe_dir_(host.ssh.probe_dir) {
  if (root_ == RootAccess::kSudo) sudo_ = std::make_unique<SudoRunner>(transport_, host);
  // The host's own tag in every run directory's name: on storage several hosts
  // mount (a RAC cluster's /u01), a host's sweep only ever sees its own runs.
  const std::string tag = host_tag(transport_, host);
  const std::string prefix = run_dir_prefix(lab_name) + tag + ".";
  const std::string who = "host " + host_name_;
  // The rule validate applies (labgate/profile/limits.h), for a profile built in code.
  if (const std::string why = profile::remote_dir_refusal(probe_dir_); !why.empty())
    throw Failure(ExitCode::kUsageError, who + ": probe_dir '" + probe_dir_ + "': " + why);
  while (probe_dir_.size() > 1 && probe_dir_.back() == '/') probe_dir_.pop_back();
  // Every directory on the way decides who else could tamper with ours: each
  // must be a real directory (no symlink anywhere: /tmp/etclink/default is not
  // /etc/default), and if everyone may write there, sticky (as /tmp is), or
  // another user could rename what follows away and put their own in its place.
  // The host's shell checks them in the run directory's own request, before
  // its mkdir (issue 23: a round trip fewer), and reports what it saw; their
  // owners are checked once the login uid is known (make_private_dir).
  const std::string base_prefix = (probe_dir_ == "/" ? "" : probe_dir_) + "/";
  dir_ = base_prefix + prefix + random_token(8);
  try {
    make_private_dir(who, owner_note, sweep_leftovers ? prefix : "");
    // Only once the login uid is known: the cache is that user's own.
    if (login_uid_ >= 0) cache_dir_ = probe_cache_dir(probe_dir_, tag, login_uid_);
  } catch (...) {
    // Interrupted (Ctrl-C) or cut off once the mkdir may have run: what is there
    // is ours, and nothing else would remove it (its refusals set cleaned_).
    try {
      cleanup();
    } catch (const std::exception& e) {
      messages_.warning(e.what());
    }
    throw;
  }
}

void HostDeployment::make_private_dir(const std::string& who, const std::string& owner_note,
                                      const std::string& sweep_prefix) {
  transport::ShellSteps in_shell;  // the host's one shell, not a channel each (issue 23)
  transport::RunOptions o;
  o.timeout = 30s;
  // One request: probe_dir resolved, the sweep (if asked), the mkdir, the directory's stat and, once
  // the host's shell has checked what is checked below, the owner note (issue 23:
  // far hosts; these were three round trips).
  transport::RunOptions made_o = o;
  if (!sweep_prefix.empty()) made_o.timeout = 60s;
  const auto made = transport_.run(
      sweep_prefix.empty() ? make_private_dir_argv(dir_, probe_dir_, owner_note)
                           : sweep_and_make_private_dir_argv(dir_, probe_dir_, sweep_prefix, owner_note),
      made_o);
  std::string uid, stat_line, note_refused;
  bool stat_seen = false, note_written = false;
  {
    std::istringstream lines(made.out);
    for (std::string line; std::getline(lines, line);) {
      if (line.rfind("swept ", 0) == 0) {
        swept_.push_back(line.substr(6));
      } else if (line.rfind("kept ", 0) == 0) {
        messages_.warning(fmt::format(
            "{}: kept {}: another machine made it (a clone with this host's key, on storage both "
            "mount?) or this one before a reboot; its run is not provably over, so only that run, or "
            "you by hand, may remove it",
            who, line.substr(5)));
      } else if (line.rfind("uid ", 0) == 0) {
        uid = trim(line.substr(4));
      } else if (line.rfind("stat ", 0) == 0) {
        stat_seen = true;
        stat_line = line.substr(5);
      } else if (trim(line) == "owner written") {
        note_written = true;
      } else if (line.rfind("owner refused: ", 0) == 0) {
        note_refused = trim(line.substr(15));
      }
    }
  }
  // probe_dir as the shell saw it before anything was made: refused with
  // resolve_remote_dir's message, or the script went on (every path reported).
  if (const auto infos = transport::parse_dir_safe(made.out);
      made.ok() || infos.size() == transport::remote_dir_paths(probe_dir_).size()) {
    try {
      path_ = transport::check_remote_dir(transport_, probe_dir_, infos, who, "probe_dir");
    } catch (...) {
      cleaned_ = !stat_seen;  // refused before the mkdir: nothing of ours to remove
      throw;
    }
  }
  for (const auto& d : swept_)
    messages_.warning(fmt::format("{}: removed {} left behind by an earlier run", who, d));
  if (!made.ok()) {
    cleaned_ = true;  // not created, or someone else's: not ours to remove
    could_not_run(who + ": cannot create the run's private directory " + dir_ + ": " + trim(made.err) +
                  (made.err.find("File exists") != std::string::npos
                       ? " (someone created that unpredictable name first; "
                         "refusing to use it)"
                       : ""));
  }
  // Verify what is there now, as the script's stat saw it (never following a
  // symlink): ours, 0700, a directory.
  if (!stat_seen)
    could_not_run(who + ": the run's directory " + dir_ +
                  " was made but its script did not report it: " + excerpt(made.out, 200));
  std::optional<transport::Transport::FileInfo> info;
  try {
    info = transport::parse_stat_line(stat_line);
  } catch (const std::exception& e) {
    could_not_run(who + ": the run's directory " + dir_ + ": " + e.what());
  }
  // Whoever owns probe_dir may rename what is in it: another user could move our
  // directory away and plant a symlink under its name (docs/security.md, 4).
  // A uid of -1 means the transport cannot tell; the stop script never follows a symlink.
  // So may the owner of any directory above it, with what follows.
  long login_uid = -1;
  try {
    login_uid = std::stol(uid);
  } catch (const std::exception&) {
    login_uid = -1;  // not told: the run's directory check below refuses it
  }
  login_uid_ = login_uid;
  if (const std::string why = transport::foreign_owner(path_, login_uid, who, "probe_dir", probe_dir_);
      !why.empty()) {
    transport_.run(cleanup_dir_argv(dir_), o);
    cleaned_ = true;
    could_not_run(why);
  }
  // With sudo, the probes run as root from below probe_dir: whoever may write
  // there has root (docs/security.md, sudo). Only the login user may.
  const transport::Transport::FileInfo& base = path_.back().info;
  if (root_ == RootAccess::kSudo && (std::to_string(base.uid) != uid || (base.mode & 077) != 0)) {
    transport_.run(cleanup_dir_argv(dir_), o);
    cleaned_ = true;
    could_not_run(
        who + ": become = \"sudo\" runs probes as root from probe_dir " + probe_dir_ +
        ", so nobody but the login user may write there; it is owned by uid " + std::to_string(base.uid) +
        " with mode " + octal(base.mode) + " (login uid " + uid +
        "). Make a private one, e.g. `mkdir -m 0700 /var/tmp/labgate-$USER`, and name it as probe_dir");
  }
  std::string wrong;
  if (!info) {
    wrong = "it vanished after mkdir";
  } else if (info->is_symlink || !info->is_dir) {
    wrong = "it is not a directory";
  } else if (info->mode != 0700) {
    wrong = "its mode is " + octal(info->mode) + ", not 0700";
  } else if (std::to_string(info->uid) != uid) {
    wrong = "it is owned by uid " + std::to_string(info->uid) + ", not by us (uid " + uid + ")";
  }
  if (!wrong.empty()) {
    const std::string bad = dir_;
    cleaned_ = true;  // not ours to remove
    could_not_run(who + ": the run's directory " + bad + " is not what we created: " + wrong +
                  "; refusing to use it");
  }
  // The checks above passed here; the host's shell made them too before it
  // wrote the note, and said why if it did not.
  if (note_refused == "write failed") {
    // A full, read-only or over-quota probe_dir: named with the bytes free there.
    const std::string why = transport::describe_write_failure(transport_, dir_, owner_note.size() + 1);
    could_not_run(who + ": cannot write the owner note into the run's directory " + dir_ + ": " +
                  excerpt(trim(made.err), 400) + (why.empty() ? "" : " (" + why + ")"));
  }
  if (!note_written)
    could_not_run(who + ": the run's directory " + dir_ + ": the owner note was not written (" +
                  (note_refused.empty() ? "the script said nothing of it" : note_refused) +
                  "); refusing to use it");
}

HostDeployment::~HostDeployment() {
  try {
    cleanup();
  } catch (const std::exception& e) {
    messages_.error(e.what());
  }
}

std::vector<std::string> HostDeployment::marked(const std::vector<std::string>& argv) const {
  std::vector<std::string> out{"env", std::string(kRunMarkerVar) + "=" + dir_};
  out.insert(out.end(), argv.begin(), argv.end());
  return out;
}

transport::RunResult HostDeployment::run(const std::vector<std::string>& argv,
                                         transport::RunOptions options) {
  options.pgid_file = dir_ + "/pgids";
  return transport_.run(marked(argv), options);
}

std::unique_ptr<transport::Process> HostDeployment::start(const std::vector<std::string>& argv,
                                                          transport::StartOptions options) {
  options.pgid_file = dir_ + "/pgids";
  return transport_.start(marked(argv), options);
}

transport::RunResult HostDeployment::run_privileged(const std::vector<std::string>& argv,
                                                    transport::RunOptions options) {
  if (root_ != RootAccess::kSudo) return run(argv, options);
  const auto wrapped = sudo_->wrap(argv);
  auto r = run(wrapped, options);
  sudo_->check(argv, r);
  return r;
}

std::string HostDeployment::install(const std::string& local_probe) {
  const std::string name = std::filesystem::path(local_probe).filename().string();
  if (auto it = installed_.find(name); it != installed_.end()) return it->second;
  // A probe that could not run once (noexec, a wrong binary) fails the same way
  // for every later test, with the first diagnosis, not "already exists".
  if (auto it = refused_.find(name); it != refused_.end()) could_not_run(it->second);
  try {
    std::string remote = install_once(local_probe, name);
    installed_[name] = remote;
    return remote;
  } catch (const Failure& f) {
    refused_[name] = f.what();
    throw;
  }
}

std::string HostDeployment::install_once(const std::string& local_probe, const std::string& name) {
  const std::string expected = sha256_file_hex(local_probe);
  const std::string remote = dir_ + "/" + name;
  transport::ShellSteps in_shell;  // the host's one shell, not a channel each (issue 23)
  transport::RunOptions o;
  o.timeout = 30s;
  // A copy an earlier run verified on this host is one request, not the
  // upload's ~8 round trips behind a far link (issue 23); it is checked as an
  // upload is: complete, then its own --self-digest.
  if (!cache_dir_.empty()) {
    transport::RunOptions co = o;
    co.pgid_file = dir_ + "/pgids";
    const auto c = transport_.run(cached_probe_argv(dir_, remote, cache_dir_, name, expected), co);
    if (c.ok() && trim(c.out) == "cached " + expected) return remote;
  }
  // Written in place: the run's directory is private (checked when it was made),
  // so no part file and rename (issue 23: two round trips fewer per probe).
  transport_.upload_to_private_dir(local_probe, remote, 0700);
  // The upload's mode went through the host's umask: the request that checks
  // what was written sets the bits exactly first, and keeps a copy for the next
  // run once it proved itself (no round trip of its own).
  const auto r = run(cache_dir_.empty()
                         ? std::vector<std::string>{"/bin/sh", "-c", "chmod 0700 \"$0\" && exec \"$0\" \"$@\"",
                                                    remote, "--self-digest"}
                         : verify_and_cache_probe_argv(remote, cache_dir_, name, expected),
                     o);
  if (!r.ok()) {
    if (r.exit_status == 126 || r.err.find("Permission denied") != std::string::npos) {
      could_not_run(exec_failure_message(remote, r));
    }
    could_not_run("host " + host_name_ + ": probe " + remote + " does not run: `" + name +
                  " --self-digest` " + r.describe() + ": " + excerpt(r.err) +
                  (r.exit_status == 127 ? "" : " (is it a static x86-64 probe built for this project?)"));
  }
  const std::string reported = trim(r.out);
  if (reported != expected) {
    // What it printed is untrusted (it is not our probe): bounded and escaped.
    could_not_run("host " + host_name_ + ": probe " + remote +
                  " is not the file uploaded: it reports SHA-256 " + excerpt(reported, 100) + ", the local " +
                  local_probe + " has " + expected);
  }
  return remote;
}

std::string HostDeployment::exec_failure_message(const std::string& probe, const transport::RunResult& r) {
  const std::string head =
      "host " + host_name_ + ": cannot execute probes in " + dir_ + " (" + trim(r.err) + ")";
  std::optional<MountEntry> m;
  try {
    transport::ShellSteps in_shell;
    transport::RunOptions o;
    o.timeout = 30s;
    const auto mounts = transport_.run({"cat", "/proc/mounts"}, o);
    if (mounts.ok()) m = mount_for(probe, mounts.out);
  } catch (const Failure&) {
    // The diagnosis is a bonus; the failure itself is reported either way.
  }
  if (m && m->has_option("noexec")) {
    return head + ": probe_dir " + probe_dir_ + " is on " + m->mount_point + " (" + m->fstype +
           "), mounted with `noexec` (options " + m->options +
           "). Set probe_dir for this host in the profile to a directory on a filesystem mounted without "
           "noexec, e.g. /var/tmp or the login user's home";
  }
  return head +
         (m ? ", although " + m->mount_point + " is not mounted noexec (options " + m->options +
                  "); a security module (SELinux) may forbid executing there"
            : "; the mount options of " + probe_dir_ + " could not be read") +
         ". Try another probe_dir for this host in the profile";
}

void HostDeployment::cleanup() { cleanup(std::vector<std::string>{}); }

bool HostDeployment::cleanup(const std::vector<std::string>& then) {
  if (cleaned_ || dir_.empty()) return false;
  cleaned_ = true;
  transport::ShellSteps in_shell;  // the host's one shell, not a channel each (issue 23)
  transport::RunOptions o;
  o.timeout = 30s;
  o.during_interrupt = true;
  std::string why;
  bool then_ok = false;
  // A dropped connection is reopened by the transport on the next call: try twice.
  for (int attempt = 0; attempt < 2; ++attempt) {
    try {
      const auto r =
          transport_.run(then.empty() ? cleanup_dir_argv(dir_) : cleanup_dir_then_argv(dir_, then), o);
      then_ok = !then.empty() && r.out.find("labgate-then 0\n") != std::string::npos;
      if (r.ok()) return then_ok;
      why = r.describe() + ": " + trim(r.err);
    } catch (const Failure& f) {
      why = f.what();
    }
  }
  could_not_run("host " + host_name_ + ": could not clean up " + dir_ + " (" + why +
                "); the next run that takes the lab lease removes it and stops what it recorded");
}

}  // namespace labgate::deploy

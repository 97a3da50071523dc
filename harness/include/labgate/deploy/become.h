// Root on a host for the few steps that need it (root-only /proc and /sys files
// for the facts probe, ping -f, conrep), for an operator who logs in as
// themselves: `become = "sudo"` runs them through `sudo -n`, which never waits
// for a password. A sudo that wants one, or refuses, is an error that names the
// host and the exact sudoers lines that would allow the step — nothing more.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "labgate/profile/profile.h"
#include "labgate/transport/transport.h"

namespace labgate::deploy {

/// How a host reaches root.
enum class RootAccess {
  kLogin,  ///< the login user is root
  kSudo,   ///< become = "sudo" and another login user
  kNone,   ///< neither: steps that need root run as the login user and say so
};

RootAccess root_access(const profile::SshSettings& ssh);

/// What sudo's refusal means, from its stderr (sudo 1.7.2 on RHEL 5 to 1.9).
/// `listing`: the answer to `sudo -n -l PROGRAM`, where any failure is a "no";
/// otherwise only sudo's own words count (the program may fail by itself).
enum class SudoRefusal { kNone, kPassword, kRequiretty, kNotAllowed, kNoSudo };
SudoRefusal classify_sudo_refusal(int exit_status, const std::string& err, bool listing);

/// The sudoers lines that let `user` run `command` (a full path; a probe's path
/// inside a run directory is widened to every run directory below probe_dir)
/// without a password, plus `Defaults:user !requiretty` (RHEL 5/6 ship
/// `Defaults requiretty`, which refuses sudo without a terminal).
std::string sudoers_lines(const std::string& user, const std::string& command, const std::string& probe_dir);

/// Runs commands as root through sudo -n on one host, checking once per program
/// (`sudo -n -l PROGRAM`) that sudo allows it without a password, so a refusal
/// is reported before anything runs. `Defaults requiretty` only shows when the
/// program runs (sudo -l ignores it): check() recognises it in the result.
class SudoRunner {
 public:
  SudoRunner(transport::Transport& transport, const profile::Host& host) : t_(transport), host_(host) {}
  /// argv prefixed with `sudo -n --` after the check; throws Failure(kCouldNotRun)
  /// naming the host, the program, sudo's words and the sudoers lines to add.
  std::vector<std::string> wrap(const std::vector<std::string>& argv);
  /// After running wrap(argv): throws as wrap() does if sudo itself refused.
  void check(const std::vector<std::string>& argv, const transport::RunResult& r);

 private:
  [[noreturn]] void refuse(const std::string& program, SudoRefusal why, const std::string& said);

  transport::Transport& t_;
  profile::Host host_;
  std::map<std::string, std::string> allowed_;  // program -> full path sudo resolved
};

}  // namespace labgate::deploy

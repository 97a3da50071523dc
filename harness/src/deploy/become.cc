// Root through sudo -n for the steps that need it (see become.h).
#include "labgate/deploy/become.h"

#include <chrono>

#include "labgate/transport/shell_quote.h"
#include "labgate/util/excerpt.h"
#include "labgate/util/exit_code.h"

namespace labgate::deploy {

namespace {

using namespace std::chrono_literals;

bool contains(const std::string& s, const char* needle) { return s.find(needle) != std::string::npos; }

std::string first_line(const std::string& s) {
  std::string line = s.substr(0, s.find('\n'));
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
  return excerpt(line, 300);
}

}  // namespace

RootAccess root_access(const profile::SshSettings& ssh) {
  if (ssh.user == "root") return RootAccess::kLogin;
  return ssh.uses_sudo() ? RootAccess::kSudo : RootAccess::kNone;
}

SudoRefusal classify_sudo_refusal(int exit_status, const std::string& err, bool listing) {
  if (exit_status == 0) return SudoRefusal::kNone;
  if (exit_status == 127 && (contains(err, "sudo: not found") || contains(err, "sudo: command not found") ||
                             contains(err, "sudo: No such file")))
    return SudoRefusal::kNoSudo;
  // sudo's refusals come before the program runs, with exit 1.
  if (exit_status != 1) return SudoRefusal::kNone;
  // "you must have a tty to run sudo" (1.7) / "a terminal is required" (1.8+).
  if (contains(err, "must have a tty") || contains(err, "terminal is required"))
    return SudoRefusal::kRequiretty;
  // "a password is required" (1.8+) / "sorry, a password is required to run sudo" (1.7).
  if (contains(err, "sudo: a password is required") || contains(err, "sudo: sorry, a password is required"))
    return SudoRefusal::kPassword;
  if (listing || contains(err, "is not in the sudoers file") || contains(err, "is not allowed to execute"))
    return SudoRefusal::kNotAllowed;
  return SudoRefusal::kNone;  // the program's own exit 1
}

std::string sudoers_lines(const std::string& user, const std::string& command, const std::string& probe_dir) {
  std::string allowed = command;
  // A probe lives in this run's directory, whose name changes every run: allow
  // that one program in any run directory directly below probe_dir. sudoers'
  // '*' never matches '/', so nothing deeper or elsewhere is allowed.
  std::string base = probe_dir;
  while (base.size() > 1 && base.back() == '/') base.pop_back();
  const std::string prefix = (base == "/" ? "" : base) + "/labgate-";
  if (allowed.rfind(prefix, 0) == 0) {
    const auto slash = allowed.find('/', prefix.size());
    if (slash != std::string::npos && allowed.find('/', slash + 1) == std::string::npos)
      allowed = prefix + "*" + allowed.substr(slash);
  }
  return "  " + user + " ALL=(root) NOPASSWD: " + allowed + "\n  Defaults:" + user +
         " !requiretty    # RHEL 5/6 ship `Defaults requiretty`; labgate has no terminal";
}

void SudoRunner::refuse(const std::string& program, SudoRefusal why, const std::string& sudo_said) {
  std::string full = program;
  if (program.find('/') == std::string::npos) {
    try {
      transport::RunOptions o;
      o.timeout = 30s;
      const auto w = t_.run(transport::sh_argv("command -v \"$1\"", {program}), o);
      if (w.ok() && !w.out.empty() && w.out[0] == '/') full = first_line(w.out);
    } catch (const Failure&) {
      // The plain name still tells the operator which program it is.
    }
  }
  const std::string who = "host " + host_.name + ": `" + program + "` needs root (become = \"sudo\"), but ";
  std::string said;
  switch (why) {
    case SudoRefusal::kNoSudo:
      throw Failure(ExitCode::kCouldNotRun, who + "sudo is not installed there (" + sudo_said + ")");
    case SudoRefusal::kPassword:
      said = "sudo wants a password (" + sudo_said + "); labgate never types one";
      break;
    case SudoRefusal::kRequiretty:
      said = "sudoers has `Defaults requiretty` and labgate runs without a terminal (" + sudo_said + ")";
      break;
    default:
      said = "sudo does not let " + host_.ssh.user + " run it as root" +
             (sudo_said.empty() ? "" : " (" + sudo_said + ")");
  }
  throw Failure(ExitCode::kCouldNotRun,
                who + said + ". To allow exactly this without a password, add on host " + host_.name +
                    " (visudo -f /etc/sudoers.d/labgate):\n" +
                    sudoers_lines(host_.ssh.user, full, host_.ssh.probe_dir) + "\n(that makes " +
                    host_.ssh.user +
                    " root for whatever it can put at that path: see docs/security.md, \"sudo\")");
}

std::vector<std::string> SudoRunner::wrap(const std::vector<std::string>& argv) {
  if (argv.empty()) throw Failure(ExitCode::kCouldNotRun, "host " + host_.name + ": empty command for sudo");
  const std::string& program = argv[0];
  if (!allowed_.count(program)) {
    transport::RunOptions o;
    o.timeout = 30s;
    // -l PROGRAM: "may I run this?", answered without running it; -n: never a prompt.
    const auto r = t_.run({"sudo", "-n", "-l", "--", program}, o);
    if (r.timed_out) refuse(program, SudoRefusal::kNotAllowed, "sudo -n -l did not answer within 30 s");
    const SudoRefusal why = classify_sudo_refusal(r.exit_status, r.err, /*listing=*/true);
    if (why != SudoRefusal::kNone) refuse(program, why, first_line(r.err.empty() ? r.out : r.err));
    allowed_[program] = first_line(r.out);
  }
  std::vector<std::string> out{"sudo", "-n", "--"};
  out.insert(out.end(), argv.begin(), argv.end());
  return out;
}

void SudoRunner::check(const std::vector<std::string>& argv, const transport::RunResult& r) {
  if (argv.empty() || r.timed_out) return;
  const SudoRefusal why = classify_sudo_refusal(r.exit_status, r.err, /*listing=*/false);
  if (why != SudoRefusal::kNone) refuse(argv[0], why, first_line(r.err));
}

}  // namespace labgate::deploy

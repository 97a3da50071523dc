// The per-host fix script (see fix_script.h): comments say what is wrong and
// where it was read; commands are what the seed's tuning section did by hand.
#include "labgate/checks/fix_script.h"

#include <sstream>

namespace labgate::checks {
namespace {

// Every line of `text` prefixed with "# ".
std::string commented(const std::string& text) {
  std::istringstream in(text);
  std::string line, out;
  while (std::getline(in, line)) out += "# " + line + "\n";
  return out;
}

// Text from the profile or the host becomes comment text on a single line.
std::string one_line(std::string s) {
  for (char& ch : s)
    if (ch == '\n' || ch == '\r') ch = ' ';
  return s;
}

}  // namespace

std::string fix_script(const std::string& host, const std::vector<CheckResult>& results,
                       const std::string& origin) {
  std::ostringstream s;
  s << "#!/bin/sh\n"
    << "# labgate fix script for host " << one_line(host) << "\n"
    << "# From: " << one_line(origin) << "\n"
    << "# Review every line before running it as root on " << one_line(host)
    << ". labgate never runs it and never changes a target.\n"
    << "set -e\n";
  int fixes = 0;
  bool reboot = false;
  for (const CheckResult& r : results) {
    if (r.host != host || r.verdict != Verdict::kFail) continue;
    ++fixes;
    s << "\n# [" << one_line(r.rule) << "] " << one_line(r.message) << "\n";
    for (const std::string& n : r.notes) s << "# note: " << one_line(n) << "\n";
    s << (r.fix.empty() ? "# (no fix known)\n" : r.fix + "\n");
    reboot = reboot || r.needs_reboot;
  }
  std::string others;
  for (const CheckResult& r : results) {
    if (r.host == "pair" && r.verdict == Verdict::kFail)
      others += commented("[" + one_line(r.rule) + "] " + one_line(r.message));
    if (r.host == host && r.verdict == Verdict::kNotCheckable)
      others += commented("[" + one_line(r.rule) + "] not checkable: " + one_line(r.reason));
  }
  if (!others.empty()) s << "\n# Also found (nothing to run here):\n" << others;
  if (fixes == 0)
    s << "\n# Nothing to fix: every rule that could be checked on " << one_line(host) << " passed.\n";
  if (reboot) s << "\n# Some changes above take effect only after a reboot:\n# reboot\n";
  return s.str();
}

}  // namespace labgate::checks

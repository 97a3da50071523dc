// Runs the real facts probe (built by probes/CMakeLists.txt) and parses its
// snapshot, as the precondition suite will do over SSH.
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "labgate/facts/parse.h"
#include "labgate/facts/probe_args.h"

namespace labgate::facts_fixture {

inline std::string quote(const std::string& s) {
  std::string out = "'";
  for (char ch : s) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

struct ProbeRun {
  int exit_code = -1;
  std::string out;
};

/// Runs `prefix` (e.g. "ip netns exec NS") + the facts probe + args; stdout only.
inline ProbeRun run_probe(const std::vector<std::string>& args, const std::string& prefix = "") {
  std::string cmd = prefix + (prefix.empty() ? "" : " ") + quote(LABGATE_FACTS_PROBE);
  for (const std::string& a : args) cmd += " " + quote(a);
  ProbeRun r;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) throw std::runtime_error("cannot run " + cmd);
  std::array<char, 65536> buf;
  std::size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  const int status = pclose(p);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

/// The snapshot of a recorded root for `pre`, through the probe's real argument list.
inline facts::Facts facts_of_root(const std::string& root, const profile::Preconditions& pre) {
  const ProbeRun r = run_probe(facts::probe_arguments(pre, root));
  if (r.exit_code != 0)
    throw std::runtime_error("facts probe on " + root + " exited " + std::to_string(r.exit_code));
  return facts::parse_facts(r.out, root);
}

}  // namespace labgate::facts_fixture

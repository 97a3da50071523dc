// Judging the probes' own report of the LD_PRELOAD libraries they had mapped.
#include "labgate/gate/preload_check.h"

#include <sstream>
#include <vector>

namespace labgate::gate {
namespace {

struct EndReport {
  std::string mapped_as;  ///< the path the library was mapped from; empty when not
  std::string ld_so;      ///< ld.so's "cannot be preloaded" line, if any
  bool reported = false;  ///< the probe printed any labgate-preload line (it is the dynamic build)
};

EndReport read_end(const std::string& lib, const std::string& err) {
  EndReport e;
  std::istringstream in(err);
  const std::string want = std::string(kPreloadMappedPrefix) + lib + " as ";
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("labgate-preload: ", 0) == 0) e.reported = true;
    if (line.rfind(want, 0) == 0) e.mapped_as = line.substr(want.size());
    if (line.find("cannot be preloaded") != std::string::npos && e.ld_so.empty()) e.ld_so = line;
  }
  return e;
}

std::string why_not(const std::string& host, const std::string& role, const std::string& lib,
                    const EndReport& e) {
  std::string s = role + " on " + host + " ran without " + lib + " mapped";
  if (!e.ld_so.empty()) return s + " (" + e.ld_so + ")";
  if (!e.reported) return s + " (it printed no labgate-preload line: not the dynamically linked probe?)";
  return s + " (LD_PRELOAD did not reach it, or the wrapper replaced it)";
}

}  // namespace

RuleVerdict judge_preload(const std::string& lib, const std::string& client_host,
                          const std::string& client_err, const std::string& server_host,
                          const std::string& server_err) {
  const EndReport client = read_end(lib, client_err), server = read_end(lib, server_err);
  RuleVerdict v;
  v.rule = "preload " + lib;
  v.unit = "ends";
  v.limit = 2;
  v.observed =
      static_cast<double>(!client.mapped_as.empty()) + static_cast<double>(!server.mapped_as.empty());
  v.pass = *v.observed == 2;
  std::vector<std::string> parts;
  if (client.mapped_as.empty()) parts.push_back(why_not(client_host, "the client", lib, client));
  if (server.mapped_as.empty()) parts.push_back(why_not(server_host, "the server", lib, server));
  if (v.pass) {
    v.message = lib + " was mapped in both probes: client on " + client_host + " (" + client.mapped_as +
                "), server on " + server_host + " (" + server.mapped_as + ")";
  } else {
    for (const auto& p : parts) v.message += (v.message.empty() ? "" : "; ") + p;
    v.message += ": these figures are the kernel's, not the stack's";
  }
  return v;
}

}  // namespace labgate::gate

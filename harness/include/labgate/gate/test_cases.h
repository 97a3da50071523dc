// A profile test becomes one case per direction or per host: tcp_rr_64 from a to
// b is the case "tcp_rr_64/a->b"; a jitter test on a and b is "timer_jitter/a"
// and "timer_jitter/b"; a mesh test (pairs = "mesh") is one case per pair of its
// hosts, "tcp_rr_64/a->c". Each case is one registered GoogleTest and one record.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "labgate/profile/profile.h"

namespace labgate::gate {

struct TestCase {
  const profile::TestSpec* spec = nullptr;
  std::string pair;    ///< "a->b" for rr/stream, "a" for jitter
  std::string client;  ///< host that runs the client (or the jitter probe)
  std::string server;  ///< host that runs the server; empty for jitter
  std::string suite;   ///< "Latency", "Throughput" or "Jitter"
  std::string label;   ///< CTest label: "latency", "throughput", "jitter"
  /// mesh_schedule = "disjoint": the round (1-based) whose pairs are measured at
  /// the same time, no host in two of them; 0 for a case measured on its own.
  int round = 0;

  /// "tcp_rr_64/a->b".
  std::string name() const { return spec->name + "/" + pair; }
};

/// The (client, server) pairs a network test measures: its from/to, or for
/// pairs = "mesh" every pair of its hosts (one direction or both).
std::vector<std::pair<std::string, std::string>> pairs_of(const profile::TestSpec& t);

/// Every case of every test, in profile order; `only` restricts to one test name.
/// A disjoint mesh's cases come round by round (mesh::round_robin), each with its round.
std::vector<TestCase> expand_cases(const profile::Profile& p, const std::string& only = "");

/// The hosts the cases touch, sorted and unique.
std::vector<std::string> hosts_of(const std::vector<TestCase>& cases);

}  // namespace labgate::gate

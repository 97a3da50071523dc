// For unit tests: the mcast probe's outputs recorded on the mesh lab (m1's feed
// to m2..m6), as the multicast readers are given them.
#pragma once

#include <string>
#include <vector>

#include "labgate/measure/multicast_output.h"
#include "util/source_file.h"

namespace labgate::measure::test_util {

/// harness/src/measure/testdata/<name>, whole.
inline std::string mcast_recorded(const std::string& name) {
  return test_files::source_file("harness/src/measure/testdata/" + name);
}

/// The subscribers' test addresses, m2..m6, as the publisher was given them.
inline const std::vector<std::string> kMeshSubscribers{"198.19.200.2", "198.19.200.3", "198.19.200.4",
                                                       "198.19.200.5", "198.19.200.6"};

/// The recorded subscriber output `name` (m2's) read as each of m2..m6.
inline std::vector<SubscriberCounts> five_subscribers(const std::string& name) {
  const SubscriberCounts one = read_subscriber(mcast_recorded(name), "m2");
  std::vector<SubscriberCounts> subs;
  for (int k = 2; k <= 6; ++k) {
    subs.push_back(one);
    subs.back().host = "m" + std::to_string(k);
  }
  return subs;
}

}  // namespace labgate::measure::test_util

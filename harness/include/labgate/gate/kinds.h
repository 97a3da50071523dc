// The GoogleTest suite and CTest label each kind is reported under, and what its
// runner really does while it measures (said on the console before it starts),
// from what the kind registered (labgate/gate/kind_runner.h). Every place that
// needs a kind's suite or label reads it here.
#pragma once

#include <string>
#include <vector>

#include "labgate/profile/test_spec.h"

namespace labgate::gate {

struct KindInfo {
  const char* suite;  ///< "Latency", "Throughput", "Jitter", "Network", "Command", "Storage"
  const char* label;  ///< the CTest label and `labgate run -L` name: "latency", ...
};

/// The suite and label of a kind.
KindInfo kind_info(profile::TestKind k);

/// Every label a gate run knows, preconditions first: what `-L` accepts.
const std::vector<std::string>& all_labels();

/// What the case will do, in words, for the "measuring" line: the probe's timed
/// window and excluded warm-up, a tool's own timing, a count, a deadline.
std::string measuring_description(const profile::TestSpec& t);

/// The warm-up part of a "measuring" line: " after a 2s warm-up (excluded)", or
/// " (no warm-up)".
std::string excluded_warmup(const profile::TestSpec& t);

}  // namespace labgate::gate

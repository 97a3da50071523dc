// The per-sample join of an external tool's round trips (issue 25 point 5):
// sockperf with full_log = true logs every round trip on the client host's
// CLOCK_MONOTONIC; its worst, read on the host (tools/sockperf_full_log.h),
// become the client's outliers and are attributed one by one exactly as the
// built-in probe's are (tail/attribute.h), on both hosts' watches.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "labgate/profile/test_spec.h"
#include "labgate/tail/run_noise.h"
#include "labgate/tools/tool_driver.h"

namespace labgate::gate {

/// The attribution document (tail::to_json's: top, ranked, outliers, limits,
/// clock_offset) of the worst round trips of `t`'s full log, or nullopt with
/// `why` saying why the join cannot be made (the pass failed, no watch on host
/// a, the client not pinned, times not on the watch's clock...). `a` and `b`
/// are the client's and the server's watches placed on their clocks as the
/// whole-run join places them; host b's is joined through those placements
/// (the offset's bound: both stops' round trips) and only where the server is
/// pinned. `tool_comms`: the tool's own programs (never a cause), as the
/// whole-run join names them. Pure.
std::optional<nlohmann::json> explain_samples(const profile::TestSpec& spec, const tools::ToolRun& t,
                                              const tail::RunHost& a, const tail::RunHost& b,
                                              const std::vector<std::string>& tool_comms, std::string& why);

/// The run.json "tail" of a tool case with a per-sample join: the whole-run
/// document `run_level` (over_run, causes, join) with the attribution's
/// outliers, ranked causes and top in it, and both limits lists merged.
nlohmann::json with_samples(nlohmann::json run_level, const nlohmann::json& samples);

}  // namespace labgate::gate

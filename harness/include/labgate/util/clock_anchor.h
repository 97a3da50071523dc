// A probe's clock anchor (probes/common/lg_anchor.h): its monotonic -> realtime
// tie, taken at the start and again at the end of the run. Stamps carried over
// with the tie are one clock, whatever happens to realtime; stamps the kernel
// takes (SO_TIMESTAMPNS) read realtime as it is. Compared with each other, the
// two disagree by any step of the realtime clock between the tie and the stamp,
// so a figure that mixes them holds only if the tie did not move.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace labgate::util {

/// How far `anchor` ({delta_ns, error_ns, end_delta_ns, end_error_ns}) moved
/// between the start and the end of the run, when that is more than both
/// readings' errors: the realtime clock was stepped. nullopt when it was not,
/// or the anchor has no end tie (a probe older than it). Throws
/// std::invalid_argument on a malformed anchor, naming `path`.
std::optional<std::int64_t> realtime_step(const nlohmann::json& anchor, const std::string& path);

/// "<whose> realtime clock was stepped forward by 500us during the run", for a
/// why_not or a limit; `whose` is e.g. "host b's".
std::string realtime_step_said(const std::string& whose, std::int64_t moved_ns);

}  // namespace labgate::util

// A probe's clock anchor and the realtime steps it shows (see clock_anchor.h).
#include "labgate/util/clock_anchor.h"

#include "labgate/util/json_reader.h"
#include "labgate/util/units.h"

namespace labgate::util {

std::optional<std::int64_t> realtime_step(const nlohmann::json& anchor, const std::string& path) {
  if (!anchor.is_object() || !anchor.contains("end_delta_ns")) return std::nullopt;
  const JsonReader r(anchor, path);
  const std::optional<long long> start = r.opt_int("delta_ns"), end = r.opt_int("end_delta_ns");
  if (!start) r.fail("delta_ns", "expected an integer");
  if (!end) r.fail("end_delta_ns", "expected an integer");
  const std::int64_t moved = *end - *start;
  const std::uint64_t size = static_cast<std::uint64_t>(moved < 0 ? -moved : moved);
  if (size <= r.count("error_ns") + r.count("end_error_ns")) return std::nullopt;
  return moved;
}

std::string realtime_step_said(const std::string& whose, std::int64_t moved_ns) {
  return whose + " realtime clock was stepped " + (moved_ns < 0 ? "back" : "forward") + " by " +
         units::format_duration(std::chrono::nanoseconds(moved_ns < 0 ? -moved_ns : moved_ns)) +
         " during the run (its monotonic->realtime tie moved between start and end)";
}

}  // namespace labgate::util

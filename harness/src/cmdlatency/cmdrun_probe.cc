// cmdrun's command line from a command test, and its JSON as a Measurement.
#include "labgate/cmdlatency/cmdrun_probe.h"

#include <nlohmann/json.hpp>

#include "labgate/cmdlatency/command_series.h"
#include "labgate/measure/probe_command.h"
#include "labgate/measure/probe_output.h"

namespace labgate::cmdlatency {
namespace {

using measure::ProbeOutputError;
using nlohmann::json;
using namespace std::chrono_literals;

constexpr std::size_t kMaxJson = 64u << 20;

[[noreturn]] void bad(const std::string& what) { throw ProbeOutputError("cmdrun output: " + what, false); }

std::uint64_t unsigned_at(const json& j, const std::string& key) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_number_unsigned()) bad("'" + key + "' is missing or not an unsigned integer");
  return it->get<std::uint64_t>();
}

// A member as text, "" when absent or not a string (value() would throw on a number).
std::string text_at(const json& j, const std::string& key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : "";
}

}  // namespace

CmdrunInvocation cmdrun_command(const profile::TestSpec& spec, const std::string& probe,
                                const std::string& scratch) {
  const profile::CommandParams& c = spec.command;
  CmdrunInvocation inv;
  inv.argv = {probe, "--timeout", measure::exact_duration(c.timeout), "--scratch", scratch};
  if (c.pause.count() > 0) inv.argv.insert(inv.argv.end(), {"--pause", measure::exact_duration(c.pause)});
  // The probe's own floor (9 runs of itself) and start-up fit in the margin.
  const auto margin = std::chrono::nanoseconds(60s);
  if (c.count) {
    inv.argv.insert(inv.argv.end(), {"--count", std::to_string(*c.count)});
    inv.timeout = static_cast<std::int64_t>(*c.count) * (c.timeout + c.pause) + margin;
  } else {
    inv.argv.insert(inv.argv.end(), {"--duration", measure::exact_duration(spec.duration)});
    inv.timeout = spec.duration + c.timeout + c.pause + margin;
  }
  inv.argv.push_back("--");
  inv.argv.insert(inv.argv.end(), c.argv.begin(), c.argv.end());
  return inv;
}

measure::Measurement parse_cmdrun(std::string_view text, const profile::TestSpec& spec,
                                  const std::string& host) {
  if (text.size() > kMaxJson) bad("larger than 64 MiB");
  const json j = json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) bad("not one JSON object");
  if (text_at(j, "format") != "labgate-probe-1") bad("'format' is not \"labgate-probe-1\"");
  if (text_at(j, "probe") != "cmdrun") bad("'probe' is not \"cmdrun\"");
  if (text_at(j, "status") != "ok") {
    const std::string why = text_at(j, "error").empty() ? "unknown" : text_at(j, "error");
    throw ProbeOutputError("cmdrun on " + host + " could not run the command: " + why, true);
  }
  auto runs = j.find("runs");
  if (runs == j.end() || !runs->is_array()) bad("'runs' is missing or not an array");
  const std::string first_err = text_at(j, "first_failure_stderr");

  CommandSeries series(spec, host);
  bool first_failure = true;
  for (const json& r : *runs) {
    if (!r.is_array() || r.size() != 3 || !r[0].is_number_unsigned() || !r[1].is_number_integer() ||
        !r[2].is_number_integer())
      bad("a run is not [wall_ns, exit_status, timed_out]");
    Run run;
    run.wall = std::chrono::nanoseconds(static_cast<std::int64_t>(r[0].get<std::uint64_t>()));
    run.exit_status = r[1].get<int>();
    run.timed_out = r[2].get<int>() != 0;
    if ((run.timed_out || run.exit_status != 0) && first_failure) {
      run.stderr_text = first_err;  // the probe keeps the first failure's stderr only
      first_failure = false;
    }
    series.add(run);
  }
  series.set_exec_overhead(
      std::chrono::nanoseconds(static_cast<std::int64_t>(unsigned_at(j, "exec_overhead_p50_ns"))));
  measure::Measurement m =
      series.measurement(std::chrono::nanoseconds(static_cast<std::int64_t>(unsigned_at(j, "elapsed_ns"))));
  m.source = "builtin";
  m.parameters["probe"] = "cmdrun";
  m.parameters["clock"] = text_at(j, "clock");
  if (auto i = j.find("interrupted"); i != j.end() && i->is_boolean() && i->get<bool>())
    m.warnings.push_back("the runs were interrupted before the planned end");
  return m;
}

}  // namespace labgate::cmdlatency

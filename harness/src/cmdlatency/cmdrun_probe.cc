// cmdrun's command line from a command test, and its JSON as a Measurement.
#include "labgate/cmdlatency/cmdrun_probe.h"

#include <climits>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "labgate/cmdlatency/command_series.h"
#include "labgate/measure/probe_command.h"
#include "labgate/measure/probe_output.h"
#include "labgate/util/json_reader.h"

namespace labgate::cmdlatency {
namespace {

using nlohmann::json;
using util::JsonReader;
using namespace std::chrono_literals;

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
  const measure::ProbeDocument d = measure::read_probe_document(
      text, {"cmdrun"}, [&](const std::string&) { return "cmdrun on " + host + " could not run the command"; });
  return measure::read_probe_members("cmdrun", [&] {
    const JsonReader r(d.json, "");
    const json& runs = r.array("runs");
    const std::string first_err = r.str_or("first_failure_stderr", "");
    CommandSeries series(spec, host);
    bool first_failure = true;
    for (std::size_t n = 0; n < runs.size(); ++n) {
      const json& x = runs[n];
      if (!x.is_array() || x.size() != 3 || !x[0].is_number_unsigned() || !x[1].is_number_integer() ||
          !x[2].is_number_integer() || x[0].get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX))
        r.fail(util::json_index_path("runs", n).c_str(), "is not [wall_ns, exit_status, timed_out]");
      Run run;
      run.wall = std::chrono::nanoseconds(static_cast<std::int64_t>(x[0].get<std::uint64_t>()));
      run.exit_status = static_cast<int>(x[1].get<std::int64_t>());
      run.timed_out = x[2].get<std::int64_t>() != 0;
      if ((run.timed_out || run.exit_status != 0) && first_failure) {
        run.stderr_text = first_err;  // the probe keeps the first failure's stderr only
        first_failure = false;
      }
      series.add(run);
    }
    const auto ns = [&](const char* key) {
      const std::uint64_t v = r.count(key);
      if (v > static_cast<std::uint64_t>(INT64_MAX)) r.fail(key, "is beyond any duration");
      return std::chrono::nanoseconds(static_cast<std::int64_t>(v));
    };
    series.set_exec_overhead(ns("exec_overhead_p50_ns"));
    measure::Measurement m = series.measurement(ns("elapsed_ns"));
    m.source = "builtin";
    m.parameters["probe"] = "cmdrun";
    m.parameters["clock"] = r.str_or("clock", "");
    if (r.bool_or("interrupted", false)) m.warnings.push_back("the runs were interrupted before the planned end");
    // A count is what the runs must reach; a duration is filled by back-to-back
    // runs (each its wall time plus the pause).
    measure::SampleExpectation e;
    e.held = static_cast<double>(runs.size());
    const double pause_s = static_cast<double>(spec.command.pause.count()) / 1e9;
    if (spec.command.count) {
      e.expected = static_cast<double>(*spec.command.count);
      e.basis = std::to_string(*spec.command.count) + " runs asked for (count)";
    } else {
      const double per_run_s = m.histogram.mean() / 1e9 + pause_s;
      e.expected = per_run_s > 0 ? m.duration_s / per_run_s : 1;
      char buf[128];
      std::snprintf(buf, sizeof buf, "%.2f s of runs at a %.3f ms mean wall time + %.3f ms pause", m.duration_s,
                    m.histogram.mean() / 1e6, pause_s * 1e3);
      e.basis = buf;
    }
    if (e.expected < 1) e.expected = 1;
    e.shortfall_means = "runs are missing (the probe stopped early or its runs were not all recorded)";
    m.expectation = e;
    return m;
  });
}

}  // namespace labgate::cmdlatency

// probes/disk: the command line from a disk test, and its JSON as a Measurement.
#include "labgate/storage/disk_probe.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "labgate/util/json_reader.h"
#include "labgate/util/units.h"

namespace labgate::storage {
namespace {

using nlohmann::json;
using util::JsonReader;

// "30s", "1.5s"; exact nanoseconds when the short form would round.
std::string duration_arg(std::chrono::nanoseconds d) {
  const std::string text = units::format_duration(d);
  const auto back = units::parse_duration(text);
  return back && *back.value == d ? text : std::to_string(d.count()) + "ns";
}

const char* disk_probe_mode(profile::TestKind k) {
  return k == profile::TestKind::kDiskRandomRead    ? "read"
         : k == profile::TestKind::kDiskRandomWrite ? "write"
                                                    : "rw";
}

}  // namespace

DiskInvocation disk_probe_command(const profile::TestSpec& spec, const std::string& probe) {
  const profile::DiskParams& d = spec.disk;
  DiskInvocation inv;
  inv.argv = {probe,
              "--dir",
              d.dir,
              "--file",
              d.path,
              "--mode",
              disk_probe_mode(spec.kind),
              "--file-size",
              std::to_string(d.file_size),
              "--block-size",
              std::to_string(d.block_size),
              "--threads",
              std::to_string(d.threads),
              "--duration",
              duration_arg(spec.duration),
              "--warmup",
              duration_arg(spec.warmup),
              "--interval",
              duration_arg(spec.interval)};
  if (!d.direct) inv.argv.push_back("--no-direct");
  if (spec.kind == profile::TestKind::kDiskRandomRw)
    inv.argv.insert(inv.argv.end(), {"--read-mix", std::to_string(std::lround(d.read_mix * 100))});
  // The probe writes the whole file first; at a slow 5 MiB/s that still ends.
  inv.timeout = spec.warmup + spec.duration + std::chrono::seconds(90) +
                std::chrono::seconds(static_cast<long long>(d.file_size / (5u << 20)));
  return inv;
}

measure::Measurement parse_disk_probe(std::string_view text, const std::string& host) {
  const measure::ProbeDocument d = measure::read_probe_document(
      text, {"disk"}, [&](const std::string&) { return "disk probe on " + host + " could not measure"; });
  return measure::read_probe_members("disk probe", [&] {
    const JsonReader r(d.json, "");
    measure::Measurement m;
    m.source = "builtin";
    m.metric = measure::Metric::kIoTime;  // one request to the disk and its completion
    m.host = host;
    m.kind = r.str("kind");
    const JsonReader params = r.object("parameters");
    for (const auto& [k, v] : params.json().items())
      m.parameters[k] = v.is_string() ? v.get<std::string>() : v.dump();
    m.parameters["probe"] = "disk";
    const JsonReader counters = r.object("counters");
    const std::uint64_t reads = counters.count("reads"), writes = counters.count("writes");
    m.parameters["reads"] = std::to_string(reads);
    m.parameters["writes"] = std::to_string(writes);
    m.reported["iops"] = r.num("iops");
    m.throughput_bps = r.num("bytes_per_s") * 8.0;
    m.duration_s = r.num("duration_s");
    m.warmup_s = r.num("warmup_excluded_s");
    r.object("histogram");
    m.histogram = stats::Histogram::from_json(r.any("histogram"), "histogram");
    const JsonReader series = r.object("series");
    const json& intervals = series.array("intervals");
    for (std::size_t n = 0; n < intervals.size(); ++n) {
      const JsonReader i = series.element("intervals", n);
      m.series.push_back({i.num("start_s"), i.num("length_s"), i.count("count"), i.count("p50_ns"),
                          i.count("p99_ns"), i.count("max_ns")});
    }
    if (params.has("threads") && params.integer("threads") > 1)
      m.warnings.push_back(
          "per-interval p50/p99 are the slowest thread's (the run's own percentiles are exact)");
    if (params.has("direct") && !params.boolean("direct"))
      m.warnings.push_back(
          "direct = false: the page cache serves part of the I/O, so the figures flatter the disk");
    if (m.histogram.count() == 0) m.warnings.push_back("no operation completed in the measured window");
    // Every counted request has its time in the histogram.
    measure::SampleExpectation e;
    e.expected = std::max<double>(1, static_cast<double>(reads + writes));
    e.held = static_cast<double>(m.histogram.count());
    e.basis = std::to_string(reads) + " reads + " + std::to_string(writes) + " writes counted in " +
              std::to_string(m.duration_s) + " s";
    e.shortfall_means = "requests the probe counted have no time in its histogram";
    m.expectation = e;
    return m;
  });
}

}  // namespace labgate::storage

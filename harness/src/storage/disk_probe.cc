// probes/disk: the command line from a disk test, and its JSON as a Measurement.
#include "labgate/storage/disk_probe.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "labgate/util/units.h"

namespace labgate::storage {
namespace {

using measure::ProbeOutputError;
using nlohmann::json;

constexpr std::size_t kMaxJson = 64u << 20;

[[noreturn]] void bad(const std::string& key, const std::string& what) {
  throw ProbeOutputError("disk probe output: '" + key + "' " + what, false);
}

const json& at(const json& j, const std::string& key, const std::string& path = "") {
  auto it = j.find(key);
  if (it == j.end()) bad(path + key, "is missing");
  return *it;
}

double num(const json& j, const std::string& key, const std::string& path = "") {
  const json& v = at(j, key, path);
  if (!v.is_number()) bad(path + key, "is not a number");
  return v.get<double>();
}

std::uint64_t count(const json& j, const std::string& key, const std::string& path = "") {
  const json& v = at(j, key, path);
  if (!v.is_number_unsigned()) bad(path + key, "is not an unsigned integer");
  return v.get<std::uint64_t>();
}

// "30s", "1.5s"; exact nanoseconds when the short form would round.
std::string duration_arg(std::chrono::nanoseconds d) {
  const std::string text = units::format_duration(d);
  const auto back = units::parse_duration(text);
  return back && *back.value == d ? text : std::to_string(d.count()) + "ns";
}

const char* mode_of(profile::TestKind k) {
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
              mode_of(spec.kind),
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
  if (text.size() > kMaxJson) throw ProbeOutputError("disk probe output: larger than 64 MiB", false);
  const json j = json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object())
    throw ProbeOutputError("disk probe output: not one JSON object", false);
  if (!at(j, "format").is_string() || j["format"] != "labgate-probe-1")
    bad("format", "is not \"labgate-probe-1\"");
  if (!at(j, "probe").is_string() || j["probe"] != "disk") bad("probe", "is not \"disk\"");
  if (at(j, "status") != "ok") {
    const std::string why =
        j.contains("error") && j["error"].is_string() ? j["error"].get<std::string>() : "unknown";
    throw ProbeOutputError("disk probe on " + host + " could not measure: " + why, true);
  }
  measure::Measurement m;
  m.source = "builtin";
  m.metric = measure::Metric::kIoTime;  // one request to the disk and its completion
  m.host = host;
  if (!at(j, "kind").is_string()) bad("kind", "is not a string");
  m.kind = j["kind"].get<std::string>();
  const json& params = at(j, "parameters");
  if (!params.is_object()) bad("parameters", "is not an object");
  for (const auto& [k, v] : params.items()) m.parameters[k] = v.is_string() ? v.get<std::string>() : v.dump();
  m.parameters["probe"] = "disk";
  const json& counters = at(j, "counters");
  m.parameters["reads"] = std::to_string(count(counters, "reads", "counters."));
  m.parameters["writes"] = std::to_string(count(counters, "writes", "counters."));
  m.reported["iops"] = num(j, "iops");
  m.throughput_bps = num(j, "bytes_per_s") * 8.0;
  m.duration_s = num(j, "duration_s");
  m.warmup_s = num(j, "warmup_excluded_s");
  try {
    m.histogram = stats::Histogram::from_json(at(j, "histogram"));
  } catch (const std::invalid_argument& e) {
    bad("histogram", e.what());
  }
  const json& series = at(at(j, "series"), "intervals", "series.");
  if (!series.is_array()) bad("series.intervals", "is not an array");
  for (const json& i : series)
    m.series.push_back({num(i, "start_s", "series.intervals[]."), num(i, "length_s", "series.intervals[]."),
                        count(i, "count", "series.intervals[]."), count(i, "p50_ns", "series.intervals[]."),
                        count(i, "p99_ns", "series.intervals[]."),
                        count(i, "max_ns", "series.intervals[].")});
  if (params.value("threads", 1) > 1)
    m.warnings.push_back(
        "per-interval p50/p99 are the slowest thread's (the run's own percentiles are exact)");
  if (params.contains("direct") && params["direct"] == false)
    m.warnings.push_back(
        "direct = false: the page cache serves part of the I/O, so the figures flatter the disk");
  if (m.histogram.count() == 0) m.warnings.push_back("no operation completed in the measured window");
  return m;
}

}  // namespace labgate::storage

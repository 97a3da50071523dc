// Conversions from checks, measurements and budget verdicts to run records.
#include "labgate/gate/records.h"

#include <nlohmann/json.hpp>

namespace labgate::gate {

results::CheckRecord to_record(const checks::CheckResult& c) {
  results::CheckRecord r;
  r.host = c.host;
  r.rule = c.rule;
  r.expected = c.expected;
  r.found = c.found;
  r.source = c.source;
  r.verdict = c.verdict == checks::Verdict::kPass   ? results::CheckVerdict::kPass
              : c.verdict == checks::Verdict::kFail ? results::CheckVerdict::kFail
                                                    : results::CheckVerdict::kNotCheckable;
  r.message = c.message;
  if (r.verdict == results::CheckVerdict::kNotCheckable && !c.reason.empty())
    r.message = r.message.empty() ? c.reason : r.message + " (" + c.reason + ")";
  for (const auto& n : c.notes) r.message += (r.message.empty() ? "" : "; ") + n;
  if (c.host == "pair") {
    // Pair rules show every host's value side by side.
    std::string found;
    for (const auto& v : c.values) found += (found.empty() ? "" : " | ") + v.host + ": " + v.value;
    if (!found.empty()) r.found = found;
  }
  r.fix = c.fix;
  if (c.needs_reboot && !r.fix.empty()) r.fix += "\n# takes effect after a reboot";
  return r;
}

std::string metric_label(measure::Metric m) {
  switch (m) {
    case measure::Metric::kRoundTrip: return "round-trip time";
    case measure::Metric::kSendTime: return "per-send time";
    case measure::Metric::kClockGap: return "clock gap";
    case measure::Metric::kIoTime: return "I/O time";
    case measure::Metric::kWallTime: return "wall time per run";
  }
  return "unknown";
}

std::map<std::string, double> figures_of(const measure::Measurement& m) {
  std::map<std::string, double> f;
  const std::pair<const char*, const char*> latency[] = {
      {"p50", "p50_us"},     {"p90", "p90_us"},   {"p99", "p99_us"},   {"p99_9", "p99_9_us"},
      {"p99_99", "p99_99_us"}, {"max", "max_us"}, {"mean", "mean_us"}, {"stddev", "stddev_us"}};
  for (const auto& [stat, name] : latency)
    if (auto v = m.stat(stat)) f[name] = *v / 1000.0;
  if (m.histogram.count()) f["samples"] = static_cast<double>(m.histogram.count());
  if (auto v = m.stat("dropped")) f["dropped"] = *v;
  if (m.duplicated) f["duplicated"] = static_cast<double>(m.duplicated);
  if (m.out_of_order) f["out_of_order"] = static_cast<double>(m.out_of_order);
  if (m.throughput_bps) f["throughput_mbit_s"] = *m.throughput_bps / 1e6;
  if (m.loss_fraction) f["loss_pct"] = *m.loss_fraction * 100.0;
  for (const char* key : {"iops", "failures"})  // disk and command tests
    if (auto it = m.reported.find(key); it != m.reported.end()) f[key] = it->second;
  if (m.reported.count("iops") && m.throughput_bps) f["mbyte_s"] = *m.throughput_bps / 8e6;  // disks speak MB/s
  // Counter deltas of both hosts (CounterWatch): JUnit properties for dashboards.
  for (const char* k :
       {"retransmits", "rx_drops", "rx_errors", "udp_rcvbuf_errors", "mtu_forward", "mtu_reverse"})
    if (auto it = m.reported.find(k); it != m.reported.end()) f[k] = it->second;
  if (m.duration_s > 0) f["duration_s"] = m.duration_s;
  f["warmup_s"] = m.warmup_s;
  return f;
}

namespace {
const char* unit_name(profile::Stat s) {
  switch (profile::unit_of(s)) {
    case profile::StatUnit::kNanos: return "ns";
    case profile::StatUnit::kCount: return "count";
    case profile::StatUnit::kBitsPerSec: return "bit/s";
    case profile::StatUnit::kFraction: return "fraction";
  }
  return "";
}

results::TestRecord base_record(const TestCase& c) {
  results::TestRecord r;
  r.suite = c.suite;
  r.name = c.spec->name;
  r.pair = c.pair;
  r.kind = profile::to_string(c.spec->kind);
  r.tool = profile::to_string(c.spec->tool);
  return r;
}
}  // namespace

results::TestRecord to_record(const TestCase& c, const measure::Measurement& m, const budget::BudgetResult& b,
                              const std::string& pair) {
  results::TestRecord r = base_record(c);
  r.pair = pair;
  r.metric = metric_label(m.metric);
  r.verdict = b.pass ? results::TestVerdict::kPass : results::TestVerdict::kFail;
  for (const auto& v : b.verdicts) {
    results::BudgetLine line;
    line.stat = v.name;
    line.observed = v.observed;
    line.limit = v.limit;
    line.unit = unit_name(v.stat);
    if (v.margin_pct) line.margin = *v.margin_pct / 100.0;
    line.pass = v.pass;
    line.reason = v.reason;
    r.budget.push_back(line);
  }
  r.figures = figures_of(m);
  r.measurement = measure::to_json(m);
  r.failure = b.failure_message();
  r.duration_s = m.duration_s + m.warmup_s;
  return r;
}

void add_rules(results::TestRecord& r, const std::vector<RuleVerdict>& rules) {
  for (const auto& v : rules) {
    results::BudgetLine line;
    line.stat = v.rule;
    line.observed = v.observed;
    line.limit = v.limit;
    line.unit = "bytes";
    line.pass = v.pass;
    line.reason = v.message;
    r.budget.push_back(line);
    if (v.pass) continue;
    r.verdict = results::TestVerdict::kFail;
    r.failure += (r.failure.empty() ? "" : "\n") + v.rule + ": " + v.message;
  }
}

results::TestRecord error_record(const TestCase& c, const std::string& why) {
  results::TestRecord r = base_record(c);
  r.verdict = results::TestVerdict::kError;
  r.failure = why;
  r.measurement = nullptr;
  return r;
}

}  // namespace labgate::gate

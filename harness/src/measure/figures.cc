// The one judge of a measurement's figures and its sample accounting.
#include "labgate/measure/figures.h"

#include <cmath>
#include <cstdio>

namespace labgate::measure {
namespace {

using stats::Figure;
using stats::FigureSource;

constexpr const char* kLatencyKeys[] = {"p50", "p90", "p99", "p99_9", "p99_99", "max", "min", "mean", "stddev"};
constexpr std::pair<const char*, double> kPercentiles[] = {
    {"p50", 50.0}, {"p90", 90.0}, {"p99", 99.0}, {"p99_9", 99.9}, {"p99_99", 99.99}};

/// Counted by labgate around the test from /proc on both hosts (CounterWatch).
constexpr const char* kHostCounters[] = {"retransmits", "rx_drops", "rx_errors", "udp_rcvbuf_errors"};

struct Extra {
  const char* key;
  const char* unit;
};
/// Other figures a reader carries in `reported`, with their unit.
constexpr Extra kExtras[] = {{"mdev", "ns"},           {"iops", "1/s"},          {"failures", "count"},
                             {"mtu_forward", "bytes"}, {"mtu_reverse", "bytes"}, {"transaction_rate", "1/s"},
                             {"jitter", "ns"},         {"late", "count"},        {"longest_gap", "count"},
                             {"gaps", "count"}};

bool usable(double v) { return std::isfinite(v) && v >= 0; }

bool is_builtin(const Measurement& m) { return m.source == "builtin" || m.source.empty(); }

/// The tool's own figure, or the probe's when the built-in probe measured.
FigureSource own_source(const Measurement& m) { return is_builtin(m) ? FigureSource::kProbe : FigureSource::kTool; }

std::string who(const Measurement& m) { return is_builtin(m) ? "the built-in probe" : m.source; }

const char* sample_noun(Metric metric) {
  switch (metric) {
    case Metric::kRoundTrip: return "round trips";
    case Metric::kSendTime: return "sends";
    case Metric::kClockGap: return "clock gaps";
    case Metric::kIoTime: return "I/O requests";
    case Metric::kWallTime: return "runs";
  }
  return "samples";
}

std::optional<double> reported(const Measurement& m, const char* key) {
  const auto it = m.reported.find(key);
  if (it == m.reported.end() || !usable(it->second)) return std::nullopt;
  return it->second;
}

bool tool_gave_latency(const Measurement& m) {
  for (const char* k : kLatencyKeys)
    if (m.reported.count(k)) return true;
  return false;
}

std::string count_text(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.0f", v);
  return buf;
}

std::string pct_text(double fraction) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2g%%", fraction * 100.0);
  return buf;
}

void latency_figures(const Measurement& m, stats::FigureSet& out) {
  if (tool_gave_latency(m)) {
    // netperf's histogram buckets are a decade wide: its own -k figures are the
    // figures, and what it did not print stays absent.
    for (const char* k : kLatencyKeys)
      if (auto v = reported(m, k)) out.put({k, *v, "ns", FigureSource::kTool, m.source + "'s own " + k});
    return;
  }
  const stats::Histogram& h = m.histogram;
  if (h.count() == 0) return;
  const std::string detail = "histogram of " + std::to_string(h.count()) + " " + sample_noun(m.metric);
  for (const auto& [key, rank] : kPercentiles)
    out.put({key, static_cast<double>(h.percentile(rank)), "ns", FigureSource::kHistogram, detail});
  out.put({"max", static_cast<double>(h.max()), "ns", FigureSource::kHistogram, detail});
  out.put({"min", static_cast<double>(h.min()), "ns", FigureSource::kHistogram, detail});
  out.put({"mean", h.mean(), "ns", FigureSource::kHistogram, detail});
  out.put({"stddev", h.stddev(), "ns", FigureSource::kHistogram, detail});
}

void sample_figure(const Measurement& m, stats::FigureSet& out) {
  if (auto v = reported(m, "samples")) {
    out.put({"samples", *v, "count", FigureSource::kTool, m.source + "'s own count"});
  } else if (m.histogram.count() > 0) {
    const bool tool_buckets = tool_gave_latency(m);
    out.put({"samples", static_cast<double>(m.histogram.count()), "count",
             tool_buckets ? FigureSource::kTool : FigureSource::kHistogram,
             tool_buckets ? m.source + "'s histogram total" : std::string()});
  } else if (m.expectation) {
    out.put({"samples", m.expectation->held, "count", own_source(m), who(m) + "'s count"});
  }
}

void counted_figures(const Measurement& m, stats::FigureSet& out) {
  if (m.counts_drops) {
    const std::string detail = who(m) + " counted " + std::to_string(m.sent) + " sent, " +
                               std::to_string(m.received) + " received";
    const FigureSource src = is_builtin(m) ? FigureSource::kCounters : FigureSource::kTool;
    out.put({"dropped", static_cast<double>(m.dropped), "count", src, detail});
    out.put({"duplicated", static_cast<double>(m.duplicated), "count", src, detail});
    out.put({"out_of_order", static_cast<double>(m.out_of_order), "count", src, detail});
    out.put({"sent", static_cast<double>(m.sent), "count", src, detail});
    out.put({"received", static_cast<double>(m.received), "count", src, detail});
  } else if (auto d = reported(m, "dropped")) {
    out.put({"dropped", *d, "count", FigureSource::kTool, m.source + "'s own count"});
  }
  const std::optional<double> tp =
      m.throughput_bps && usable(*m.throughput_bps) ? m.throughput_bps : reported(m, "throughput_bps");
  if (tp) out.put({"throughput", *tp, "bit/s", own_source(m), who(m) + "'s payload throughput"});
  std::optional<double> loss = m.loss_fraction ? m.loss_fraction : reported(m, "loss_fraction");
  if (loss && usable(*loss) && *loss <= 1.0)
    out.put({"loss", *loss, "fraction", own_source(m), who(m) + "'s sent vs received"});
  for (const auto& e : kExtras)
    if (auto v = reported(m, e.key)) out.put({e.key, *v, e.unit, own_source(m), who(m) + "'s own " + e.key});
  for (const char* k : kHostCounters)
    if (auto v = reported(m, k))
      out.put({k, *v, "count", FigureSource::kCounters, "/proc delta around the test, both hosts"});
}

/// Whether the measurement holds any primary figure at all (a latency, a
/// throughput, an MTU, IOPS): without one nothing was measured.
bool measured_anything(const stats::FigureSet& f) {
  for (const char* k : {"p50", "p99", "max", "mean", "throughput", "mtu_forward", "mtu_reverse", "iops"})
    if (f.find(k)) return true;
  return false;
}

SampleAccounting account(const Measurement& m, const stats::FigureSet& f, double tolerance) {
  SampleAccounting a;
  a.tolerance = tolerance;
  const std::string tol = " (tolerance " + pct_text(tolerance) + " of the expected samples)";
  if (m.expectation) {
    const SampleExpectation& e = *m.expectation;
    a.checked = true;
    a.expected = e.expected;
    a.held = e.held;
    if (e.held <= 0) {
      a.pass = false;
      a.message = who(m) + " " + m.kind + ": no samples at all in " + e.basis +
                  (e.shortfall_means.empty() ? "" : ": " + e.shortfall_means);
      return a;
    }
    const double shortfall = e.expected > 0 ? (e.expected - e.held) / e.expected : 0.0;
    a.pass = shortfall <= tolerance;
    if (a.pass)
      a.message = "samples: " + count_text(e.held) + " held, ~" + count_text(e.expected) + " expected from " +
                  e.basis + tol;
    else
      a.message = who(m) + " " + m.kind + " lost samples: " + count_text(e.held) + " in " + e.basis +
                  ", but ~" + count_text(e.expected) + " were expected (" + pct_text(shortfall) + " short)" +
                  (e.shortfall_means.empty() ? "" : ": " + e.shortfall_means) + tol;
    return a;
  }
  if (const auto samples = f.value("samples"); samples && *samples <= 0) {
    a.checked = true;
    a.pass = false;
    a.message = who(m) + " " + m.kind + ": zero samples; nothing was measured";
  } else if (!measured_anything(f)) {
    a.checked = true;
    a.pass = false;
    a.message = who(m) + " " + m.kind + ": no figure at all (no latency, throughput, MTU or IOPS); nothing was measured";
  }
  return a;
}

}  // namespace

std::string figure_name(profile::Stat s) {
  switch (s) {
    case profile::Stat::kMinThroughput: return "throughput";
    case profile::Stat::kMaxLoss: return "loss";
    default: break;
  }
  if (const char* key = profile::reported_key(s)) return key;
  return profile::to_string(s);
}

JudgedFigures judge_figures(const Measurement& m, double tolerance) {
  JudgedFigures j;
  latency_figures(m, j.figures);
  sample_figure(m, j.figures);
  counted_figures(m, j.figures);
  j.accounting = account(m, j.figures, tolerance);
  return j;
}

}  // namespace labgate::measure

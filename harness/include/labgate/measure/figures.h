// The one judge of a measurement's figures: for every statistic, which value it
// has and where that value came from (the full histogram, the tool's own figure,
// counters), and the sample accounting (the samples held against the samples the
// run must have produced). The verdict, run.json, JUnit, the report, compare,
// import and metrics all read what this returns; none recomputes a figure.
#pragma once

#include <optional>
#include <string>

#include "labgate/measure/measurement.h"
#include "labgate/profile/test_spec.h"
#include "labgate/stats/figure.h"

namespace labgate::measure {

using stats::SampleAccounting;

struct JudgedFigures {
  stats::FigureSet figures;
  SampleAccounting accounting;
};

/// The figure name a budget statistic is judged on: "p99" -> "p99",
/// min_throughput -> "throughput", max_loss -> "loss", min_iops -> "iops",
/// max_failures -> "failures", max_retransmits -> "retransmits", ...
std::string figure_name(profile::Stat s);

/// Decides every figure of `m` once. A tool's own latency figures win over a
/// histogram rebuilt from its buckets, and a statistic the tool did not give is
/// absent (never 0, never taken from those buckets); a tool's not-measured markers
/// and non-finite values are absent too. `dropped` exists only where drops are
/// counted. Zero samples never pass the accounting, and a shortfall beyond
/// `tolerance` (a fraction of the expected samples) fails it, naming what was lost.
JudgedFigures judge_figures(const Measurement& m, double tolerance = 0.01);

}  // namespace labgate::measure

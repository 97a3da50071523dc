// The three plots of a latency-like test (round-trip time, per-send time, clock
// gap): the histogram on a log scale, the percentile curve on a "nines" axis with
// the budget drawn as the line the curve must stay under, and p50/p99/max per
// interval over time so a spike is placed. Each returns an <svg>, or "" when the
// measurement has nothing to draw.
#pragma once

#include <string>

#include "labgate/report/chart_data.h"
#include "labgate/results/run_result.h"

namespace labgate::report {

std::string histogram_chart(const results::TestRecord& t, const ChartData& v);
std::string percentile_chart(const results::TestRecord& t, const ChartData& v);
std::string series_chart(const results::TestRecord& t, const ChartData& v);

}  // namespace labgate::report

// The trend model: runs in time order and, per test, its p50/p99/max and
// budget in each run, read through the one figure adapter (metric_figures).
#include <algorithm>

#include "labgate/report/metrics.h"
#include "labgate/report/trend.h"
#include "labgate/results/run_dir.h"

namespace labgate::report {

const char* conformance_words(Conforming c) {
  switch (c) {
    case Conforming::kYes: return "yes";
    case Conforming::kNo: return "no";
    case Conforming::kNotChecked: return "not checked";
  }
  return "not checked";
}

Conforming conforming_of(const results::RunResult& run) { return run.conformance(); }

bool imported_of(const results::RunResult& run) {
  if (run.imported) return true;
  for (const auto& t : run.tests) {
    const auto& m = t.measurement;
    if (m.is_object() && m.contains("parameters") && m["parameters"].is_object() &&
        m["parameters"].contains("imported_from"))
      return true;
  }
  return false;
}

TrendData trend_of(std::vector<results::RunResult> runs) {
  std::stable_sort(runs.begin(), runs.end(), [](const auto& a, const auto& b) {
    return a.start_time != b.start_time ? a.start_time < b.start_time : a.run_id < b.run_id;
  });
  TrendData d;
  std::map<std::string, std::size_t> index;
  for (const auto& run : runs) {
    const std::size_t r = d.runs.size();
    d.runs.push_back({run.run_id, run.start_time, conforming_of(run), imported_of(run)});
    for (const auto& t : run.tests) {
      const std::string key = t.suite_name() + "." + t.test_name();
      auto it = index.find(key);
      if (it == index.end()) {
        it = index.emplace(key, d.tests.size()).first;
        d.tests.push_back({key, t.metric, {}});
      }
      TrendPoint p;
      p.run = r;
      p.verdict = results::to_string(t.verdict);
      const auto& stats = trend_statistics();
      for (const auto& f : metric_figures(t))
        if (f.family == "latency_seconds" && std::count(stats.begin(), stats.end(), f.statistic))
          p.seconds[f.statistic] = f.value;
      for (const auto& b : t.budget)
        if (b.unit == "ns" && std::count(stats.begin(), stats.end(), b.stat)) p.budget_s[b.stat] = b.limit * 1e-9;
      d.tests[it->second].points.push_back(std::move(p));
    }
  }
  return d;
}

TrendData load_trend(const std::vector<std::filesystem::path>& run_dirs) {
  std::vector<results::RunResult> runs;
  for (const auto& dir : run_dirs) runs.push_back(results::RunDir::open(dir).load_run());
  return trend_of(std::move(runs));
}

}  // namespace labgate::report

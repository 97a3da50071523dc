// Writes a run as Prometheus text exposition (metrics.prom): the run's start,
// end and verdict, every precondition and test verdict as gauges, every figure
// and budget limit in base units.
#include <chrono>
#include <cstdio>
#include <map>
#include <vector>

#include "junit_model.h"
#include "labgate/report/metrics.h"

namespace labgate::report {

namespace {

using Labels = std::vector<std::pair<std::string, std::string>>;

// Label values escape backslash, double quote and line feed (exposition format).
std::string escape_label(const std::string& v) {
  std::string out;
  for (const char c : v) {
    if (c == '\\') out += "\\\\";
    else if (c == '"') out += "\\\"";
    else if (c == '\n') out += "\\n";
    else out += c;
  }
  return out;
}

std::string number(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

struct Family {
  std::string help;
  std::vector<std::string> samples;
};

class Exposition {
 public:
  void add(const std::string& name, const std::string& help, const Labels& labels, double value) {
    Family& f = families_[name];
    if (f.help.empty()) f.help = help;
    std::string line = "labgate_" + name + "{";
    for (std::size_t i = 0; i < labels.size(); ++i)
      line += (i ? "," : "") + labels[i].first + "=\"" + escape_label(labels[i].second) + "\"";
    f.samples.push_back(line + "} " + number(value) + "\n");
  }
  std::string text() const {
    std::string s;
    for (const auto& [name, f] : families_) {
      s += "# HELP labgate_" + name + " " + f.help + "\n# TYPE labgate_" + name + " gauge\n";
      for (const auto& line : f.samples) s += line;
    }
    return s;
  }

 private:
  std::map<std::string, Family> families_;  // one block per family, as the format wants
};

double unix_seconds(results::Clock::time_point t) {
  return std::chrono::duration<double>(t.time_since_epoch()).count();
}

std::string network_of(const results::TestRecord& t) { return t.network; }

const char* help_of(const std::string& family) {
  static const std::map<std::string, const char*> help = {
      {"latency_seconds", "Latency statistic of a test (round trip, per-send time, clock gap, I/O or run time)."},
      {"throughput_bytes_per_second", "Payload (or storage) throughput of a test, bytes per second."},
      {"loss_ratio", "Share of packets lost (0..1)."},
      {"io_operations_per_second", "I/O operations per second of a storage test."},
      {"path_mtu_bytes", "Largest packet that passed with Don't Fragment, per direction."},
      {"test_duration_seconds", "Measured time of a test (statistic measured) and its excluded warm-up."},
      {"test_counts", "Counted figure of a test: samples, drops, failures, counter deltas."}};
  const auto it = help.find(family);
  return it == help.end() ? "Figure of a test." : it->second;
}

// A budget's unit (results::BudgetLine::unit) as a base-unit family and factor.
std::pair<std::string, double> budget_family(const std::string& unit) {
  if (unit == "ns") return {"budget_latency_seconds", 1e-9};
  if (unit == "bit/s") return {"budget_throughput_bytes_per_second", 1.0 / 8};
  if (unit == "fraction") return {"budget_ratio", 1};
  if (unit == "bytes") return {"budget_bytes", 1};
  return {"budget_counts", 1};
}

}  // namespace

std::string metrics_text(const results::RunResult& run) {
  Exposition e;
  // The lab as JUnit names it (a pool pair included), so two pairs never share a series.
  const std::string lab = junit_detail::identity_of(run);
  // The run id only on the info gauge: the others keep one series per lab across runs.
  const Labels run_labels = {{"lab", lab}};
  e.add("run_info", "The run a lab's metrics come from (value always 1).",
        {{"lab", lab},
         {"run", run.run_id},
         {"profile", run.profile_path},
         {"suffix", run.suffix},
         {"version", run.labgate_version}},
        1);
  e.add("run_start_time_seconds", "When the run started, seconds since the epoch.", run_labels,
        unix_seconds(run.start_time));
  if (run.end_time)
    e.add("run_end_time_seconds", "When the run ended, seconds since the epoch.", run_labels,
          unix_seconds(*run.end_time));
  if (run.exit_code)
    e.add("run_exit_code", "labgate's exit code: 0 passed, 1 servers failed, 2 usage, 3 could not run.",
          run_labels, *run.exit_code);
  e.add("run_passed", "1 when the whole gate passed, else 0.", run_labels, run.verdict() == "passed" ? 1 : 0);
  // Three values as one gauge per state (node_exporter's convention for an enum):
  // yes only when every precondition was checked and held.
  for (const auto c : {results::Conformance::kYes, results::Conformance::kNo, results::Conformance::kNotChecked}) {
    Labels l = run_labels;
    l.emplace_back("state", results::to_string(c));
    e.add("run_conformance", "1 for the run's conformance: yes (every precondition checked and held), no, not_checked.",
          l, run.conformance() == c ? 1 : 0);
  }

  for (const auto& c : run.checks) {
    const results::CheckVerdict all[] = {results::CheckVerdict::kPass, results::CheckVerdict::kFail,
                                         results::CheckVerdict::kNotCheckable};
    for (const auto v : all)
      e.add("precondition_verdict", "Precondition verdict per host and rule: 1 for the verdict it got.",
            {{"lab", lab}, {"host", c.host}, {"rule", c.rule}, {"verdict", results::to_string(v)}},
            c.verdict == v ? 1 : 0);
  }
  for (const auto& t : run.tests) {
    const Labels base = {{"lab", lab}, {"test", t.name}, {"pair", t.pair}, {"network", network_of(t)}};
    const results::TestVerdict all[] = {results::TestVerdict::kPass, results::TestVerdict::kFail,
                                        results::TestVerdict::kError, results::TestVerdict::kNotRun};
    for (const auto v : all) {
      Labels l = base;
      l.emplace_back("verdict", results::to_string(v));
      e.add("test_verdict", "Test verdict: 1 for the verdict it got (pass, fail over budget, error).", l,
            t.verdict == v ? 1 : 0);
    }
    for (const auto c : {results::Conformance::kYes, results::Conformance::kNo, results::Conformance::kNotChecked}) {
      Labels l = base;
      l.emplace_back("state", results::to_string(c));
      e.add("test_conformance", "1 for the conformance of the hosts when the test was measured.", l,
            t.conformance == c ? 1 : 0);
    }
    if (t.accounting.checked)
      e.add("test_samples_accounted", "1 when the samples held cover what the run must have produced.", base,
            t.accounting.pass ? 1 : 0);
    for (const auto& f : metric_figures(t)) {
      Labels l = base;
      l.emplace_back("statistic", f.statistic);
      e.add(f.family, help_of(f.family), l, f.value);
    }
    for (const auto& b : t.budget) {
      const auto [family, factor] = budget_family(b.unit);
      Labels l = base;
      l.emplace_back("statistic", b.stat);
      e.add(family, "Budget limit of a test's statistic, in the same base unit as the statistic.", l,
            b.limit * factor);
    }
  }
  return e.text();
}

}  // namespace labgate::report

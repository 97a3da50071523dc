// The neutral record of one gate run: what was checked, what was measured and
// how each was judged. The run command fills it in from checks and budgets; the
// reporters (JUnit, HTML, compare) read only this, never the code that produced it.
#pragma once

#include <chrono>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "labgate/profile/run_overrides.h"  // header-only: the record of the overrides
#include "labgate/stats/figure.h"

namespace labgate::results {

using Clock = std::chrono::system_clock;

/// The JSON "format" tag of run.json; bumped when a reader could misread an old file.
inline constexpr const char* kRunFormat = "labgate-run-2";
/// The format before judged figures and three-valued conformance; still read.
inline constexpr const char* kRunFormatV1 = "labgate-run-1";

/// A precondition rule on one host: held, broken, or not checkable on that host
/// (e.g. a BIOS rule where conrep is missing), which is never counted as a pass.
enum class CheckVerdict { kPass, kFail, kNotCheckable };
/// A measurement test: within budget, over budget, it could not be measured, or
/// it was not started because the run had already stopped (why in `failure`).
enum class TestVerdict { kPass, kFail, kError, kNotRun };

/// Whether the servers conformed to their preconditions when measured: yes (every
/// precondition of every host was checked and held), no (one failed), or not
/// checked, with why (-L left them out, no host could be reached, the lease was
/// refused, a rule could not be checked).
enum class Conformance { kYes, kNo, kNotChecked };

/// "pass" | "fail" | "not_checkable".
const char* to_string(CheckVerdict v);
/// "yes" | "no" | "not_checked".
const char* to_string(Conformance c);
std::optional<Conformance> parse_conformance(const std::string& s);
/// "pass" | "fail" | "error" | "not_run".
const char* to_string(TestVerdict v);

/// A host of the profile as the run saw it.
struct HostInfo {
  std::string name;          ///< the profile's key, "a"
  std::string address;       ///< management (SSH) address or "local"
  std::string test_address;  ///< interconnect address the probes measured
  /// Test-address names resolved on this host for the run: key ("test_address",
  /// "test_address.direct") -> {name as written, address used}.
  std::map<std::string, std::pair<std::string, std::string>> resolved;
};

/// One precondition rule judged on one host ("pair" for rules across hosts).
struct CheckRecord {
  std::string host;      ///< "a", "b", or "pair"
  std::string rule;      ///< "sysctl/net.ipv4.tcp_sack", "service/avahi-daemon"
  std::string expected;  ///< what the profile wants, as text
  std::string found;     ///< what the host had, as text (both values for pair rules)
  std::string source;    ///< where the value came from, "/proc/sys/net/ipv4/tcp_sack"
  CheckVerdict verdict = CheckVerdict::kFail;
  std::string message;  ///< full sentence: "host b: /proc/sys/... is 1, profile wants 0"
  std::string fix;      ///< what a sysadmin would run; empty when there is nothing to do
  /// When the rule was judged, and how long that took (optional in run.json):
  /// JUnit's per-suite timestamp and testcase time come from these, never from nominal values.
  std::optional<Clock::time_point> started{};
  double duration_s = 0;

  /// "b/sysctl/net.ipv4.tcp_sack": the test's name inside the Preconditions suite,
  /// in GoogleTest and JUnit alike. A rule across hosts is recorded as host
  /// "pair", rule "pair/same/kernel_release": the host is not repeated.
  std::string test_name() const { return rule.rfind(host + "/", 0) == 0 ? rule : host + "/" + rule; }
};

/// One budget statistic of one test, as judged.
struct BudgetLine {
  std::string stat;                ///< "p99", "max", "dropped", "min_throughput", ...
  std::optional<double> observed;  ///< nullopt: the measurement could not say (a failure)
  double limit = 0;
  std::string unit;  ///< "ns", "count", "bit/s" or "fraction"
  /// Headroom relative to the limit: (limit-observed)/limit for ceilings,
  /// (observed-limit)/limit for floors; negative when exceeded, nullopt when unknown.
  std::optional<double> margin;
  bool pass = false;
  std::string reason;  ///< why it failed, e.g. "missing statistic" or "max at 41.0 s"
};

/// One measurement test on one pair (or one host/CPU for jitter).
struct TestRecord {
  std::string suite;   ///< "Latency", "Throughput", "Jitter"...: its kind's (kinds/<kind>.cc)
  std::string name;    ///< the profile's test name, "tcp_rr_64"
  std::string pair;    ///< "a->b", or "a/cpu2" for jitter
  std::string kind;    ///< "tcp_rr", "udp_stream", "jitter", ...
  std::string tool;    ///< "builtin", "netperf", "sockperf", "iperf3"
  std::string metric;  ///< "round-trip time", "per-send time", "clock gap"
  std::string network;  ///< the test network measured over ("direct", "switch"); empty: the hosts' only one
  TestVerdict verdict = TestVerdict::kError;
  std::vector<BudgetLine> budget;
  /// Every figure as the one judge (measure::judge_figures) decided it, base units,
  /// each with its source. Every reader (JUnit, report, compare, metrics) uses these.
  stats::FigureSet figures;
  /// The samples held against what the run must have produced.
  stats::SampleAccounting accounting;
  /// The Measurement as JSON, kept opaque: reporters read "histogram"
  /// (labgate-hist-1), "series", "throughput_bps", "parameters"... when present.
  /// null when the test produced no measurement (an error before measuring).
  nlohmann::json measurement;
  std::string failure;  ///< every exceeded budget, or why it could not run
  /// Why the tail (issue 25): the outliers of a built-in round-trip test, each
  /// with its split and evidence, the ranked causes and the limits per host;
  /// null when the test was not explained.
  nlohmann::json tail;
  /// The run's conformance when this was measured (no: "measured on a non-conforming system").
  Conformance conformance = Conformance::kNotChecked;
  /// When the case started, and its measured wall time (set-up, warm-up and
  /// clean-up included); nullopt/0 for a record made without running. JUnit's
  /// per-suite timestamp is the earliest start of its records.
  std::optional<Clock::time_point> started{};
  double duration_s = 0;
  /// Files kept for this test, relative to the run folder ("tests/x/a-to-b/client.out").
  std::vector<std::string> raw_files;
  /// A mesh test's mesh_schedule ("sequential", "disjoint"); empty for one pair.
  std::string mesh_schedule;
  /// Disjoint schedule: the round (1-based) whose pairs were measured at the
  /// same time as this one; 0 otherwise.
  int round = 0;

  /// The suite this test is reported in: `suite`, which the gate sets from the
  /// kind's registration and every run.json has carried; "Tests" for a record
  /// given none (results/ knows no kinds, so it never guesses one from `kind`).
  std::string suite_name() const;
  /// "tcp_rr_64/a->b": the test's name inside its suite.
  std::string test_name() const { return name + "/" + pair; }
};

/// Where a run made by `labgate import` came from: a saved tool output, not a
/// run labgate measured. Absent for every run labgate measured itself.
struct ImportedFrom {
  std::string tool;    ///< "netperf", "sockperf", "iperf3"
  std::string file;    ///< the saved output's path, as given
  std::string sha256;  ///< of its bytes, so the copy in the folder can be checked against it
  /// Where the run's start time came from: "--started", "iperf3's own start
  /// timestamp", "the file's modification time (the tool printed no time)".
  std::string time_source;
};

/// The whole run. Written after every step, so an interrupted run is still readable.
struct RunResult {
  std::string run_id;        ///< the results folder name, "20240501-120000-nightly"
  std::string profile_path;  ///< as given on the command line
  std::string lab_name;
  std::string suffix;
  std::vector<HostInfo> hosts;
  Clock::time_point start_time{};
  std::optional<Clock::time_point> end_time;  ///< nullopt while running / if interrupted
  std::string labgate_version;
  std::optional<int> exit_code;  ///< the labgate exit code; nullopt until the run ended
  std::string error;             ///< why the gate could not run (exit 3), else empty
  std::vector<CheckRecord> checks;
  std::vector<TestRecord> tests;
  std::vector<std::string> warnings;  ///< run-wide notes shown in every report
  /// labgate run's --duration/--warmup/--message-size, and what each replaced in
  /// which test (the copied profile.toml is the file as written, without them).
  std::vector<profile::AppliedOverride> overrides;
  /// Set when the run was imported from a saved tool output (`labgate import`).
  std::optional<ImportedFrom> imported;

  /// Why the preconditions were not checked, set by the gate: "-L latency left the
  /// preconditions out", "could not connect: ...", "the lease was refused: ...".
  std::string not_checked_why;

  /// No when a precondition failed; yes when every precondition of every host
  /// was checked and held; not checked otherwise (see conformance_why()).
  Conformance conformance() const;
  /// The reason behind conformance(), in words: "every precondition held (42 rules)".
  std::string conformance_why() const;
  /// "passed", "failed", "usage error", "could not run", or "incomplete".
  std::string verdict() const;
};

/// ISO 8601 UTC with milliseconds, "2024-05-01T12:00:00.000Z".
std::string format_time(Clock::time_point t);
/// Reads format_time's form (milliseconds optional); throws std::invalid_argument.
Clock::time_point parse_time(const std::string& text);

nlohmann::json to_json(const CheckRecord& c);
nlohmann::json to_json(const TestRecord& t);
nlohmann::json to_json(const RunResult& r);

/// Readers throw std::invalid_argument naming the JSON path at fault,
/// e.g. "tests[2].budget[0].limit: expected a number, got string".
CheckRecord check_record_from_json(const nlohmann::json& j);
TestRecord test_record_from_json(const nlohmann::json& j);
RunResult run_result_from_json(const nlohmann::json& j);

}  // namespace labgate::results

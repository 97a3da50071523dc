// `labgate import --results`: a saved netperf/sockperf/iperf3 output becomes a
// results folder like any run's (run.json, measurement.json, junit.xml,
// junit-strict.xml, metrics.prom, report.html) through the gate's own record
// path (record_case: the one judge, the test's budget, the one results writer),
// marked as imported: the tool, the file and its SHA-256, where its time came
// from, and conformance "not checked" because no precondition was. Without
// --results the same case (SavedCase) is judged by the same judge, so every
// form of `labgate import` gives one verdict with one message (verdict_text).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "labgate/gate/test_cases.h"
#include "labgate/measure/measurement.h"
#include "labgate/profile/profile.h"
#include "labgate/results/run_result.h"
#include "labgate/tools/parsers.h"

namespace labgate::gate {

/// Why an imported run's preconditions are "not checked".
inline constexpr const char* kImportedNotChecked = "imported: no preconditions were checked";

/// The test `name` of `p`; Failure(kUsageError) listing the profile's tests when it has none such.
const profile::TestSpec& find_test(const profile::Profile& p, const std::string& name);

/// A saved output read and parsed: which tool wrote it (given, or told by the
/// text itself), its bytes and its Measurements (one, or one per direction of
/// an iperf3 --bidir run). Failure(kUsageError) naming file:line when it is not
/// that tool's output or the tool cannot be told.
struct SavedOutput {
  profile::Tool tool = profile::Tool::kNetperf;
  std::string raw;
  std::vector<measure::Measurement> measurements;
};
SavedOutput read_saved_output(const std::string& file, std::optional<profile::Tool> tool,
                              const tools::ParseOptions& options);

struct ImportRequest {
  std::string file;
  std::optional<profile::Tool> tool;      ///< nullopt: told by the output (tools::detect_tool)
  std::optional<profile::TestKind> kind;  ///< when the output does not say
  /// With `test`: the profile test whose budget judges the figures, exactly as
  /// a live run of it is judged. Without: the figures are recorded, no budget.
  const profile::Profile* profile = nullptr;
  std::string test;
  std::string suffix = "imported";  ///< the folder is <start>-<suffix>
  std::optional<results::Clock::time_point> started;  ///< --started: wins over the file's own time
  /// --reply-every: a sockperf ul run's, from its command line (sockperf does not print it).
  std::optional<std::uint64_t> reply_every;
};

/// When the saved run started, and how that is known.
struct StartTime {
  results::Clock::time_point at{};
  std::string source;  ///< "--started", "iperf3's own start timestamp", "the file's modification time ..."
};
/// --started, else the tool's own timestamp (iperf3 -J's start.timestamp), else
/// the file's modification time (netperf and sockperf print no date).
StartTime start_of(const ImportRequest& req, const measure::Measurement& m);

/// A saved output as the case it is judged as: the profile test's first case
/// (or, with no test named, one of the output's own kind with no budget), the
/// parsed measurement and why it was read so. Built once, for every form of
/// `import`, so each is judged by the same judge on the same case.
class SavedCase {
 public:
  /// Reads and parses req.file. Throws Failure(kUsageError) naming file:line or the option.
  explicit SavedCase(const ImportRequest& req);
  SavedCase(const SavedCase&) = delete;  // case_.spec points at spec_
  SavedCase& operator=(const SavedCase&) = delete;

  const TestCase& test_case() const { return case_; }
  const profile::TestSpec& spec() const { return spec_; }
  SavedOutput& saved() { return saved_; }
  const SavedOutput& saved() const { return saved_; }
  /// What the reader must know: several cases, another tool, no budget.
  const std::vector<std::string>& warnings() const { return warnings_; }
  /// The one judge (gate::judge_case), as a live case of the test is judged:
  /// its figures, its sample accounting and its budget.
  results::TestRecord judge() const;

 private:
  profile::TestSpec spec_;
  TestCase case_;
  SavedOutput saved_;
  std::vector<std::string> warnings_;
};

/// The verdict as every form of `import` prints it, from the judged record:
/// "test udp_rr_64 (profile.toml:31:1): FAILED", one line per budget bound
/// ("  ok    p99  6us <= 130us") and the failure text a live case carries in
/// run.json and JUnit (sample accounting first).
std::string verdict_text(const SavedCase& c, const results::TestRecord& r);

struct ImportedRun {
  std::filesystem::path dir;
  results::RunResult run;
  std::string verdict;  ///< verdict_text of its one case
};

/// Writes one results folder under `results_root` for `req.file` and returns it.
/// Throws labgate::Failure: kUsageError for a bad file or request (naming the
/// file and line, or the option), kCouldNotRun when the folder cannot be written.
ImportedRun import_run(const std::filesystem::path& results_root, const ImportRequest& req);

}  // namespace labgate::gate

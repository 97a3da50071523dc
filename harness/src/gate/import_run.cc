// A saved tool output recorded as a run, through the gate's own record path.
#include "labgate/gate/import_run.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <sstream>

#include "labgate/budget/budget.h"
#include "labgate/deploy/digest.h"
#include "labgate/gate/case_step.h"
#include "labgate/gate/kinds.h"
#include "labgate/gate/records.h"
#include "labgate/gate/run_book.h"
#include "labgate/gate/test_cases.h"
#include "labgate/util/exit_code.h"

namespace labgate::gate {
namespace {

namespace fs = std::filesystem;
using results::Clock;

[[noreturn]] void usage(const std::string& msg) { throw Failure(ExitCode::kUsageError, "import: " + msg); }

/// The test a saved output is recorded as when no profile test names it: one of
/// the output's own kind, run by its tool, with no budget.
profile::TestSpec bare_test(profile::Tool tool, const measure::Measurement& m, const std::string& file) {
  profile::TestSpec s;
  const auto kind = profile::parse_test_kind(m.kind);
  if (!kind) usage(file + ": " + m.source + " output of kind '" + m.kind + "' has no labgate test kind");
  s.kind = *kind;
  s.tool = tool;
  s.name = std::string(profile::to_string(tool)) + "_" + m.kind;  // "netperf_tcp_rr": the same in every import
  s.from = "a";
  s.to = "b";
  s.pos = {file, 1, 1};
  return s;
}

TestCase bare_case(const profile::TestSpec& s) {
  TestCase c;
  c.pair = "a->b";
  c.client = "a";
  c.server = "b";
  const KindInfo info = kind_info(s.kind);
  c.suite = info.suite;
  c.label = info.label;
  return c;
}

std::string base_name(const std::string& file) {
  const std::string name = fs::path(file).filename().string();
  return name.empty() ? "saved-output.txt" : name;
}

}  // namespace

const profile::TestSpec& find_test(const profile::Profile& p, const std::string& name) {
  std::string names;
  for (const profile::TestSpec& t : p.tests) {
    if (t.name == name) return t;
    names += (names.empty() ? "" : ", ") + t.name;
  }
  usage("profile " + p.path + " has no test '" + name + "' (its tests: " + (names.empty() ? "none" : names) + ")");
}

SavedOutput read_saved_output(const std::string& file, std::optional<profile::Tool> tool,
                              const tools::ParseOptions& options) {
  SavedOutput out;
  try {
    const tools::ToolText text = tools::read_tool_file(file);
    if (!tool) tool = tools::detect_tool(text);
    if (!tool)
      text.fail(1, "neither netperf, sockperf nor iperf3 -J output (no banner, -k key, histogram, "
                   "\"sockperf:\" line or JSON \"start\"); say which with --tool");
    out.tool = *tool;
    if (options.reply_every && *tool != profile::Tool::kSockperf)
      throw Failure(ExitCode::kUsageError, "import: --reply-every is sockperf ul's, and " + file + " is " +
                                               profile::to_string(*tool) + " output");
    out.measurements = tools::parse_tool_runs(*tool, text, options);
    out.raw = text.raw;
  } catch (const tools::ParseError& e) {
    throw Failure(ExitCode::kUsageError, std::string("import: ") + e.what());
  }
  return out;
}

StartTime start_of(const ImportRequest& req, const measure::Measurement& m) {
  if (req.started) return {*req.started, "--started"};
  if (const auto it = m.parameters.find("iperf3.timesecs"); it != m.parameters.end())
    return {Clock::time_point(std::chrono::seconds(std::stoll(it->second))),
            "iperf3's own start timestamp (start.timestamp.timesecs)"};
  struct stat st {};
  if (::stat(req.file.c_str(), &st) != 0)
    throw Failure(ExitCode::kUsageError, "import: " + req.file + ": cannot read its time: " + std::strerror(errno));
  const auto since_epoch = std::chrono::seconds(st.st_mtim.tv_sec) + std::chrono::nanoseconds(st.st_mtim.tv_nsec);
  return {Clock::time_point(std::chrono::duration_cast<Clock::duration>(since_epoch)),
          "the file's modification time (" + m.source + " printed no date; --started sets it)"};
}

SavedCase::SavedCase(const ImportRequest& req) {
  if (req.test.empty() != (req.profile == nullptr))
    usage("--test and --profile go together: the budget is the profile's test's");
  const profile::TestSpec* test = req.profile ? &find_test(*req.profile, req.test) : nullptr;
  tools::ParseOptions options;
  options.kind = req.kind;
  options.reply_every = req.reply_every;
  if (test) {
    if (req.kind && *req.kind != test->kind)
      usage(std::string("--kind ") + profile::to_string(*req.kind) + " differs from test '" + test->name +
            "', which is " + profile::to_string(test->kind));
    options.kind = test->kind;  // the run must be of the test's kind: a mismatch names file:line
  }
  saved_ = read_saved_output(req.file, req.tool, options);
  for (measure::Measurement& each : saved_.measurements) each.parameters["imported_from"] = req.file;
  measure::Measurement& m = saved_.measurements.front();

  // The case it is judged as: the profile test's (its first case), or one of
  // the output's own kind. The record says who measured: this file's tool, even
  // when the profile's test runs another one today.
  spec_ = test ? *test : bare_test(saved_.tool, m, req.file);
  spec_.tool = saved_.tool;
  if (test) {
    const std::vector<TestCase> cases = expand_cases(*req.profile, test->name);
    if (cases.empty()) usage("test '" + test->name + "' of " + req.profile->path + " has no case to record");
    case_ = cases.front();
    if (cases.size() > 1)
      warnings_.push_back("test " + test->name + " has " + std::to_string(cases.size()) +
                          " cases; the saved output is recorded as its first, " + case_.pair);
    if (test->tool != saved_.tool)
      warnings_.push_back("test " + test->name + " runs " + profile::to_string(test->tool) + " today; this " +
                          profile::to_string(saved_.tool) + " output was judged by its budget");
  } else {
    case_ = bare_case(spec_);
    warnings_.push_back(
        "imported without --profile/--test: no budget judged these figures; the verdict is the sample "
        "accounting alone (what the output holds against what the run must have produced)");
  }
  case_.spec = &spec_;
  m.host = case_.client;
  m.peer = case_.server;
}

results::TestRecord SavedCase::judge() const { return judge_case(case_, saved_.measurements.front(), case_.pair); }

std::string verdict_text(const SavedCase& c, const results::TestRecord& r) {
  const bool pass = r.verdict == results::TestVerdict::kPass;
  std::string s =
      "test " + c.spec().name + " (" + c.spec().pos.str() +
      "): " + (pass ? (r.budget.empty() ? "samples accounted for, no budget" : "within budget") : "FAILED") +
      "\n";
  for (const results::BudgetLine& b : r.budget) {
    const auto stat = profile::parse_stat(b.stat);
    const auto value = [&](double v) { return stat ? budget::format_value(*stat, v) : std::to_string(v); };
    s += std::string("  ") + (b.pass ? "ok  " : "FAIL") + "  " + b.stat + "  " +
         (b.observed ? value(*b.observed) + (stat && profile::is_floor(*stat) ? " >= " : " <= ")
                     : std::string("not measured, limit ")) +
         value(b.limit) + (b.reason.empty() ? "" : "  (" + b.reason + ")") + "\n";
  }
  // The failure as run.json and JUnit carry it: the sample accounting's, then the budget's.
  if (!pass) {
    std::string line;
    for (std::istringstream in(r.failure); std::getline(in, line);) s += "  " + line + "\n";
  }
  return s;
}

ImportedRun import_run(const fs::path& results_root, const ImportRequest& req) {
  SavedCase saved(req);
  const TestCase& c = saved.test_case();
  const StartTime start = start_of(req, saved.saved().measurements.front());
  results::RunResult run;
  run.suffix = req.suffix;
  run.start_time = start.at;
  run.labgate_version = LABGATE_VERSION;
  run.not_checked_why = kImportedNotChecked;
  run.imported = results::ImportedFrom{profile::to_string(saved.saved().tool), req.file,
                                       deploy::sha256_hex(saved.saved().raw), start.source};
  if (req.profile) {
    run.profile_path = req.profile->path;
    run.lab_name = req.profile->lab_name;
    for (const auto& h : req.profile->hosts)
      if (h.name == c.client || h.name == c.server) run.hosts.push_back({h.name, h.address, h.test_address, {}});
  }
  run.warnings.insert(run.warnings.end(), saved.warnings().begin(), saved.warnings().end());

  const results::RunDir dir = results::RunDir::create(results_root, req.suffix, start.at);
  RunBook book(dir, std::move(run));
  if (req.profile) book.dir().copy_profile(req.profile->path);
  // Each direction the data went is its own pair, sender -> receiver: an
  // iperf3 -R run is the server's send, --bidir both (nothing dropped).
  const double took = saved.saved().measurements.front().duration_s;
  std::vector<results::TestRecord> records;
  for (measure::Measurement& each : saved.saved().measurements) {
    TestCase flow = c;
    if (tools::sent_by_server(each)) {
      std::swap(flow.client, flow.server);
      flow.pair = flow.client + "->" + flow.server;
    }
    each.host = flow.client;
    each.peer = flow.server;
    CaseRun saved_run;
    saved_run.raw_files.emplace_back(base_name(req.file), saved.saved().raw);  // the file itself, kept verbatim
    saved_run.measurements.push_back(std::move(each));
    for (results::TestRecord& r : record_case(book, flow, saved_run, start.at, took)) records.push_back(std::move(r));
  }
  const auto end = start.at + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(took));
  book.finish_at(static_cast<int>(exit_code_of(book.run())), end);
  book.publish();
  std::string verdicts;  // one per direction recorded (iperf3 --bidir: two)
  for (const results::TestRecord& r : records) verdicts += verdict_text(saved, r);
  return {book.dir().path(), book.run(), verdicts};
}

}  // namespace labgate::gate

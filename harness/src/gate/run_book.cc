// The run.json of one results folder, updated and published by each gate step.
#include "labgate/gate/run_book.h"

#include <spdlog/fmt/fmt.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "labgate/facts/parse.h"
#include "labgate/report/publish.h"
#include "labgate/util/exit_code.h"

namespace labgate::gate {
namespace {

/// Each host's transparent huge pages mode from the facts this run kept (the
/// preconditions step of this process or an earlier one): evidence for the
/// tail's fix script. A host without readable facts has none.
void thp_from_facts(const results::RunDir& dir, const std::vector<results::HostInfo>& hosts,
                    std::map<std::string, tail::HostTuning>& tuning) {
  for (const auto& h : hosts) {
    const std::filesystem::path file = dir.path() / "facts" / (h.name + ".json");
    std::ifstream in(file);
    if (!in) continue;
    try {
      const facts::Facts f =
          facts::parse_facts(std::string(std::istreambuf_iterator<char>(in), {}), file.string());
      const facts::Text& thp = f.cpu.transparent_hugepage;
      if (!thp.value) continue;
      tuning[h.name].thp_mode = *thp.value;
      tuning[h.name].thp_source = thp.source;
    } catch (const std::exception&) {
      continue;  // the preconditions step reports facts it cannot read
    }
  }
}

}  // namespace

RunBook::RunBook(results::RunDir dir, const profile::Profile& profile, const std::string& suffix,
                 Reporter& reporter)
    : dir_(std::move(dir)), reporter_(&reporter), tuning_(tail::host_tuning(profile)) {
  if (dir_.has("run.json")) {
    run_ = dir_.load_run();
    return;
  }
  run_.run_id = dir_.id();
  run_.profile_path = profile.path;
  run_.lab_name = profile.lab_name;
  run_.suffix = suffix;
  run_.overrides = profile.overrides;
  for (const auto& h : profile.hosts) run_.hosts.push_back({h.name, h.address, h.test_address, {}});
  run_.start_time = results::Clock::now();
  run_.labgate_version = LABGATE_VERSION;
  if (!dir_.has("profile.toml")) dir_.copy_profile(profile.path);
}

RunBook::RunBook(results::RunDir dir, results::RunResult run, Reporter& reporter)
    : dir_(std::move(dir)), run_(std::move(run)), reporter_(&reporter) {
  run_.run_id = dir_.id();
}

void RunBook::set_checks(std::vector<results::CheckRecord> checks) { run_.checks = std::move(checks); }

void RunBook::put_test(results::TestRecord record) {
  for (auto& t : run_.tests) {
    if (t.suite_name() == record.suite_name() && t.test_name() == record.test_name()) {
      t = std::move(record);
      return;
    }
  }
  run_.tests.push_back(std::move(record));
}

void RunBook::warn(const std::string& warning) { run_.warnings.push_back(warning); }

void RunBook::resolved_test_address(const std::string& host, const std::string& key, const std::string& name,
                                    const std::string& address) {
  for (auto& h : run_.hosts) {
    if (h.name != host) continue;
    if (h.test_address == name) h.test_address = address;  // the plain one, or the first network's
    h.resolved[key] = {name, address};
  }
}

void RunBook::set_error(const std::string& error) {
  run_.error += (run_.error.empty() ? "" : "; ") + error;
}

void RunBook::set_not_checked(const std::string& why) {
  if (run_.not_checked_why.empty()) run_.not_checked_why = why;
}

void RunBook::finish(int exit_code) {
  run_.end_time = results::Clock::now();
  run_.exit_code = exit_code;
}

void RunBook::finish_at(int exit_code, results::Clock::time_point end) {
  run_.end_time = end;
  run_.exit_code = exit_code;
}

void RunBook::publish() {
  const auto t0 = std::chrono::steady_clock::now();
  // Said once, in the log and the run: the files are all in the folder as opened.
  if (!path_replaced_)
    if (std::string why = dir_.replaced_path(); !why.empty()) {
      reporter_->warning(why);
      run_.warnings.push_back(std::move(why));
      path_replaced_ = true;
    }
  report::publish(dir_, run_);
  std::vector<std::pair<std::string, nlohmann::json>> tails;
  for (const results::TestRecord& t : run_.tests)
    if (!t.tail.is_null()) tails.emplace_back(t.name + " " + t.pair, t.tail);
  if (!tails.empty()) thp_from_facts(dir_, run_.hosts, tuning_);
  const std::string fixes = tail::tail_fix_script(tails, tuning_, run_.profile_path + ", run " + run_.run_id);
  if (!fixes.empty()) {
    dir_.write_text("fix-tail.sh", fixes);
    reporter_->info("fix script for the tail's causes, for review: " + (dir_.path() / "fix-tail.sh").string());
  }
  reporter_->debug(fmt::format(
      "timing: results published (run.json and reports, {} tests) in {} ms", run_.tests.size(),
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count()));
}

void RunBook::checkpoint() {
  const auto t0 = std::chrono::steady_clock::now();
  dir_.write_run(run_);
  reporter_->debug(fmt::format(
      "timing: run.json recorded ({} tests) in {} ms", run_.tests.size(),
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count()));
}

results::RunDir open_or_create_run_dir(const std::string& suffix, const std::string& run_state) {
  // CTest's set-up fixture cannot hand later tests anything but their command
  // line: it leaves the folder's path in a state file the tests are named.
  if (!run_state.empty()) {
    std::ifstream in(run_state);
    std::string dir;
    if (in && std::getline(in, dir) && !dir.empty()) return results::RunDir::open(dir);
    throw Failure(ExitCode::kCouldNotRun,
                  "--state " + run_state + " names no run folder; did the gate.setup fixture run?");
  }
  const char* root = std::getenv("LABGATE_RESULTS");
  return results::RunDir::create(root && *root ? root : "results", suffix, results::Clock::now());
}

ExitCode exit_code_of(const results::RunResult& run, const ExitScope& scope) {
  if (!run.error.empty() || scope.interrupted) return ExitCode::kCouldNotRun;
  bool failed = scope.runner_failed;
  for (const auto& t : run.tests) {
    if (!scope.only_test.empty() && t.name != scope.only_test && t.name.rfind(scope.only_test + "/", 0) != 0)
      continue;
    if (t.verdict == results::TestVerdict::kError) return ExitCode::kCouldNotRun;
    if (t.verdict == results::TestVerdict::kFail) failed = true;
  }
  if (scope.checks)
    for (const auto& c : run.checks)
      if (c.verdict == results::CheckVerdict::kFail) failed = true;
  return failed ? ExitCode::kGateFailed : ExitCode::kPassed;
}

}  // namespace labgate::gate

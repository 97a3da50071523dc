// `labgate import FILE... [--tool netperf|sockperf|iperf3|sfnt-pingpong] [--kind K] [--reply-every N]
// [--profile P --test T] (--results DIR [--suffix S] [--started ISO8601] | [--out F])`:
// turns saved runs of an external tool into labgate results. With --results each
// file becomes a results folder (gate::import_run) that compare and trend read
// like any run; without, one file becomes Measurement JSON on stdout or --out.
// Every form is judged by the one judge of a live case (gate::SavedCase): the
// sample accounting always, and a profile test's budget when one is named.
#include <spdlog/spdlog.h>

#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "labgate/cli/commands.h"
#include "labgate/gate/import_run.h"
#include "labgate/profile/load.h"
#include "labgate/results/atomic_file.h"

namespace labgate::cli {
namespace {

struct ImportArgs {
  std::vector<std::string> files;
  std::string tool, kind, test, profile, out, results, suffix = "imported", started;
  std::optional<std::uint64_t> reply_every;
};

[[noreturn]] void usage(const std::string& msg) { throw Failure(ExitCode::kUsageError, "import: " + msg); }

/// Without --results: one file, its Measurement JSON, and its verdict by the
/// same judge as a live case (and as --results): figures, sample accounting, budget.
ExitCode import_to_json(const ImportArgs& a, const gate::ImportRequest& req) {
  if (a.files.size() != 1) usage("several files need --results DIR (one results folder each)");
  gate::SavedCase saved(req);
  if (saved.saved().measurements.size() != 1)
    usage(req.file + " holds " + std::to_string(saved.saved().measurements.size()) +
          " measurements, one per direction (iperf3 --bidir): import it with --results DIR, which records "
          "each direction as its own pair");
  const measure::Measurement& m = saved.saved().measurements.front();
  for (const std::string& w : m.warnings) spdlog::warn("{}: {}", req.file, w);
  for (const std::string& w : saved.warnings()) spdlog::info("{}", w);
  const std::string json = to_json(m).dump(2) + "\n";
  if (a.out.empty())
    std::cout << json;
  else
    results::write_file_atomic(a.out, json);
  std::cout.flush();
  const results::TestRecord r = saved.judge();
  // The verdict goes where it cannot spoil JSON on stdout.
  (a.out.empty() ? std::cerr : std::cout) << gate::verdict_text(saved, r);
  return r.verdict == results::TestVerdict::kPass ? ExitCode::kPassed : ExitCode::kGateFailed;
}

ExitCode run_import(const ImportArgs& a) {
  gate::ImportRequest req;
  if (!a.tool.empty()) {
    req.tool = profile::parse_tool(a.tool);
    if (!req.tool || !(*req.tool == profile::Tool::kNetperf || *req.tool == profile::Tool::kSockperf ||
                       *req.tool == profile::Tool::kIperf3 || *req.tool == profile::Tool::kSfntPingpong))
      usage("--tool must be netperf, sockperf, iperf3 or sfnt-pingpong, not '" + a.tool + "'");
  }
  if (!a.kind.empty()) {
    req.kind = profile::parse_test_kind(a.kind);
    if (!req.kind || !(profile::is_rr(*req.kind) || profile::is_stream(*req.kind)))
      usage("--kind must be tcp_rr, udp_rr, tcp_stream or udp_stream, not '" + a.kind + "'");
  }
  if (a.reply_every && *a.reply_every == 0)
    usage("--reply-every must be 1 or more (sockperf ul's --reply-every)");
  req.reply_every = a.reply_every;
  if (a.test.empty() != a.profile.empty())
    usage("--test and --profile go together: the budget is the profile's test's");
  std::optional<profile::Profile> prof;
  if (!a.profile.empty()) {
    prof = profile::load_or_throw(a.profile);
    req.profile = &*prof;
    req.test = a.test;
  }
  if (a.results.empty()) {
    if (!a.started.empty() || a.suffix != "imported") usage("--started and --suffix name a results folder: add --results DIR");
    req.file = a.files.front();
    return import_to_json(a, req);
  }
  if (!a.out.empty()) usage("--out writes one Measurement JSON; --results writes results folders: choose one");
  if (!a.started.empty()) {
    if (a.files.size() > 1) usage("--started is one file's start time; import the files one at a time");
    try {
      req.started = results::parse_time(a.started);
    } catch (const std::invalid_argument& e) {
      usage(std::string("--started: ") + e.what());
    }
  }
  req.suffix = a.suffix;
  ExitCode worst = ExitCode::kPassed;
  for (const std::string& file : a.files) {
    req.file = file;
    const gate::ImportedRun r = gate::import_run(a.results, req);
    std::cout << file << " -> " << r.dir.string() << " (" << r.run.verdict() << ", started "
              << results::format_time(r.run.start_time) << " from " << r.run.imported->time_source << ")\n"
              << r.verdict;
    const int code = r.run.exit_code.value_or(0);
    if (code > static_cast<int>(worst)) worst = static_cast<ExitCode>(code);
  }
  std::cout.flush();
  return worst;
}

}  // namespace

void add_import_command(CLI::App& app, Action& action) {
  auto args = std::make_shared<ImportArgs>();
  CLI::App* cmd = app.add_subcommand(
      "import",
      "turn saved netperf/sockperf/iperf3 outputs into labgate results: with --results DIR, one results folder "
      "per file that compare and trend read like any run; without, one file's measurement JSON. With "
      "--test/--profile the test's budget judges it (exit 0 within, 1 over)");
  cmd->add_option("files", args->files, "the saved outputs (each a file of one run)")->required();
  cmd->add_option("--tool", args->tool,
                  "netperf, sockperf, iperf3 or sfnt-pingpong (default: told by the output itself)");
  cmd->add_option("--kind", args->kind,
                  "tcp_rr, udp_rr, tcp_stream or udp_stream, when the output does not say");
  cmd->add_option("--test", args->test, "the profile test whose budget judges these runs");
  cmd->add_option("--profile", args->profile, "the profile that defines --test");
  cmd->add_option("--results", args->results, "write one results folder per file under this directory");
  cmd->add_option("--suffix", args->suffix, "the results folders' suffix (default imported)");
  cmd->add_option("--started", args->started,
                  "the run's start, ISO 8601 UTC (2019-03-12T10:15:00Z); default: the tool's own timestamp "
                  "(iperf3 -J), else the file's modification time");
  cmd->add_option("--reply-every", args->reply_every,
                  "a sockperf ul run's --reply-every, from its command line: sockperf does not print it, and "
                  "told from its counts it reads low when late replies were counted as drops");
  cmd->add_option("--out", args->out, "without --results: write the JSON here instead of stdout");
  cmd->callback([&action, args] { action = [args] { return run_import(*args); }; });
}

}  // namespace labgate::cli

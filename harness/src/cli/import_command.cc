// `labgate import --tool netperf|sockperf|iperf3 FILE [--kind K] [--test NAME
// --profile P] [--out result.json]`: turns a saved run of an external tool into
// labgate's Measurement JSON and, given a profile test, holds it to that test's
// budget, so years of saved netperf/sockperf runs can be judged by today's rules.
#include <spdlog/spdlog.h>

#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "labgate/budget/budget.h"
#include "labgate/cli/commands.h"
#include "labgate/profile/load.h"
#include "labgate/results/atomic_file.h"
#include "labgate/tools/parsers.h"

namespace labgate::cli {
namespace {

struct ImportArgs {
  std::string tool, file, kind, test, profile, out;
};

[[noreturn]] void usage(const std::string& msg) { throw Failure(ExitCode::kUsageError, "import: " + msg); }

const profile::TestSpec& find_test(const profile::Profile& p, const std::string& name) {
  std::string names;
  for (const profile::TestSpec& t : p.tests) {
    if (t.name == name) return t;
    names += (names.empty() ? "" : ", ") + t.name;
  }
  usage("profile " + p.path + " has no test '" + name + "' (its tests: " + (names.empty() ? "none" : names) +
        ")");
}

/// One line per bound: "  ok    p99     272us <= 300us (margin 28us, 9.3%)".
void print_verdicts(std::ostream& os, const profile::TestSpec& test, const budget::BudgetResult& r) {
  os << "test " << test.name << " (" << test.pos.str() << "): " << (r.pass ? "within budget" : "OVER BUDGET")
     << "\n";
  for (const budget::StatVerdict& v : r.verdicts) {
    os << "  " << (v.pass ? "ok  " : "FAIL") << "  " << v.name << "  ";
    if (v.observed)
      os << budget::format_value(v.stat, *v.observed) << (v.floor ? " >= " : " <= ") << v.as_written;
    else
      os << "not measured, limit " << v.as_written;
    if (!v.reason.empty()) os << "  (" << v.reason << ")";
    os << "\n";
  }
}

ExitCode run_import(const ImportArgs& a) {
  const auto tool = profile::parse_tool(a.tool);
  if (!tool || *tool == profile::Tool::kBuiltin)
    usage("--tool must be netperf, sockperf or iperf3, not '" + a.tool + "'");
  if (a.test.empty() != a.profile.empty())
    usage("--test and --profile go together: the budget is the profile's test's");

  tools::ParseOptions options;
  if (!a.kind.empty()) {
    options.kind = profile::parse_test_kind(a.kind);
    if (!options.kind || !(profile::is_rr(*options.kind) || profile::is_stream(*options.kind)))
      usage("--kind must be tcp_rr, udp_rr, tcp_stream or udp_stream, not '" + a.kind + "'");
  }
  std::optional<profile::Profile> prof;
  const profile::TestSpec* test = nullptr;
  if (!a.profile.empty()) {
    prof = profile::load_or_throw(a.profile);
    test = &find_test(*prof, a.test);
    if (options.kind && *options.kind != test->kind)
      usage("--kind " + a.kind + " differs from test '" + test->name + "', which is " +
            profile::to_string(test->kind));
    options.kind = test->kind;  // the run must be of the test's kind: a mismatch names file:line
  }

  measure::Measurement m;
  try {
    m = tools::parse_tool_output(*tool, tools::read_tool_file(a.file), options);
  } catch (const tools::ParseError& e) {
    throw Failure(ExitCode::kUsageError, std::string("import: ") + e.what());
  }
  m.parameters["imported_from"] = a.file;
  for (const std::string& w : m.warnings) spdlog::warn("{}: {}", a.file, w);

  const std::string json = to_json(m).dump(2) + "\n";
  if (a.out.empty())
    std::cout << json;
  else
    results::write_file_atomic(a.out, json);
  std::cout.flush();
  if (!test) return ExitCode::kPassed;

  if (test->tool != *tool)
    spdlog::info("test '{}' runs {} today; judging this {} run by its budget", test->name,
                 profile::to_string(test->tool), a.tool);
  const budget::BudgetResult r = budget::evaluate(m, test->budget);
  // The verdict goes where it cannot spoil JSON on stdout.
  print_verdicts(a.out.empty() ? std::cerr : std::cout, *test, r);
  return r.pass ? ExitCode::kPassed : ExitCode::kGateFailed;
}

}  // namespace

void add_import_command(CLI::App& app, Action& action) {
  auto args = std::make_shared<ImportArgs>();
  CLI::App* cmd =
      app.add_subcommand("import",
                         "turn a saved netperf/sockperf/iperf3 output into labgate's measurement JSON and, "
                         "with --test/--profile, judge it by that test's budget (exit 0 within, 1 over)");
  cmd->add_option("--tool", args->tool, "netperf, sockperf or iperf3")->required();
  cmd->add_option("file", args->file, "the saved output (a file of one run)")->required();
  cmd->add_option("--kind", args->kind,
                  "tcp_rr, udp_rr, tcp_stream or udp_stream, when the output does not say");
  cmd->add_option("--test", args->test, "the profile test whose budget judges this run");
  cmd->add_option("--profile", args->profile, "the profile that defines --test");
  cmd->add_option("--out", args->out, "write the JSON here instead of stdout");
  cmd->callback([&action, args] { action = [args] { return run_import(*args); }; });
}

}  // namespace labgate::cli

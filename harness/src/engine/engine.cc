// One gate run in this process, from profile to exit code.
#include "labgate/engine/engine.h"

#include <algorithm>

#include "labgate/gate/kinds.h"
#include "labgate/gate/preconditions_step.h"
#include "labgate/gate/run_book.h"
#include "labgate/gate/session.h"
#include "labgate/transport/interrupt.h"

namespace labgate::engine {
namespace {

template <class Strings>
std::string joined(const Strings& s) {
  std::string out;
  for (const auto& x : s) out += (out.empty() ? "" : ", ") + x;
  return out;
}

std::set<std::string> checked_labels(const std::set<std::string>& asked) {
  const auto& known = gate::all_labels();
  for (const auto& l : asked)
    if (std::find(known.begin(), known.end(), l) == known.end())
      throw Failure(ExitCode::kUsageError, "unknown label '" + l + "' (" + joined(known) + ")");
  return asked.empty() ? std::set<std::string>(known.begin(), known.end()) : asked;
}

// The verdict and where the run's files are: the run's last lines.
std::vector<std::string> summary(gate::RunBook& book, ExitCode code) {
  const auto& r = book.run();
  return {
      "",  // apart from GoogleTest's lines
      "labgate: " + r.verdict() + " (exit " + std::to_string(to_int(code)) + ")",
      // When the run could not run, its error was printed once above: the reason's head here.
      "  conforming: " + std::string(results::to_string(r.conformance())) + " (" +
          (r.error.empty() ? r.conformance_why() : gate::brief_reason(r.conformance_why())) + ")",
      // where(): the folder as written, should its path have been replaced mid-run.
      "  results: " + book.dir().where().string(),
      "  report:  " + (book.dir().where() / "report.html").string(),
      "  junit:   " + (book.dir().where() / "junit.xml").string(),
      "  log:     " + (book.dir().where() / "labgate.log").string()};
}

}  // namespace

std::vector<std::string> run_hosts(const profile::Profile& p, const std::vector<gate::TestCase>& cases,
                                   bool with_preconditions) {
  std::vector<std::string> hosts = gate::hosts_of(cases);
  if (with_preconditions)
    for (const auto& h : gate::precondition_hosts(p))
      if (std::find(hosts.begin(), hosts.end(), h) == hosts.end()) hosts.push_back(h);
  std::sort(hosts.begin(), hosts.end());
  return hosts;
}

ExitCode run(const profile::Profile& profile, const Options& o, CaseRunner& runner,
             gate::SessionBoundaries boundaries, gate::Reporter& reporter) {
  const std::set<std::string> labels = checked_labels(o.labels);
  transport::install_interrupt_handlers();
  gate::RunBook book(results::RunDir::create(o.results_root, o.suffix, results::Clock::now()), profile,
                     o.suffix, reporter);
  reporter.run_started(book.dir().log_sink_path());  // through the folder's handle
  reporter.info("gate run " + book.dir().id() + " on '" + profile.lab_name + "' (" + profile.path + ")");
  for (const auto& ov : profile.overrides)
    if (ov.replaced.empty())
      reporter.warning("override: " + profile::describe(ov));
    else
      reporter.info("override: " + profile::describe(ov));

  std::vector<gate::TestCase> cases;
  for (auto& c : gate::expand_cases(profile))
    if (labels.count(c.label)) cases.push_back(std::move(c));
  const bool preconditions = labels.count("preconditions") > 0;
  if (!preconditions) book.set_not_checked("-L " + joined(labels) + " left the preconditions out");
  book.publish();

  // Cases start probes and tools: each host's spare channel opens as soon as it
  // is connected. A run of the preconditions alone starts none (issue 23: one
  // shell start per host for them).
  boundaries.processes = !cases.empty();
  gate::GateRun run(profile, book, std::move(boundaries));
  const bool runner_ok = runner.run(run, cases, run_hosts(profile, cases, preconditions), preconditions);
  run.close();
  const int sig = transport::pending_interrupt();
  if (sig) {
    reporter.error("labgate run: interrupted by " + transport::signal_name(sig) + "; the hosts were cleaned up" +
                   (book.run().error.find("clean-up") == std::string::npos ? ""
                                                                          : " as far as the error above says"));
    book.set_error("interrupted by " + transport::signal_name(sig));
  }
  gate::ExitScope whole;
  whole.runner_failed = !runner_ok;  // a registered test that failed outside any record (a broken lease)
  whole.interrupted = sig != 0;
  const ExitCode code = gate::exit_code_of(book.run(), whole);
  book.finish(to_int(code));
  book.publish();
  reporter.run_finished(summary(book, code));
  return code;
}

}  // namespace labgate::engine

// Run -> judge -> record for one case.
#include "labgate/gate/case_step.h"

#include <chrono>
#include <stdexcept>

#include "labgate/gate/case_runner.h"
#include "labgate/gate/gate_run.h"
#include "labgate/gate/kind_runner.h"
#include "labgate/gate/kinds.h"
#include "labgate/gate/records.h"
#include "labgate/gate/tail_case.h"
#include "labgate/measure/one_way.h"
#include "labgate/report/figure_format.h"
#include "labgate/transport/interrupt.h"

namespace labgate::gate {
namespace {

std::vector<std::string> keep_raw(const results::RunDir& dir, const CaseRun& run, const TestCase& c,
                                  const std::string& pair) {
  std::vector<std::string> files;
  for (const auto& [name, content] : run.raw_files)
    files.push_back(dir.write_test_file(c.spec->name, pair, name, content));
  return files;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

std::string result_line(const results::TestRecord& r) {
  std::string s = r.test_name() + ": " + (r.metric.empty() ? std::string("figures") : r.metric);
  for (const char* stat : {"p50", "p99", "max", "throughput", "loss", "dropped", "longest_gap", "mtu_forward",
                           "mtu_reverse", "iops", "failures"})
    if (const stats::Figure* f = r.figures.find(stat))
      s += std::string(" ") + stat + " " + report::figure_text(*f, report::Units::kAscii);
  if (const stats::Figure* n = r.figures.find("samples"))
    s += ", " + report::format_count(n->value) + " samples (" + report::figure_origin(*n) + ")";
  if (r.conformance == results::Conformance::kNo) s += " [non-conforming system]";
  if (r.conformance == results::Conformance::kNotChecked) s += " [preconditions not checked]";
  return s;
}

std::string after_measuring(const std::string& error) {
  return "measured, but a step after the measurement could not be done: " + error;
}

std::string not_started_reason(const std::string& stopped_why) {
  const std::string brief = brief_reason(stopped_why);
  return "not started: " + brief +
         (brief == stopped_why ? "" : " (the error is the run's, printed once above and in run.json)");
}

MeasuredCase measure_case(GateSession& session, const TestCase& c) {
  MeasuredCase m;
  m.started = results::Clock::now();
  const auto t0 = std::chrono::steady_clock::now();
  session.reporter().case_started(c);
  try {
    run_case(session, c, &m.run);
  } catch (const std::exception& e) {
    // Stopped by a signal while it measured: not a fault of the hosts or the
    // gate, and nothing was judged; the run's own error says it was interrupted.
    m.interrupted = transport::pending_interrupt() != 0;
    m.error = m.interrupted ? std::string("stopped while measuring: ") + e.what() : e.what();
  }
  m.took_s = seconds_since(t0);
  return m;
}

void keep_case(const results::RunDir& dir, results::Conformance conformance, const TestCase& c, MeasuredCase& m,
               Reporter& reporter) {
  m.kept = true;
  const auto stamp = [&](results::TestRecord& r) {
    r.started = m.started;
    r.duration_s = m.took_s;
    r.conformance = conformance;
  };
  // A measurement that finished before a later step failed (stopping the
  // server, reading its counters, a clean-up, while sshd was unreachable) is
  // judged and kept below; only a case that measured nothing is a bare error.
  const bool measured = !m.run.measurements.empty() && !m.interrupted;
  if (m.error && !measured) {
    try {
      keep_raw(dir, m.run, c, c.pair);
    } catch (const std::exception& w) {  // a full disk: the fault above matters more
      reporter.error(c.name() + ": keeping its raw output: " + w.what());
    }
    results::TestRecord r = error_record(c, *m.error);
    if (m.interrupted) r.verdict = results::TestVerdict::kNotRun;
    stamp(r);
    m.records.push_back(std::move(r));
    return;
  }
  try {
    const auto raw = keep_raw(dir, m.run, c, c.pair);
    const KindRunner* kind = find_runner(c.spec->kind);
    for (std::size_t i = 0; i < m.run.measurements.size(); ++i) {
      const auto& meas = m.run.measurements[i];
      // Jitter: a record per CPU ("a/cpu2"); a kind's per peer (udp_multicast: "a/b", "a/worst").
      const std::string pair = meas.cpu >= 0                          ? c.pair + "/cpu" + std::to_string(meas.cpu)
                               : kind && kind->record_per_peer ? c.pair + "/" + meas.peer
                                                                      : c.pair;
      const nlohmann::json& one_way =
          m.run.one_way_each.size() == m.run.measurements.size() ? m.run.one_way_each[i] : m.run.one_way;
      results::TestRecord r = judge_case(c, meas, pair, one_way);
      add_rules(r, m.run.rules);  // path MTU, buffers_cover_bdp: judged by the runner on the same figures
      add_tail(r, tail_of_cpu(m.run.tail, meas.cpu));  // why the tail: the cause beside a failing p99/max
      stamp(r);
      r.raw_files = raw;
      r.raw_files.push_back(dir.write_measurement(c.spec->name, pair, r.measurement));
      if (m.error) {
        // Its figures stand, but the gate cannot vouch for the run (a server
        // may be left, counters unread): an error that keeps what it measured.
        r.failure = after_measuring(*m.error) + " (the figures are kept: " +
                    (r.verdict == results::TestVerdict::kPass ? std::string("within budget")
                                                              : "over budget: " + r.failure) +
                    ")";
        r.verdict = results::TestVerdict::kError;
      }
      m.records.push_back(std::move(r));
    }
  } catch (const std::exception& e) {
    // Measured, but the results could not be written (a full disk): the gate
    // failed, not the servers.
    m.keep_error = std::string("recording the results: ") + e.what();
  }
}

CaseOutcome record_case(GateSession& session, RunBook& book, const TestCase& c, MeasuredCase measured,
                        bool publish) {
  if (!measured.kept) keep_case(book.dir(), book.run().conformance(), c, measured, book.reporter());
  CaseOutcome out;
  out.records = measured.records;
  for (auto& r : measured.records) {
    book.reporter().case_finished(r, measured.error.value_or(""));
    book.put_test(std::move(r));
  }
  if (measured.error || measured.keep_error) {
    out.not_run = measured.error && measured.interrupted;
    out.could_not_run = !out.not_run;
    out.error = measured.error ? *measured.error : *measured.keep_error;
    out.measured = measured.error && !measured.keep_error && !out.records.empty() &&
                   !out.records[0].measurement.is_null();
    if (out.measured) out.error = after_measuring(out.error);
    try {
      if (publish) book.checkpoint();
    } catch (const std::exception& w) {
      book.reporter().error(std::string("writing the results: ") + w.what());
    }
    return out;
  }
  out.lease_lost = session.lease_lost();
  if (out.lease_lost) book.warn(c.name() + ": the lab lease was broken during the test; numbers may be spoiled");
  try {
    if (publish) book.checkpoint();
  } catch (const std::exception& e) {
    out.could_not_run = true;
    out.error = std::string("recording the results: ") + e.what();
  }
  return out;
}

std::vector<results::TestRecord> record_case(RunBook& book, const TestCase& c, const CaseRun& run,
                                             results::Clock::time_point started, double duration_s) {
  MeasuredCase m;
  m.run = run;
  m.started = started;
  m.took_s = duration_s;
  keep_case(book.dir(), book.run().conformance(), c, m, book.reporter());
  if (m.keep_error) throw std::runtime_error(*m.keep_error);
  for (const auto& r : m.records) {
    book.reporter().case_finished(r, "");
    book.put_test(r);
  }
  return m.records;
}

CaseOutcome run_judge_record(GateSession& session, RunBook& book, const TestCase& c) {
  return record_case(session, book, c, measure_case(session, c));
}

GateSession* begin_in_gate(GateRun& run, const TestCase& c, const std::vector<std::string>& hosts,
                           CaseOutcome& out) {
  // Nothing is begun once the run has stopped: one error, not one per case.
  if (auto why = run.stopped()) {
    results::TestRecord r = error_record(c, not_started_reason(*why));
    r.verdict = results::TestVerdict::kNotRun;
    r.conformance = run.book().run().conformance();
    out.not_run = true;
    out.error = r.failure;
    out.records.push_back(r);
    run.reporter().case_finished(r, out.error);
    run.book().put_test(std::move(r));
    run.book().checkpoint();
    return nullptr;
  }
  GateSession* session = run.session(hosts);
  if (!session) {
    // The first case to need the hosts found them unreachable: it carries the error.
    out.could_not_run = true;
    out.error = run.stopped().value_or("the hosts could not be reached");
    results::TestRecord r = error_record(c, out.error);
    r.conformance = run.book().run().conformance();
    out.records.push_back(r);
    run.reporter().case_finished(r, out.error);
    run.book().put_test(std::move(r));
    run.book().checkpoint();
  }
  return session;
}

CaseOutcome run_in_gate(GateRun& run, const TestCase& c, const std::vector<std::string>& hosts) {
  CaseOutcome out;
  GateSession* session = begin_in_gate(run, c, hosts, out);
  if (!session) return out;
  return run_judge_record(*session, run.book(), c);
}

}  // namespace labgate::gate

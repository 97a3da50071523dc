// Writes the derived files of a results folder from the run model.
#include "labgate/report/publish.h"

#include "labgate/report/html_report.h"
#include "labgate/report/junit.h"
#include "labgate/report/junit_strict.h"
#include "labgate/report/metrics.h"

namespace labgate::report {

void publish(const results::RunDir& dir, const results::RunResult& run) {
  // run.json first: it is the source the others can always be rebuilt from.
  dir.write_run(run);
  dir.write_checks(run.checks);
  dir.write_text("junit.xml", junit_xml(run));
  dir.write_text("junit-strict.xml", junit_strict_xml(run));
  dir.write_text("metrics.prom", metrics_text(run));
  dir.write_text("report.html", html_report(run));
}

results::RunResult regenerate(const results::RunDir& dir) {
  results::RunResult run = dir.load_run();
  dir.write_text("junit.xml", junit_xml(run));
  dir.write_text("junit-strict.xml", junit_strict_xml(run));
  dir.write_text("metrics.prom", metrics_text(run));
  dir.write_text("report.html", html_report(run));
  return run;
}

}  // namespace labgate::report

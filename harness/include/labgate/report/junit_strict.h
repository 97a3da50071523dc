// The run as JUnit XML in the strict Ant format (tests/report/junit-strict.xsd:
// the schema strict consumers validate Ant and Surefire reports with), beside
// the Jenkins junit.xml. The same suites, cases, counts and measured times, but
// shaped as the strict schema demands: <testsuite name="Latency"
// package="<lab>" id="N"> with timestamp (UTC, no zone) and hostname, no
// properties inside a testcase, so every case's figures are suite properties
// named "<case>.<figure>" ("tcp_rr_64/a->b.p99_us"), and every case's detail in
// the suite's system-out.
#pragma once

#include <string>

#include "labgate/results/run_result.h"

namespace labgate::report {

/// The strict JUnit XML document of a run (valid against tests/report/junit-strict.xsd).
std::string junit_strict_xml(const results::RunResult& run);

}  // namespace labgate::report

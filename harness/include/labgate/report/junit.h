// The run as ONE JUnit XML file for Jenkins and dashboards: a testsuite per
// suite (Preconditions, Latency, Throughput, Jitter...), a testcase per rule and
// per test named "<host>/<rule>" or "<test>/<pair>" with the suite as classname
// (Jenkins shows "Preconditions.b/sysctl/net.ipv4.tcp_sack"), failures with their
// full message, <skipped> for rules that could not be checked, and the figures
// as <properties> inside each testcase (read by junit's keepProperties).
#pragma once

#include <string>

#include "labgate/results/run_result.h"

namespace labgate::report {

/// The JUnit XML document of a run (valid against tests/report/junit.xsd).
std::string junit_xml(const results::RunResult& run);

}  // namespace labgate::report

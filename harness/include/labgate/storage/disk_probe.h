// The built-in disk probe (probes/disk) for the disk kinds with tool =
// "builtin": its command line from a test, and its JSON result as a Measurement
// (IOPS, throughput, the histogram of per-operation times, the series).
#pragma once

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include "labgate/measure/measurement.h"
#include "labgate/measure/probe_output.h"
#include "labgate/profile/test_spec.h"

namespace labgate::storage {

/// What to run on the test's host (`probe` is the uploaded probe's path) and how
/// long to wait for it: writing the file, warm-up, the run, and a margin.
struct DiskInvocation {
  std::vector<std::string> argv;
  std::chrono::nanoseconds timeout;
};

DiskInvocation disk_probe_command(const profile::TestSpec& spec, const std::string& probe);

/// Parses the probe's one JSON document. Sets reported "iops", throughput_bps
/// (payload bits per second), the histogram (ns per operation: latency budgets
/// judge it), the series, and the parameters (file, sizes, threads, direct,
/// reads, writes). Throws measure::ProbeOutputError; probe_failed() is true when
/// the probe ran and said why it could not measure (e.g. O_DIRECT refused).
measure::Measurement parse_disk_probe(std::string_view json, const std::string& host);

}  // namespace labgate::storage

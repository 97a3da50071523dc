// Bookkeeping of a command test's runs, and the Measurement they make.
#include "labgate/cmdlatency/command_series.h"

namespace labgate::cmdlatency {

CommandSeries::CommandSeries(const profile::TestSpec& spec, std::string host)
    : host_(std::move(host)),
      argv_(spec.command.argv),
      count_(spec.command.count),
      duration_(spec.duration),
      pause_(spec.command.pause),
      timeout_(spec.command.timeout) {}

bool CommandSeries::more(std::chrono::nanoseconds elapsed) const {
  if (count_) return runs_ < *count_;
  return elapsed < duration_;
}

void CommandSeries::add(const Run& r) {
  ++runs_;
  hist_.record(static_cast<std::uint64_t>(std::max<std::int64_t>(0, r.wall.count())));
  const bool failed = r.timed_out || r.exit_status != 0;
  if (r.timed_out)
    ++timeouts_;
  else
    ++exit_codes_[r.exit_status];
  if (!failed) return;
  ++failures_;
  if (first_failure_.empty()) {
    first_failure_ = "run " + std::to_string(runs_) + ": " +
                     (r.timed_out ? "killed after the timeout" : "exit " + std::to_string(r.exit_status));
    if (!r.stderr_text.empty()) first_failure_ += ": " + r.stderr_text.substr(0, 200);
  }
}

measure::Measurement CommandSeries::measurement(std::chrono::nanoseconds elapsed) const {
  measure::Measurement m;
  m.source = "command";
  m.kind = "command";
  m.metric = measure::Metric::kWallTime;  // the command's start to its exit, seen by the caller
  m.host = host_;
  m.histogram = hist_;
  m.duration_s = static_cast<double>(elapsed.count()) / 1e9;
  m.reported["failures"] = static_cast<double>(failures_);
  std::string argv;
  for (const std::string& a : argv_) argv += (argv.empty() ? "" : " ") + a;
  m.parameters["argv"] = argv;
  m.parameters["runs"] = std::to_string(runs_);
  std::string codes;
  for (const auto& [code, n] : exit_codes_)
    codes += (codes.empty() ? "" : ",") + std::to_string(code) + ":" + std::to_string(n);
  if (timeouts_) codes += (codes.empty() ? "" : ",") + std::string("timeout:") + std::to_string(timeouts_);
  m.parameters["exit_codes"] = codes;
  if (!first_failure_.empty()) m.parameters["first_failure"] = first_failure_;
  if (overhead_) {
    m.parameters["exec_overhead_p50_ns"] = std::to_string(overhead_->count());
    m.warnings.push_back("wall times include the cost to start and reap a program on " + host_ + " (p50 " +
                         std::to_string(overhead_->count() / 1000) + "us for one that does nothing)");
  }
  if (runs_ == 0)
    m.warnings.push_back("the command never ran");
  else if (failures_ == runs_)
    m.warnings.push_back("every run failed (" + first_failure_ + ")");
  return m;
}

}  // namespace labgate::cmdlatency

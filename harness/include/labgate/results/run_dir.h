// The results folder of one run, results/<YYYYmmdd-HHMMSS>-<suffix>/:
//   profile.toml            the profile exactly as used
//   facts/<host>.json       one facts snapshot per host
//   tests/<test>/<pair>/    measurement.json and the tool's raw output files
//   checks.json  run.json   the precondition verdicts and the whole run
//   junit.xml  report.html  labgate.log
// Every file is written atomically the moment its data exists, so a run that is
// interrupted keeps everything it finished; a write error names the file. The
// folder is opened once and every file is written through that handle, so a
// path moved or replaced mid-run (a parent swapped for a symlink) cannot split
// the run into two folders; replaced_path() says when it happened.
#pragma once

#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "labgate/results/run_result.h"

namespace labgate::results {

/// A name made safe for one path component: "a->b" -> "a-to-b", "/" -> "_",
/// anything outside [A-Za-z0-9._-] -> "_", and never "", "." or "..".
std::string safe_component(std::string_view name);

class RunDir {
 public:
  /// Creates <results_root>/<start as local YYYYmmdd-HHMMSS>-<suffix>/ (no "-<suffix>"
  /// when empty). Never reuses an existing folder: a clash gets "-2", "-3"...
  /// Throws labgate::Failure: exit 2 for a suffix outside [A-Za-z0-9._-], exit 3
  /// when the folder cannot be made (naming it and the OS error).
  static RunDir create(const std::filesystem::path& results_root, const std::string& suffix,
                       Clock::time_point start);
  /// An existing run folder (for `labgate report`); exit 2 when it is not one.
  static RunDir open(const std::filesystem::path& dir);

  const std::filesystem::path& path() const { return path_; }
  /// The folder's name, used as the run id.
  std::string id() const { return path_.filename().string(); }

  /// Copies the profile file as it was used to profile.toml.
  void copy_profile(const std::filesystem::path& profile) const;
  /// facts/<host>.json.
  void write_facts(const std::string& host, const nlohmann::json& facts) const;
  /// tests/<test>/<pair>/ (made safe), created on demand; returns the relative path.
  std::string test_dir(const std::string& test, const std::string& pair) const;
  /// Writes tests/<test>/<pair>/<file_name>; returns its path relative to the run folder.
  std::string write_test_file(const std::string& test, const std::string& pair, const std::string& file_name,
                              std::string_view content) const;
  /// tests/<test>/<pair>/measurement.json; returns its relative path.
  std::string write_measurement(const std::string& test, const std::string& pair,
                                const nlohmann::json& measurement) const;
  /// checks.json: the precondition verdicts alone, readable before any test ran.
  void write_checks(const std::vector<CheckRecord>& checks) const;
  /// run.json: the whole run (call after every step).
  void write_run(const RunResult& run) const;
  /// Any other file of the folder (junit.xml, report.html), atomically.
  void write_text(const std::string& relative, std::string_view content) const;
  /// labgate.log, as shown to people.
  std::filesystem::path log_file() const { return path_ / "labgate.log"; }
  /// labgate.log opened (created) through the folder's handle, as a path a log
  /// sink can open: /proc/self/fd/N of this process, the same file wherever the
  /// folder's path now leads.
  std::string log_sink_path() const;
  /// True if `relative` exists in the folder.
  bool has(const std::string& relative) const;
  /// Empty while path() still leads to the folder this run writes; else a
  /// warning naming the path and where the folder is now.
  std::string replaced_path() const;
  /// Where the folder is now: path(), unless it was moved (then its new place,
  /// as the kernel knows it).
  std::filesystem::path where() const;

  /// Reads run.json back; exit 2 naming the file and the JSON path at fault.
  RunResult load_run() const;

 private:
  RunDir(std::filesystem::path p, int fd);
  /// Makes `relative` and its parents below the folder.
  void make_dirs(const std::string& relative) const;
  std::filesystem::path path_;
  struct Handle;
  std::shared_ptr<const Handle> handle_;  ///< the folder's open directory (and log)
};

}  // namespace labgate::results

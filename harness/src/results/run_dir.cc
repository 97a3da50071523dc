// The results folder: unique creation, layout, and atomic writes of each piece.
#include "labgate/results/run_dir.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <ctime>

#include "labgate/results/atomic_file.h"
#include "labgate/util/exit_code.h"

namespace labgate::results {

namespace fs = std::filesystem;

std::string safe_component(std::string_view name) {
  std::string out;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    if (c == '-' && i + 1 < name.size() && name[i + 1] == '>') {
      out += "-to-";
      ++i;
    } else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
               c == '_' || c == '-') {
      out += c;
    } else {
      out += '_';
    }
  }
  if (out.empty() || out == "." || out == "..") out = "_" + out;
  return out;
}

namespace {

void check_suffix(const std::string& suffix) {
  if (suffix.size() > 64)
    throw Failure(ExitCode::kUsageError, "--suffix '" + suffix + "' is longer than 64 characters");
  for (const char c : suffix) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                    c == '_' || c == '-';
    if (!ok)
      throw Failure(ExitCode::kUsageError,
                    "--suffix '" + suffix + "' may only hold letters, digits, '.', '_' and '-'");
  }
  if (!suffix.empty() && suffix[0] == '.')
    throw Failure(ExitCode::kUsageError, "--suffix '" + suffix + "' must not start with '.'");
}

std::string local_stamp(Clock::time_point t) {
  const std::time_t secs = Clock::to_time_t(t);
  std::tm tm{};
  localtime_r(&secs, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y%m%d-%H%M%S", &tm);
  return buf;
}

void make_dirs(const fs::path& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec)
    throw Failure(ExitCode::kCouldNotRun,
                  "cannot create results folder " + dir.string() + ": " + ec.message());
}

// Small files are indented for people; run.json and measurements, which hold
// histogram count arrays, stay on one line (read them with jq).
std::string dump(const nlohmann::json& j, bool indent) {
  // Replace invalid UTF-8 from tools' output instead of throwing mid-run.
  return j.dump(indent ? 1 : -1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace

RunDir RunDir::create(const fs::path& results_root, const std::string& suffix, Clock::time_point start) {
  check_suffix(suffix);
  make_dirs(results_root);
  const std::string base = local_stamp(start) + (suffix.empty() ? "" : "-" + suffix);
  for (int n = 1; n < 1000; ++n) {
    const fs::path candidate = results_root / (n == 1 ? base : base + "-" + std::to_string(n));
    // mkdir is atomic: two runs started in the same second never share a folder.
    if (::mkdir(candidate.c_str(), 0755) == 0) return RunDir(candidate);
    if (errno != EEXIST)
      throw Failure(ExitCode::kCouldNotRun,
                    "cannot create results folder " + candidate.string() + ": " + std::strerror(errno));
  }
  throw Failure(ExitCode::kCouldNotRun, "cannot create results folder: 999 folders named " +
                                            (results_root / base).string() + "* already exist");
}

RunDir RunDir::open(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw Failure(ExitCode::kUsageError, dir.string() + " is not a directory");
  if (!fs::is_regular_file(dir / "run.json", ec))
    throw Failure(ExitCode::kUsageError, dir.string() + " is not a labgate results folder (no run.json)");
  return RunDir(dir);
}

void RunDir::copy_profile(const fs::path& profile) const { write_text("profile.toml", read_file(profile)); }

void RunDir::write_facts(const std::string& host, const nlohmann::json& facts) const {
  make_dirs(path_ / "facts");
  write_file_atomic(path_ / "facts" / (safe_component(host) + ".json"), dump(facts, true));
}

std::string RunDir::test_dir(const std::string& test, const std::string& pair) const {
  const fs::path rel = fs::path("tests") / safe_component(test) / safe_component(pair);
  make_dirs(path_ / rel);
  return rel.string();
}

std::string RunDir::write_test_file(const std::string& test, const std::string& pair,
                                    const std::string& file_name, std::string_view content) const {
  const std::string rel = test_dir(test, pair) + "/" + safe_component(file_name);
  write_file_atomic(path_ / rel, content);
  return rel;
}

std::string RunDir::write_measurement(const std::string& test, const std::string& pair,
                                      const nlohmann::json& measurement) const {
  return write_test_file(test, pair, "measurement.json", dump(measurement, false));
}

void RunDir::write_checks(const std::vector<CheckRecord>& checks) const {
  nlohmann::json a = nlohmann::json::array();
  for (const auto& c : checks) a.push_back(to_json(c));
  write_text("checks.json", dump(a, true));
}

void RunDir::write_run(const RunResult& run) const { write_text("run.json", dump(to_json(run), false)); }

void RunDir::write_text(const std::string& relative, std::string_view content) const {
  write_file_atomic(path_ / relative, content);
}

RunResult RunDir::load_run() const {
  const fs::path file = path_ / "run.json";
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(read_file(file));
  } catch (const nlohmann::json::parse_error& e) {
    throw Failure(ExitCode::kUsageError, file.string() + ": not valid JSON (" + e.what() + ")");
  }
  try {
    return run_result_from_json(j);
  } catch (const std::invalid_argument& e) {
    throw Failure(ExitCode::kUsageError, file.string() + ": " + e.what());
  }
}

}  // namespace labgate::results

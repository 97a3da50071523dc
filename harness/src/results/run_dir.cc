// The results folder: unique creation, layout, and atomic writes of each piece.
#include "labgate/results/run_dir.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <mutex>

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

void make_root(const fs::path& dir) {
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

struct RunDir::Handle {
  int fd = -1;
  struct stat st {};  ///< the folder as opened: replaced_path() compares its path's target with it
  mutable std::once_flag log_once;
  mutable int log_fd = -1;
  Handle(int f) : fd(f) { ::fstat(fd, &st); }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle() {
    if (log_fd >= 0) ::close(log_fd);
    ::close(fd);
  }
};

RunDir::RunDir(fs::path p, int fd) : path_(std::move(p)), handle_(std::make_shared<const Handle>(fd)) {}

RunDir RunDir::create(const fs::path& results_root, const std::string& suffix, Clock::time_point start) {
  check_suffix(suffix);
  make_root(results_root);
  const int root = ::open(results_root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (root < 0)
    throw Failure(ExitCode::kCouldNotRun,
                  "cannot open results folder " + results_root.string() + ": " + std::strerror(errno));
  const std::string base = local_stamp(start) + (suffix.empty() ? "" : "-" + suffix);
  for (int n = 1; n < 1000; ++n) {
    const std::string name = n == 1 ? base : base + "-" + std::to_string(n);
    // mkdir is atomic: two runs started in the same second never share a folder.
    // Made and opened below the root's handle: what the path does meanwhile does not matter.
    if (::mkdirat(root, name.c_str(), 0755) == 0) {
      const int fd = ::openat(root, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      const int err = errno;
      ::close(root);
      if (fd < 0)
        throw Failure(ExitCode::kCouldNotRun, "cannot open results folder " + (results_root / name).string() +
                                                  ": " + std::strerror(err));
      return RunDir(results_root / name, fd);
    }
    if (errno != EEXIST) {
      const int err = errno;
      ::close(root);
      throw Failure(ExitCode::kCouldNotRun, "cannot create results folder " + (results_root / name).string() +
                                                ": " + std::strerror(err));
    }
  }
  ::close(root);
  throw Failure(ExitCode::kCouldNotRun, "cannot create results folder: 999 folders named " +
                                            (results_root / base).string() + "* already exist");
}

RunDir RunDir::open(const fs::path& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) throw Failure(ExitCode::kUsageError, dir.string() + " is not a directory");
  RunDir d(dir, fd);
  if (!d.has("run.json"))
    throw Failure(ExitCode::kUsageError, dir.string() + " is not a labgate results folder (no run.json)");
  return d;
}

void RunDir::make_dirs(const std::string& relative) const {
  for (std::size_t at = relative.find('/');; at = relative.find('/', at + 1)) {
    const std::string part = relative.substr(0, at);
    if (::mkdirat(handle_->fd, part.c_str(), 0755) != 0 && errno != EEXIST)
      throw Failure(ExitCode::kCouldNotRun,
                    "cannot create results folder " + (path_ / part).string() + ": " + std::strerror(errno));
    if (at == std::string::npos) return;
  }
}

bool RunDir::has(const std::string& relative) const {
  struct stat st {};
  return ::fstatat(handle_->fd, relative.c_str(), &st, 0) == 0;
}

std::string RunDir::log_sink_path() const {
  std::call_once(handle_->log_once, [&] {
    handle_->log_fd = ::openat(handle_->fd, "labgate.log", O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  });
  if (handle_->log_fd < 0)
    throw Failure(ExitCode::kCouldNotRun, "cannot open " + log_file().string() + ": " + std::strerror(errno));
  return "/proc/self/fd/" + std::to_string(handle_->log_fd);
}

namespace {

// Whether `path` still names the directory `st` describes.
bool same_dir(const fs::path& path, const struct stat& st) {
  struct stat now {};
  return ::stat(path.c_str(), &now) == 0 && now.st_dev == st.st_dev && now.st_ino == st.st_ino;
}

}  // namespace

fs::path RunDir::where() const {
  if (same_dir(path_, handle_->st)) return path_;
  char buf[4096];
  const std::string link = "/proc/self/fd/" + std::to_string(handle_->fd);
  const ssize_t n = ::readlink(link.c_str(), buf, sizeof buf);
  return n > 0 ? fs::path(std::string(buf, static_cast<std::size_t>(n))) : path_;
}

std::string RunDir::replaced_path() const {
  if (same_dir(path_, handle_->st)) return "";
  return "the results folder's path " + path_.string() +
         " no longer leads to this run's folder (it was moved, or a part of its path replaced, e.g. by a "
         "symlink, during the run); every file was written to the folder as it was opened, now at " +
         where().string();
}

void RunDir::copy_profile(const fs::path& profile) const { write_text("profile.toml", read_file(profile)); }

void RunDir::write_facts(const std::string& host, const nlohmann::json& facts) const {
  make_dirs("facts");
  write_text("facts/" + safe_component(host) + ".json", dump(facts, true));
}

std::string RunDir::test_dir(const std::string& test, const std::string& pair) const {
  const std::string rel = "tests/" + safe_component(test) + "/" + safe_component(pair);
  make_dirs(rel);
  return rel;
}

std::string RunDir::write_test_file(const std::string& test, const std::string& pair,
                                    const std::string& file_name, std::string_view content) const {
  const std::string rel = test_dir(test, pair) + "/" + safe_component(file_name);
  write_text(rel, content);
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
  write_file_atomic_at(handle_->fd, relative, content, (path_ / relative).string());
}

RunResult RunDir::load_run() const {
  const fs::path file = path_ / "run.json";
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(read_file_at(handle_->fd, "run.json", file.string()));
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

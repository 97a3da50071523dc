// The scripted Transport for unit tests (see fake_transport.h).
#include "labgate/transport/fake_transport.h"

#include <algorithm>
#include <functional>

#include "labgate/transport/shell_quote.h"
#include "labgate/util/exit_code.h"

namespace labgate::transport {

namespace {

bool starts_with(const std::vector<std::string>& argv, const std::vector<std::string>& prefix) {
  return prefix.size() <= argv.size() && std::equal(prefix.begin(), prefix.end(), argv.begin());
}

class FakeProcess : public Process {
 public:
  FakeProcess(std::string command, RunResult result, std::shared_ptr<int> stopped,
              std::optional<std::string> stop_failure, std::function<void(const std::string&)> step)
      : command_(std::move(command)),
        result_(std::move(result)),
        stopped_(std::move(stopped)),
        stop_failure_(std::move(stop_failure)),
        step_(std::move(step)) {}
  ~FakeProcess() override {
    step_ = nullptr;  // its transport may be gone: a handle dropped is not a step
    stop(Nanos(0));
  }
  std::optional<RunResult> wait(Nanos) override { return result_; }
  bool wait_for_output(std::string_view needle, Nanos) override {
    return result_.out.find(needle) != std::string::npos;
  }
  RunResult stop(Nanos) override {
    if (!done_ && step_) step_("stop " + command_);
    if (stop_failure_) {
      // As the SSH one: the failure is the report, and the handle is finished.
      const std::string why = *stop_failure_;
      stop_failure_.reset();
      done_ = true;
      ++*stopped_;
      could_not_run(why);
    }
    if (!done_) {
      done_ = true;
      ++*stopped_;
    }
    return result_;
  }
  std::string stdout_so_far() override { return result_.out; }
  long pgid() const override { return 4242; }
  const std::string& command() const override { return command_; }

 private:
  std::string command_;
  RunResult result_;
  std::shared_ptr<int> stopped_;
  std::optional<std::string> stop_failure_;
  std::function<void(const std::string&)> step_;
  bool done_ = false;
};

}  // namespace

FakeTransport::FakeTransport(std::string host_name) : name_(std::move(host_name)) {}
FakeTransport::~FakeTransport() = default;

FakeTransport& FakeTransport::on(std::vector<std::string> prefix, RunResult result) {
  rules_.push_back({std::move(prefix), std::move(result), std::nullopt, false});
  return *this;
}

FakeTransport& FakeTransport::once(std::vector<std::string> prefix, RunResult result) {
  rules_.push_back({std::move(prefix), std::move(result), std::nullopt, true});
  return *this;
}

FakeTransport& FakeTransport::fail_on(std::vector<std::string> prefix, std::string message) {
  rules_.push_back({std::move(prefix), {}, std::move(message), false});
  return *this;
}

FakeTransport& FakeTransport::fail_stop_on(std::vector<std::string> prefix, std::string message) {
  stop_failures_.emplace_back(std::move(prefix), std::move(message));
  return *this;
}

RunResult FakeTransport::ok(std::string out) {
  RunResult r;
  r.exit_status = 0;
  r.out = std::move(out);
  return r;
}

RunResult FakeTransport::exit_with(int status, std::string err) {
  RunResult r;
  r.exit_status = status;
  r.err = std::move(err);
  return r;
}

RunResult FakeTransport::answer(const std::vector<std::string>& argv) {
  // One-shot rules first, oldest first; then standing rules, newest first.
  for (auto it = rules_.begin(); it != rules_.end(); ++it) {
    if (!it->once || !starts_with(argv, it->prefix)) continue;
    RunResult r = it->result;
    const auto failure = it->failure;
    rules_.erase(it);
    if (failure) could_not_run("host " + name_ + ": " + *failure);
    return r;
  }
  for (auto it = rules_.rbegin(); it != rules_.rend(); ++it) {
    if (it->once || !starts_with(argv, it->prefix)) continue;
    if (it->failure) could_not_run("host " + name_ + ": " + *it->failure);
    return it->result;
  }
  could_not_run("FakeTransport " + name_ + ": no scripted answer for `" + shell_join(argv) + "`");
}

RunResult FakeTransport::run(const std::vector<std::string>& argv, const RunOptions& options) {
  step(shell_join(argv));
  std::lock_guard lock(mutex_);
  calls_.push_back({argv, options.input, options.timeout, false});
  RunResult r = answer(argv);
  // As the real transports do while the command runs: each complete line.
  const auto feed = [](std::string_view text, const std::function<void(std::string_view)>& sink) {
    if (!sink) return;
    for (auto nl = text.find('\n'); nl != std::string_view::npos; nl = text.find('\n')) {
      sink(text.substr(0, nl));
      text.remove_prefix(nl + 1);
    }
  };
  feed(r.out, options.on_stdout_line);
  feed(r.err, options.on_stderr_line);
  return r;
}

std::unique_ptr<Process> FakeTransport::start(const std::vector<std::string>& argv, const StartOptions&) {
  step(shell_join(argv));
  std::lock_guard lock(mutex_);
  calls_.push_back({argv, "", std::nullopt, true});
  std::optional<std::string> stop_failure;
  for (const auto& [prefix, message] : stop_failures_)
    if (starts_with(argv, prefix)) stop_failure = "host " + name_ + ": " + message;
  // Its stop is a step too ("stop " + the command), while this transport lives.
  return std::make_unique<FakeProcess>(shell_join(argv), answer(argv), stopped_, std::move(stop_failure),
                                       [this, alive = std::weak_ptr<int>(alive_)](const std::string& what) {
                                         if (!alive.expired()) step(what);
                                       });
}

void FakeTransport::upload_data(std::string_view data, const std::string& remote_path, int mode) {
  step("upload " + remote_path);
  std::lock_guard lock(mutex_);
  if (files.count(remote_path))
    could_not_run("host " + name_ + ": " + remote_path + " already exists (never overwritten)");
  files[remote_path] = std::string(data);
  uploads_.push_back({remote_path, std::string(data), mode});
}

std::string FakeTransport::read_file(const std::string& remote_path, std::size_t limit) {
  std::lock_guard lock(mutex_);
  auto it = files.find(remote_path);
  if (it == files.end()) could_not_run("host " + name_ + ": cannot open " + remote_path + ": no such file");
  if (it->second.size() > limit)
    could_not_run("host " + name_ + ": " + remote_path + " is larger than the limit");
  return it->second;
}

std::optional<Transport::FileInfo> FakeTransport::lstat(const std::string& remote_path) {
  step("lstat " + remote_path);
  std::lock_guard lock(mutex_);
  if (auto st = stats.find(remote_path); st != stats.end()) return st->second;
  auto it = files.find(remote_path);
  if (it == files.end()) {
    // "/" and the parents of what is scripted exist, as root's 0755 directories.
    const std::string below = remote_path == "/" ? "/" : remote_path + "/";
    const auto under = [&](const auto& m) {
      const auto i = m.lower_bound(below);
      return i != m.end() && i->first.rfind(below, 0) == 0;
    };
    if (remote_path != "/" && !under(stats) && !under(files)) return std::nullopt;
    FileInfo dir;
    dir.is_dir = true;
    dir.mode = 0755;
    dir.uid = 0;
    return dir;
  }
  FileInfo info;
  info.mode = 0644;
  info.uid = 0;
  info.size = it->second.size();
  return info;
}

bool Rendezvous::arrive(Nanos timeout) {
  std::unique_lock lock(mutex_);
  ++arrived_;
  cv_.notify_all();
  return cv_.wait_for(lock, timeout, [this] { return arrived_ >= n_; });
}

}  // namespace labgate::transport

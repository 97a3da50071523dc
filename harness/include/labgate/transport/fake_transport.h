// A scripted Transport for unit tests of everything above the transport: answers
// commands from rules, records every call, keeps "remote" files in memory, and
// throws on a command nobody scripted (so a test sees what it did not expect).
#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "labgate/transport/transport.h"

namespace labgate::transport {

class FakeTransport : public Transport {
 public:
  /// One recorded run() or start().
  struct Call {
    std::vector<std::string> argv;
    std::string input;
    std::optional<Nanos> timeout;
    bool started = false;  ///< start() rather than run()
  };
  struct Upload {
    std::string path;
    std::string data;
    int mode = 0;
  };

  explicit FakeTransport(std::string host_name = "fake");
  ~FakeTransport() override;

  /// Answers every command whose argv begins with `prefix` with `result`; of
  /// several standing rules that match, the one added last wins.
  FakeTransport& on(std::vector<std::string> prefix, RunResult result);
  /// Answers the next such command only; one-shot rules are tried first, in order.
  FakeTransport& once(std::vector<std::string> prefix, RunResult result);
  /// Such a command throws Failure(kCouldNotRun, message), as a dropped connection
  /// would (a standing rule, like on()).
  FakeTransport& fail_on(std::vector<std::string> prefix, std::string message);
  /// A started command matching `prefix` throws Failure(kCouldNotRun, message)
  /// the first time it is stopped, as a stop over a connection that broke (or
  /// a server that never answered) does; the handle is finished after it.
  FakeTransport& fail_stop_on(std::vector<std::string> prefix, std::string message);
  /// Shorthands: exit 0 with this stdout; exit `status` with this stderr.
  static RunResult ok(std::string out = "");
  static RunResult exit_with(int status, std::string err = "");

  const std::vector<Call>& calls() const { return calls_; }
  const std::vector<Upload>& uploads() const { return uploads_; }
  /// How many started processes have been stopped (by stop() or destruction).
  int stopped() const { return *stopped_; }
  /// Remote files: read_file and lstat see them, uploads add to them.
  std::map<std::string, std::string> files;
  /// What lstat reports for a path, before `files` is consulted (directories,
  /// symlinks, odd modes and owners). "/" and the parents of what `stats` or
  /// `files` hold read as root's 0755 directories.
  std::map<std::string, FileInfo> stats;
  /// What host_identity() reports (a host key fingerprint stand-in).
  std::string identity;
  /// Called first by connect(), run(), start(), upload_data(), lstat() and a
  /// started process's first stop() with what is done ("connect", the argv
  /// joined, "upload PATH", "lstat PATH", "stop " + the argv joined), on
  /// the caller's thread: tests see which thread and order a step used, or hold
  /// a host until another has started (proving the steps run in parallel).
  std::function<void(const std::string& what)> on_step;

  const std::string& host_name() const override { return name_; }
  std::string describe() const override { return "fake " + name_; }
  void connect() override { step("connect"); }
  RunResult run(const std::vector<std::string>& argv, const RunOptions& options = {}) override;
  std::unique_ptr<Process> start(const std::vector<std::string>& argv,
                                 const StartOptions& options = {}) override;
  void upload_data(std::string_view data, const std::string& remote_path, int mode) override;
  std::string read_file(const std::string& remote_path, std::size_t limit = kDefaultOutputLimit) override;
  std::optional<FileInfo> lstat(const std::string& remote_path) override;
  std::string host_identity() override { return identity; }
  /// Counted in `prepared`, and recorded as the step "prepare processes".
  void prepare_processes() override {
    ++prepared;
    step("prepare processes");
  }
  int prepared = 0;  ///< prepare_processes() calls

 private:
  struct Rule {
    std::vector<std::string> prefix;
    RunResult result;
    std::optional<std::string> failure;
    bool once = false;
  };
  RunResult answer(const std::vector<std::string>& argv);
  void step(const std::string& what) {
    if (on_step) on_step(what);
  }

  std::string name_;
  std::vector<Rule> rules_;
  std::vector<std::pair<std::vector<std::string>, std::string>> stop_failures_;
  std::vector<Call> calls_;
  std::vector<Upload> uploads_;
  std::shared_ptr<int> stopped_ = std::make_shared<int>(0);
  std::shared_ptr<int> alive_ = std::make_shared<int>(0);  ///< its processes' steps check it is still here
  // Steps of one host may come from several threads (counters on both sides of
  // a case on one host); on_step runs outside it, so it may wait for others.
  std::recursive_mutex mutex_;
};

/// Where the threads of a parallel step meet in tests: arrive() returns true
/// once `n` callers have arrived, false if they did not within `timeout` (the
/// step ran its hosts one after another). Never hangs a test.
class Rendezvous {
 public:
  explicit Rendezvous(std::size_t n) : n_(n) {}
  bool arrive(Nanos timeout = std::chrono::seconds(5));

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  std::size_t n_;
  std::size_t arrived_ = 0;
};

}  // namespace labgate::transport

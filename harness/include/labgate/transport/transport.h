// The one interface suites, checks and deployment use to reach a host: run a
// command, start a long-running one, copy a file up. SSH, local and fake
// implementations live beside it; nothing above this layer knows which it has.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "labgate/profile/profile.h"

namespace labgate::transport {

using Nanos = std::chrono::nanoseconds;

/// Per-stream cap on captured output unless a caller asks otherwise: a hostile or
/// broken remote tool printing forever must end in a clear error, not OOM.
inline constexpr std::size_t kDefaultOutputLimit = 16u << 20;

/// What a finished (or killed) command left behind.
struct RunResult {
  int exit_status = -1;    ///< 0..255; -1 when killed by a signal or unknown
  std::string signal;      ///< "KILL", "TERM"...; empty when it exited normally
  std::string out;         ///< everything it wrote to stdout
  std::string err;         ///< everything it wrote to stderr
  Nanos duration{0};       ///< wall time from start to end of output
  bool timed_out = false;  ///< the timeout fired and the process group was killed

  /// Exited normally with status 0.
  bool ok() const { return !timed_out && signal.empty() && exit_status == 0; }
  /// "exit 3", "killed by SIGKILL", "timed out after 5s", for messages.
  std::string describe() const;
};

struct RunOptions {
  std::optional<Nanos> timeout;                    ///< unset: the host's command_timeout
  std::size_t output_limit = kDefaultOutputLimit;  ///< per stream; exceeding it throws
  std::string input;                               ///< written to stdin, then EOF
  /// Still run after SIGINT/SIGTERM of the harness (cleanup commands); everything
  /// else stops early once an interrupt is pending.
  bool during_interrupt = false;
  /// As StartOptions::pgid_file: lets a later cleanup kill it if this harness dies.
  std::optional<std::string> pgid_file;
  /// Called on the caller's thread with each complete stderr line while the
  /// command runs (a probe's per-interval progress); the lines are kept in
  /// RunResult::err as well.
  std::function<void(std::string_view line)> on_stderr_line;
  /// The same for stdout: an external tool's own progress lines, which labgate
  /// times as they arrive (tools::ToolTime); kept in RunResult::out as well.
  std::function<void(std::string_view line)> on_stdout_line;
};

struct StartOptions {
  std::size_t output_limit = kDefaultOutputLimit;  ///< per stream, as for run()
  /// Remote file the wrapper appends the process-group id to before the program
  /// starts, so a later run can kill the group even if this harness is gone.
  std::optional<std::string> pgid_file;
};

/// A long-running command (a probe server) started on a host. It runs as its own
/// process group; stopping it kills the whole group on the host. Destroying a
/// handle that is still running stops it.
class Process {
 public:
  virtual ~Process() = default;
  Process() = default;
  Process(const Process&) = delete;
  Process& operator=(const Process&) = delete;

  /// Waits up to `timeout` for the process to end; the result once it has.
  virtual std::optional<RunResult> wait(Nanos timeout) = 0;
  /// Waits until stdout contains `needle` (e.g. a server's "ready" line) or the
  /// process ends or `timeout` passes; true if the needle was seen.
  virtual bool wait_for_output(std::string_view needle, Nanos timeout) = 0;
  /// SIGTERM to the process group, SIGKILL after `grace`; returns what it printed.
  /// Idempotent: a second call returns the first result.
  virtual RunResult stop(Nanos grace = std::chrono::seconds(2)) = 0;
  /// Output captured so far (stdout).
  virtual std::string stdout_so_far() = 0;
  /// Process-group id on the host (0 if not known yet).
  virtual long pgid() const = 0;
  /// The command line, for messages.
  virtual const std::string& command() const = 0;
};

/// A host reached by SSH, locally, or (in tests) a fake.
class Transport {
 public:
  virtual ~Transport() = default;
  Transport() = default;
  Transport(const Transport&) = delete;
  Transport& operator=(const Transport&) = delete;

  /// The host's name in the profile ("a"), for messages.
  virtual const std::string& host_name() const = 0;
  /// "ssh root@198.18.0.2:22", "local", "local (netns lg-a)", for messages.
  virtual std::string describe() const = 0;
  /// Reaches the host now (SSH: connect, verify, log in) rather than at the
  /// first command, so that connect_all can name every unreachable host at once.
  /// Throws Failure like the first command would. Local and fake: nothing to do.
  virtual void connect() {}

  /// Runs argv (quoted, never pasted into a shell) and waits for it to end. A
  /// non-zero exit is a result, not an error; throws labgate::Failure
  /// (kCouldNotRun) when the host cannot be reached, the connection drops, the
  /// output passes the limit or the harness is interrupted. On timeout the
  /// process group is killed on the host and the result says timed_out.
  virtual RunResult run(const std::vector<std::string>& argv, const RunOptions& options = {}) = 0;
  /// Starts argv in its own process group and returns at once.
  virtual std::unique_ptr<Process> start(const std::vector<std::string>& argv,
                                         const StartOptions& options = {}) = 0;
  /// Copies a local file to `remote_path` with permission bits `mode` (reads it,
  /// then upload_data()).
  void upload(const std::string& local_path, const std::string& remote_path, int mode);
  /// Writes `data` to `remote_path` with permission bits `mode`. Fails if
  /// `remote_path` exists (never writes through a planted file or symlink).
  virtual void upload_data(std::string_view data, const std::string& remote_path, int mode) = 0;
  /// upload() into a directory only the login user can write (the run's private
  /// one, checked so): the file may be written in place, created exclusively
  /// (never over an existing name or through a symlink) but without a temporary
  /// name and a rename, as nobody else could see it half written or plant one
  /// there; and its mode may lack what the host's umask removes (no separate
  /// chmod). Over SSH that is two round trips fewer (issue 23: far hosts).
  /// The caller sets exact bits, if it needs them, with the command that uses
  /// the file, and checks what was written (a probe's --self-digest).
  void upload_to_private_dir(const std::string& local_path, const std::string& remote_path, int mode);
  /// The same for `data`; by default upload_data().
  virtual void upload_data_to_private_dir(std::string_view data, const std::string& remote_path, int mode) {
    upload_data(data, remote_path, mode);
  }
  /// Reads a remote file whole; throws Failure if it is larger than `limit`.
  virtual std::string read_file(const std::string& remote_path, std::size_t limit = kDefaultOutputLimit) = 0;
  /// lstat of a remote path (never follows a final symlink); nullopt if absent.
  struct FileInfo {
    bool is_dir = false;
    bool is_symlink = false;
    unsigned mode = 0;  ///< permission bits (07777)
    long uid = -1;
    std::uint64_t size = 0;
  };
  virtual std::optional<FileInfo> lstat(const std::string& remote_path) = 0;
  /// lstat of each path, in order (a directory's components): SSH asks for all
  /// of them in one request to the host's one shell during housekeeping steps
  /// (issue 23: a round trip, not one per path); others ask one by one.
  virtual std::vector<std::optional<FileInfo>> lstat_each(const std::vector<std::string>& remote_paths);

  /// What identifies the host itself, whatever address, alias or profile name
  /// reaches it: for SSH its host key ("hk-" and 16 hex of the key's SHA-256;
  /// machine-id cannot be it, cloned images and lab namespaces share one), for
  /// a local host "local-" and its namespace. Only [A-Za-z0-9_.-], so it can
  /// name a file on the host; "" when this transport cannot tell (fakes).
  /// Connects if needed; throws Failure(kCouldNotRun) as run() does.
  virtual std::string host_identity() { return ""; }

  /// The run will start probes or tools on this host: prepares what they start
  /// in ahead of need (SSH: a spare channel, so the first one does not wait for
  /// the account's login shell, issue 23). Never throws; local and fake: nothing.
  virtual void prepare_processes() {}
};

/// SSH for a host with an address, local (Boost.Process, optionally inside the
/// host's lab network namespace) for address = "local".
std::unique_ptr<Transport> make_transport(const profile::Host& host);

/// Throws Failure(kCouldNotRun) unless `r` is ok(), naming host, command and what
/// went wrong with the first lines of stderr.
void require_ok(const RunResult& r, const std::string& host, const std::vector<std::string>& argv);

}  // namespace labgate::transport

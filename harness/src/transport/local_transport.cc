// Transport for address = "local" (see local_transport.h).
#include "local_transport.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <fstream>

#include "labgate/transport/interrupt.h"
#include "labgate/transport/shell_quote.h"
#include "labgate/util/exit_code.h"
#include "local_child.h"
#include "part_name.h"

namespace labgate::transport {

namespace {
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

class LocalProcess : public Process {
 public:
  LocalProcess(std::string host, std::string command, std::unique_ptr<LocalChild> child)
      : host_(std::move(host)),
        command_(std::move(command)),
        child_(std::move(child)),
        started_(Clock::now()) {}
  ~LocalProcess() override { stop(std::chrono::seconds(2)); }

  std::optional<RunResult> wait(Nanos timeout) override {
    pump_until(Clock::now() + timeout, {});
    return result_;
  }
  bool wait_for_output(std::string_view needle, Nanos timeout) override {
    return pump_until(Clock::now() + timeout, needle);
  }
  RunResult stop(Nanos grace) override {
    if (!result_) {
      child_->kill_group(std::chrono::duration_cast<milliseconds>(grace));
      finish();
    }
    return *result_;
  }
  std::string stdout_so_far() override {
    if (!result_ && child_->pump(milliseconds(0))) finish();
    return result_ ? result_->out : child_->stdout_text();
  }
  long pgid() const override { return child_->pgid(); }
  const std::string& command() const override { return command_; }

 private:
  bool pump_until(Clock::time_point until, std::string_view needle) {
    for (;;) {
      if (result_) return !needle.empty() && result_->out.find(needle) != std::string::npos;
      if (!needle.empty() && child_->stdout_text().find(needle) != std::string::npos) return true;
      if (child_->pump(milliseconds(100))) {
        finish();
        continue;
      }
      if (child_->overflowed()) {
        child_->kill_group(milliseconds(1000));
        finish();
        could_not_run("host " + host_ + ": `" + command_ + "` wrote too much to " +
                      child_->overflowed_stream() + "; stopped it (output limit per stream)");
      }
      throw_if_interrupted("waiting for `" + command_ + "` on host " + host_);
      if (Clock::now() >= until) return false;
    }
  }
  void finish() {
    RunResult r;
    child_->fill(r);
    r.duration = Clock::now() - started_;
    result_ = std::move(r);
  }

  std::string host_, command_;
  std::unique_ptr<LocalChild> child_;
  Clock::time_point started_;
  std::optional<RunResult> result_;
};

// Appends the child's group to `file`; a child that cannot be recorded is not
// left running (a later cleanup could not find it).
void record_pgid(LocalChild& child, const std::string& file) {
  if (child.pgid() <= 0) return;
  std::ofstream f(file, std::ios::app);
  f << child.pgid() << '\n';
  f.flush();
  if (!f) {
    child.kill_group(milliseconds(500));
    could_not_run("cannot record process group " + std::to_string(child.pgid()) + " in " + file);
  }
}

}  // namespace

LocalTransport::LocalTransport(const profile::Host& host) : host_(host) {}

std::string LocalTransport::describe() const {
  return host_.netns ? "local (netns " + *host_.netns + ")" : "local";
}

std::vector<std::string> LocalTransport::full_argv(const std::vector<std::string>& argv) const {
  if (argv.empty()) could_not_run("host " + host_.name + ": empty command (argv has no program)");
  if (!host_.netns) return argv;
  std::vector<std::string> full{"ip", "netns", "exec", *host_.netns};
  full.insert(full.end(), argv.begin(), argv.end());
  return full;
}

RunResult LocalTransport::run(const std::vector<std::string>& argv, const RunOptions& options) {
  const std::string cmd = shell_join(full_argv(argv));
  if (!options.during_interrupt) throw_if_interrupted("about to run `" + cmd + "` on host " + host_.name);
  const auto timeout = options.timeout.value_or(host_.ssh.command_timeout);
  const auto t0 = Clock::now();
  LocalChild child(full_argv(argv), options.input, options.output_limit);
  if (options.pgid_file) record_pgid(child, *options.pgid_file);
  if (options.on_stderr_line) child.on_stderr_line(options.on_stderr_line);
  if (options.on_stdout_line) child.on_stdout_line(options.on_stdout_line);
  RunResult r;
  while (!child.pump(milliseconds(100))) {
    if (child.overflowed()) {
      child.kill_group(milliseconds(1000));
      could_not_run("host " + host_.name + ": `" + cmd + "` wrote more than " +
                    format_size(options.output_limit) + " to " + child.overflowed_stream() +
                    "; stopped it (output limit per stream)");
    }
    if (!options.during_interrupt && pending_interrupt()) {
      child.kill_group(milliseconds(1000));
      throw_if_interrupted("running `" + cmd + "` on host " + host_.name);
    }
    if (Clock::now() - t0 >= timeout) {
      r.timed_out = true;
      child.kill_group(milliseconds(2000));
      break;
    }
  }
  if (child.overflowed()) {
    could_not_run("host " + host_.name + ": `" + cmd + "` wrote more than " +
                  format_size(options.output_limit) + " to " + child.overflowed_stream() +
                  " (output limit per stream)");
  }
  child.fill(r);
  r.duration = Clock::now() - t0;
  return r;
}

std::unique_ptr<Process> LocalTransport::start(const std::vector<std::string>& argv,
                                               const StartOptions& options) {
  const std::string cmd = shell_join(full_argv(argv));
  throw_if_interrupted("about to start `" + cmd + "` on host " + host_.name);
  auto child = std::make_unique<LocalChild>(full_argv(argv), "", options.output_limit);
  if (options.pgid_file) record_pgid(*child, *options.pgid_file);
  return std::make_unique<LocalProcess>(host_.name, cmd, std::move(child));
}

void LocalTransport::upload_data(std::string_view data, const std::string& remote_path, int mode) {
  const std::string part = part_name(remote_path);
  // O_EXCL|O_NOFOLLOW: never write through a planted file or symlink.
  const int fd = ::open(part.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) could_not_run("host " + host_.name + ": cannot create " + part + ": " + std::strerror(errno));
  std::size_t off = 0;
  while (off < data.size()) {
    const ssize_t w = ::write(fd, data.data() + off, data.size() - off);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      const int e = errno;
      ::close(fd);
      ::unlink(part.c_str());
      could_not_run("host " + host_.name + ": writing " + part + ": " + std::strerror(e));
    }
    off += static_cast<std::size_t>(w);
  }
  ::fchmod(fd, static_cast<mode_t>(mode & 07777));
  ::close(fd);
  // link() refuses an existing target, like an SFTP v3 rename: never overwrite.
  if (::link(part.c_str(), remote_path.c_str()) != 0) {
    const int e = errno;
    ::unlink(part.c_str());
    could_not_run("host " + host_.name + ": cannot put " + remote_path + " in place: " + std::strerror(e) +
                  (e == EEXIST ? " (never overwritten)" : ""));
  }
  ::unlink(part.c_str());
}

std::string LocalTransport::read_file(const std::string& remote_path, std::size_t limit) {
  const int fd = ::open(remote_path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    could_not_run("host " + host_.name + ": cannot open " + remote_path + ": " + std::strerror(errno));
  std::string data;
  char buf[32768];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int e = errno;
      ::close(fd);
      could_not_run("host " + host_.name + ": reading " + remote_path + ": " + std::strerror(e));
    }
    if (n == 0) break;
    data.append(buf, static_cast<std::size_t>(n));
    if (data.size() > limit) {
      ::close(fd);
      could_not_run("host " + host_.name + ": " + remote_path + " is larger than " + format_size(limit) +
                    "; not read");
    }
  }
  ::close(fd);
  return data;
}

std::optional<Transport::FileInfo> LocalTransport::lstat(const std::string& remote_path) {
  struct stat st;
  if (::lstat(remote_path.c_str(), &st) != 0) {
    if (errno == ENOENT || errno == ENOTDIR) return std::nullopt;
    could_not_run("host " + host_.name + ": lstat " + remote_path + ": " + std::strerror(errno));
  }
  FileInfo info;
  info.is_dir = S_ISDIR(st.st_mode);
  info.is_symlink = S_ISLNK(st.st_mode);
  info.mode = st.st_mode & 07777;
  info.uid = static_cast<long>(st.st_uid);
  info.size = static_cast<std::uint64_t>(st.st_size);
  return info;
}

}  // namespace labgate::transport

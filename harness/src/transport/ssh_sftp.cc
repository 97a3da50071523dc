// SshTransport's file operations over SFTP, written for OpenSSH 4.3's sftp-server:
// protocol version 3, no extensions, rename never overwrites, and one message over
// 256 KiB kills the server (SFTP_MAX_MSG_LENGTH, the same today), so every write
// is at most 192 KiB: a probe goes in one or two writes, each a round trip, as
// libssh 0.10 waits for each write's status (issue 23: far hosts).
#include <fcntl.h>
#include <sys/stat.h>

#include <spdlog/spdlog.h>

#include "capture.h"
#include "exec_files.h"
#include "labgate/transport/interrupt.h"
#include "labgate/transport/shell_steps.h"
#include "labgate/util/excerpt.h"
#include "labgate/util/exit_code.h"
#include "part_name.h"
#include "remote_command.h"
#include "ssh_exec.h"
#include "ssh_transport.h"

namespace labgate::transport {

namespace {

constexpr std::size_t kChunk = 32 * 1024;        // a read, on the stack
constexpr std::size_t kWriteChunk = 192 * 1024;  // one SSH_FXP_WRITE, well below 256 KiB with its header
// Up to this size a text file in a housekeeping step goes through the shell.
constexpr std::size_t kShellUploadMax = 64 * 1024;

long long ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
}

std::string sftp_error_name(int code) {
  switch (code) {
    case SSH_FX_OK:
      return "ok";
    case SSH_FX_EOF:
      return "end of file";
    case SSH_FX_NO_SUCH_FILE:
      return "no such file";
    case SSH_FX_PERMISSION_DENIED:
      return "permission denied";
    case SSH_FX_FAILURE:
      return "failure (exists, or disk full)";
    case SSH_FX_BAD_MESSAGE:
      return "bad message";
    case SSH_FX_NO_CONNECTION:
      return "no connection";
    case SSH_FX_CONNECTION_LOST:
      return "connection lost";
    case SSH_FX_OP_UNSUPPORTED:
      return "operation unsupported";
    case SSH_FX_FILE_ALREADY_EXISTS:
      return "file already exists";
    default:
      return "SFTP error " + std::to_string(code);
  }
}

// Names the SFTP status and, when the session itself broke, drops it so the next
// call reconnects instead of reusing a dead channel.
[[noreturn]] void fail_sftp(SshConnection& conn, sftp_session sf, const std::string& what) {
  const int code = sftp_get_error(sf);
  // libssh leaves the status at "ok" when the failure was its own (a short
  // write, a closed channel): say that, never ": ok".
  std::string why = code == SSH_FX_OK ? std::string("no SFTP status from the server (libssh: ") +
                                            ssh_get_error(conn.session()) + ")"
                                      : sftp_error_name(code);
  ssh_session s = conn.session();
  if (!ssh_is_connected(s)) {
    why = std::string("connection lost: ") + ssh_get_error(s);
    conn.mark_broken(why);
  }
  throw Failure(ExitCode::kCouldNotRun, conn.who() + ": SFTP " + what + ": " + why);
}

// The session's SFTP channel. When the server refuses the channel itself
// (sshd's MaxSessions), say so rather than "is Subsystem sftp configured?".
// A refusal right after a command may be sshd still freeing that command's
// slot: tried again briefly first (make_room_for_a_channel).
sftp_session open_sftp(SshConnection& conn) {
  for (int attempt = 0;; ++attempt) {
    try {
      return conn.sftp();
    } catch (const Failure& f) {
      const std::string what = f.what();
      const auto at = what.find("Channel opening failure");
      if (at == std::string::npos) throw;
      if (auto why = explain_channel_refusal(what.substr(at))) {
        if (make_room_for_a_channel(conn, attempt, true)) continue;
        throw ChannelRefused(f.code(), conn.who() + ": cannot open the SFTP channel: " + *why);
      }
      throw;
    }
  }
}

// Closes an SFTP file unless its session went away first: a failure that
// dropped the connection (mark_broken) freed the SFTP session and its files.
struct FileCloser {
  SshConnection& conn;
  sftp_file f;
  int generation = conn.generation();
  int sftp_epoch = conn.sftp_epoch();
  ~FileCloser() {
    if (f && conn.connected() && conn.generation() == generation && conn.sftp_epoch() == sftp_epoch) sftp_close(f);
  }
};

// Runs an SFTP operation; if it failed because the session had died (an idle
// session whose server restarted), runs it once more on a fresh session. When
// that fails too, the first failure says which step broke (the upload, the
// file), so it leads the message; the retry's reason follows.
template <typename F>
auto retry_if_dropped(SshConnection& conn, F op) {
  try {
    return op();
  } catch (const Failure& first) {
    if (conn.connected()) throw;
    try {
      return op();
    } catch (const Failure& again) {
      throw Failure(again.code(), std::string(first.what()) + " (retried on a new connection: " + again.what() + ")");
    }
  }
}

}  // namespace

bool SshTransport::sftp_unusable() {
  // Asked before the connection's lock: the shell takes its own lock first.
  std::optional<std::string> seen = shell_.login_noise();
  // A housekeeping step whose first remote act is a file one (the lease root's
  // lstat before anything is written) starts the host's one shell now, as its
  // next command would anyway: its start shows the login noise, so no separate
  // `true` session is spent on it (issue 23: one shell start per host).
  const auto limit = conn_->host().ssh.command_timeout;
  if (!seen && ShellSteps::active() && shell_.usable()) {
    open_ahead();
    if (shell_.run({"true"}, RunOptions{}, limit, limit)) seen = shell_.login_noise();
  }
  std::unique_lock lock(conn_->mutex());
  conn_->session();  // connected (the check is per session)
  if (files_checked_ == conn_->generation()) return exec_files_;
  // sshd starts sftp-server through the login shell, so whatever that shell
  // prints on stdout (a banner in ~/.bashrc) lands in the SFTP stream. The
  // host's shell has shown it if it runs; else one framed `true` shows it
  // before SFTP is tried and mistaken for broken.
  std::string noise = seen.value_or("");
  if (!seen) {
    try {
      auto ex = SshExec::open(*conn_, wrap_remote_command({"true"}), "true", 64 * 1024,
                              channel_wait_for(*conn_, conn_->host().ssh.command_timeout, &lock, true));
      ex->send_input("");
      const auto until = std::chrono::steady_clock::now() + conn_->host().ssh.connect_timeout;
      while (!ex->pump(std::chrono::milliseconds(100)) && std::chrono::steady_clock::now() < until) {
      }
      noise = ex->login_noise();
    } catch (const ConnectionLost& lost) {
      conn_->mark_broken(lost.why);
      throw Failure(ExitCode::kCouldNotRun,
                    conn_->who() + ": connection lost before a file transfer: " + lost.why);
    }
  }
  files_checked_ = conn_->generation();
  exec_files_ = !noise.empty();
  if (exec_files_) {
    // Opened ahead before the noise was known: never read, closed unused.
    conn_->close_sftp();
    spdlog::warn(
        "{}: the login shell of {} prints {} byte(s) on stdout before every command (\"{}\"); sshd starts "
        "sftp-server through that shell, so SFTP would read it as protocol. Files go through `cat` over "
        "/bin/sh instead. To use SFTP, make the login shell's start-up file print only when interactive "
        "(sh/bash ~/.bashrc: [ -t 1 ] && echo ...; csh/tcsh ~/.cshrc: if ($?prompt) echo ...)",
        conn_->who(), conn_->host().ssh.user, noise.size(), excerpt(noise.substr(0, noise.find('\n')), 80));
  }
  return exec_files_;
}

void SshTransport::upload_data(std::string_view data, const std::string& remote_path, int mode) {
  upload_with(data, remote_path, mode, /*in_place=*/false);
}

void SshTransport::upload_data_to_private_dir(std::string_view data, const std::string& remote_path, int mode) {
  upload_with(data, remote_path, mode, /*in_place=*/true);
}

void SshTransport::upload_with(std::string_view data, const std::string& remote_path, int mode, bool in_place) {
  throw_if_interrupted("uploading " + remote_path + " to " + conn_->who());
  // A small text file in a housekeeping step is one request to the host's one
  // shell: a round trip, where SFTP's open, write, close, chmod and rename are
  // five (issue 23: far hosts). Asked before the connection's lock: the shell
  // takes its own lock first.
  if (ShellSteps::active() && shell_.usable() && data.size() <= kShellUploadMax &&
      data.find('\0') == std::string_view::npos)
    return exec_upload(*this, data, remote_path, mode);
  std::unique_lock lock(conn_->mutex());
  try {
    if (sftp_unusable()) return exec_upload(*this, data, remote_path, mode);
    const auto t0 = std::chrono::steady_clock::now();
    bool again = false;
    retry_if_dropped(*conn_, [&] {
      // In place, a first attempt cut off mid-write left its part under the
      // target's name, in a directory only we write: ours to remove.
      if (in_place && again) sftp_unlink(open_sftp(*conn_), remote_path.c_str());
      again = true;
      upload_once(data, remote_path, mode, in_place);
    });
    spdlog::debug("{}: SFTP upload of {} ({} bytes{}): {} ms", conn_->who(), remote_path, data.size(),
                  in_place ? ", in place" : "", ms_since(t0));
  } catch (const ChannelRefused& refused) {
    lock.unlock();
    SshTransport& other = overflow(refused, "upload " + remote_path);
    if (in_place)
      other.upload_data_to_private_dir(data, remote_path, mode);
    else
      other.upload_data(data, remote_path, mode);
  }
}

void SshTransport::upload_once(std::string_view data, const std::string& remote_path, int mode, bool in_place) {
  SshConnection& conn = *conn_;
  sftp_session sf = open_sftp(conn);
  // Write beside the target and rename into place: a reader never sees half a
  // file, and O_EXCL refuses a name someone planted (file or symlink). In a
  // private directory nobody else reads or plants: written in place, O_EXCL
  // still, with the mode asked for at its creation (the server's umask applies).
  const std::string part = in_place ? remote_path : part_name(remote_path);
  {
    FileCloser file{conn, sftp_open(sf, part.c_str(), O_WRONLY | O_CREAT | O_EXCL,
                                    in_place ? static_cast<mode_t>(mode & 0777) : 0600)};
    if (!file.f) {
      // Protocol 3 says "failure" for an existing name: told apart by an lstat
      // (a round trip on this path only), the open's own status kept for the rest.
      const int code = sftp_get_error(sf);
      if (in_place && code == SSH_FX_FAILURE && conn.connected()) {
        sftp_attributes existing = sftp_lstat(sf, remote_path.c_str());
        if (existing) sftp_attributes_free(existing);
        throw Failure(ExitCode::kCouldNotRun,
                      conn.who() + ": SFTP upload " +
                          (existing ? "refused: " + remote_path + " already exists (never overwritten)"
                                    : "cannot create " + remote_path + ": " + sftp_error_name(code)));
      }
      fail_sftp(conn, sf, "cannot create " + part);
    }
    for (std::size_t off = 0; off < data.size(); off += kWriteChunk) {
      const std::size_t n = std::min(kWriteChunk, data.size() - off);
      const ssize_t w = sftp_write(file.f, data.data() + off, n);
      if (w != static_cast<ssize_t>(n)) {
        sftp_close(file.f);
        file.f = nullptr;
        if (!conn.connected() || !ssh_is_connected(conn.session()))
          fail_sftp(conn, sf, "write to " + part + " failed at byte " + std::to_string(off));
        // Asked while the file still holds its space: a full disk reads full.
        const std::string why = describe_write_failure(*this, part.substr(0, part.rfind('/')), data.size());
        if (conn.connected()) sftp_unlink(sf, part.c_str());
        throw Failure(ExitCode::kCouldNotRun, conn.who() + ": SFTP write to " + part + " failed at byte " +
                                                  std::to_string(off) + " of " + std::to_string(data.size()) +
                                                  (why.empty() ? "" : ": " + why));
      }
    }
    const int rc = sftp_close(file.f);
    file.f = nullptr;
    if (rc != SSH_OK) {
      if (in_place && conn.connected()) sftp_unlink(sf, part.c_str());  // never a half file under its name
      fail_sftp(conn, sf, "closing " + part);
    }
  }
  if (in_place) return;
  // The create mode went through the server's umask; set the bits exactly.
  if (sftp_chmod(sf, part.c_str(), static_cast<mode_t>(mode & 07777)) != SSH_OK) {
    sftp_unlink(sf, part.c_str());
    fail_sftp(conn, sf, "chmod " + part);
  }
  if (sftp_rename(sf, part.c_str(), remote_path.c_str()) != SSH_OK) {
    sftp_attributes existing = sftp_lstat(sf, remote_path.c_str());
    const bool exists = existing != nullptr;
    if (existing) sftp_attributes_free(existing);
    sftp_unlink(sf, part.c_str());
    if (exists) {
      throw Failure(ExitCode::kCouldNotRun, conn.who() + ": SFTP upload refused: " + remote_path +
                                                " already exists (never overwritten)");
    }
    fail_sftp(conn, sf, "rename " + part + " to " + remote_path);
  }
}

std::string SshTransport::read_file(const std::string& remote_path, std::size_t limit) {
  throw_if_interrupted("reading " + remote_path + " on " + conn_->who());
  std::lock_guard lock(conn_->mutex());
  if (sftp_unusable()) return exec_read(*this, remote_path, limit);
  return retry_if_dropped(*conn_, [&] { return read_once(remote_path, limit); });
}

std::string SshTransport::read_once(const std::string& remote_path, std::size_t limit) {
  SshConnection& conn = *conn_;
  sftp_session sf = open_sftp(conn);
  FileCloser file{conn, sftp_open(sf, remote_path.c_str(), O_RDONLY, 0)};
  if (!file.f) fail_sftp(conn, sf, "cannot open " + remote_path);
  std::string data;
  char buf[kChunk];
  for (;;) {
    const ssize_t n = sftp_read(file.f, buf, sizeof buf);
    if (n < 0) fail_sftp(conn, sf, "reading " + remote_path);
    if (n == 0) break;
    data.append(buf, static_cast<std::size_t>(n));
    if (data.size() > limit) {
      throw Failure(ExitCode::kCouldNotRun,
                    conn.who() + ": " + remote_path + " is larger than " + format_size(limit) + "; not read");
    }
  }
  return data;
}

std::optional<Transport::FileInfo> SshTransport::lstat(const std::string& remote_path) {
  return lstat_each({remote_path}).front();
}

std::vector<std::optional<Transport::FileInfo>> SshTransport::lstat_each(
    const std::vector<std::string>& remote_paths) {
  // A housekeeping step's lstats are one request to the host's one shell: no
  // SFTP round trip per path, and no wait for SFTP's start (issue 23).
  if (ShellSteps::active() && shell_.usable()) return exec_lstat_each(*this, remote_paths);
  std::vector<std::optional<FileInfo>> out;
  for (const std::string& p : remote_paths) out.push_back(lstat_one(p));
  return out;
}

std::optional<Transport::FileInfo> SshTransport::lstat_one(const std::string& remote_path) {
  std::lock_guard lock(conn_->mutex());
  if (sftp_unusable()) return exec_lstat(*this, remote_path);
  const auto t0 = std::chrono::steady_clock::now();
  auto info = retry_if_dropped(*conn_, [&] { return lstat_once(remote_path); });
  spdlog::debug("{}: SFTP lstat {}: {} ms", conn_->who(), remote_path, ms_since(t0));
  return info;
}

std::optional<Transport::FileInfo> SshTransport::lstat_once(const std::string& remote_path) {
  SshConnection& conn = *conn_;
  sftp_session sf = open_sftp(conn);
  sftp_attributes a = sftp_lstat(sf, remote_path.c_str());
  if (!a) {
    if (sftp_get_error(sf) == SSH_FX_NO_SUCH_FILE) return std::nullopt;
    fail_sftp(conn, sf, "lstat " + remote_path);
  }
  FileInfo info;
  // Protocol 3 has no file type field; the type is in the mode's S_IFMT bits.
  info.is_dir = S_ISDIR(a->permissions);
  info.is_symlink = S_ISLNK(a->permissions);
  info.mode = a->permissions & 07777;
  info.uid = static_cast<long>(a->uid);
  info.size = a->size;
  sftp_attributes_free(a);
  return info;
}

}  // namespace labgate::transport

// Transport over SSH (libssh 0.10): one session per host reused for the whole
// run, commands on channels, files by SFTP in OpenSSH 4.3-safe chunks.
#pragma once

#include <memory>
#include <mutex>

#include "labgate/transport/transport.h"
#include "ssh_connection.h"
#include "ssh_shell.h"
#include "ssh_spare.h"

namespace labgate::transport {

class ChannelRefused;

class SshTransport : public Transport {
 public:
  explicit SshTransport(const profile::Host& host);
  ~SshTransport() override;

  const std::string& host_name() const override { return name_; }
  std::string describe() const override;
  void connect() override;
  RunResult run(const std::vector<std::string>& argv, const RunOptions& options = {}) override;
  std::unique_ptr<Process> start(const std::vector<std::string>& argv,
                                 const StartOptions& options = {}) override;
  void upload_data(std::string_view data, const std::string& remote_path, int mode) override;
  void upload_data_to_private_dir(std::string_view data, const std::string& remote_path, int mode) override;
  std::string read_file(const std::string& remote_path, std::size_t limit = kDefaultOutputLimit) override;
  std::optional<FileInfo> lstat(const std::string& remote_path) override;
  std::vector<std::optional<FileInfo>> lstat_each(const std::vector<std::string>& remote_paths) override;
  /// "hk-" and the first 16 hex digits of the SHA-256 of the host key the
  /// session verified against known_hosts.
  std::string host_identity() override;
  /// Opens the spare channel now (ssh_spare.h), so the run's first probe or
  /// tool does not wait for the account's login shell.
  void prepare_processes() override;

 private:
  // One attempt of each SFTP operation (ssh_sftp.cc); the public ones retry once
  // on a fresh session when the old one had died while idle.
  // in_place: the target's directory is private (upload_data_to_private_dir).
  void upload_with(std::string_view data, const std::string& remote_path, int mode, bool in_place);
  void upload_once(std::string_view data, const std::string& remote_path, int mode, bool in_place);
  std::string read_once(const std::string& remote_path, std::size_t limit);
  std::optional<FileInfo> lstat_once(const std::string& remote_path);
  std::optional<FileInfo> lstat_one(const std::string& remote_path);  // by SFTP (or exec_files)
  // True when this session's login shell prints on stdout (checked once per
  // session): SFTP cannot work, files go through exec_files.h instead.
  bool sftp_unusable();
  // Before the host's one shell is first used on a session: sends the SFTP
  // channel's open now (SshConnection::open_sftp_ahead), so that its round
  // trip rides beside the shell's channel and sftp-server's login shell starts
  // right after the shell's rather than after a file operation (issue 23).
  void open_ahead();
  // A second connection to the same host, opened the first time this one's
  // server refuses a channel (sshd's MaxSessions below what is open at once:
  // a probe server holding the only slot must still be stopped, the run cleaned
  // up and the lease released). Said once, naming the cause; kept for the run.
  SshTransport& overflow(const ChannelRefused& refused, const std::string& what);
  // How deep a chain of such connections may go: each is one more session slot set.
  static constexpr int kMaxOverflowDepth = 3;

  std::string name_;
  // Shared with started processes, which may outlive a call but not the session.
  std::shared_ptr<SshConnection> conn_;
  int files_checked_ = -1;  // session generation sftp_unusable() last looked at
  int opened_ahead_ = -1;   // session generation open_ahead() last opened SFTP on
  bool exec_files_ = false;
  int depth_ = 0;  // 0 for the run's connection, 1.. for overflow ones
  std::mutex overflow_mutex_;
  std::unique_ptr<SshTransport> overflow_;
  // After conn_: destroyed first, while its connection is still there.
  SshShell shell_{conn_};
  // Probes and tools start in it rather than on a channel opened for them (issue 23).
  SpareChannel spare_{*conn_};
};

}  // namespace labgate::transport

// A run's footprint on one host: a private directory (0700, unpredictable name,
// verified owner and mode, never through a symlink) below the host's probe_dir,
// the probes uploaded and verified there, and every process the run starts,
// recorded so that cleanup can stop it even after this harness is gone. The
// handle removes it all when destroyed: at the end of a run, on a failure, after
// a dropped connection (one reconnect), and on SIGINT/SIGTERM (the transport
// unwinds; cleanup commands run with during_interrupt).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "labgate/deploy/become.h"
#include "labgate/profile/profile.h"
#include "labgate/transport/remote_dir.h"
#include "labgate/transport/transport.h"
#include "labgate/util/messages.h"

namespace labgate::deploy {

class HostDeployment {
 public:
  /// Creates `<probe_dir>/labgate-<lab>.<host tag>.<16 hex from RAND_bytes>` on the host and
  /// writes `owner_note` (who runs it) into it. With `sweep_leftovers`, first
  /// removes the directories (and stops the processes) that dead runs of the same
  /// lab left behind; pass it only while holding the lab lease. Throws
  /// Failure(kCouldNotRun) naming host, directory and what is wrong. What was
  /// swept, and a clean-up that failed, are told to `messages` (a gate run's
  /// Reporter), which must outlive it.
  HostDeployment(transport::Transport& transport, const profile::Host& host, const std::string& lab_name,
                 const std::string& owner_note, bool sweep_leftovers = false,
                 util::Messages& messages = util::log_messages());
  ~HostDeployment();
  HostDeployment(const HostDeployment&) = delete;
  HostDeployment& operator=(const HostDeployment&) = delete;

  /// The run's directory on the host.
  const std::string& dir() const { return dir_; }
  /// Leftover directories removed by the sweep.
  const std::vector<std::string>& swept() const { return swept_; }

  /// Gives the run's directory a local probe (mode 0700): copied from the host's
  /// probe cache when an earlier run left one with its SHA-256 there, else
  /// uploaded (and then kept in that cache), and proves the host runs the same bytes:
  /// `<probe> --self-digest` must print the local file's SHA-256. Detects a
  /// probe_dir mounted noexec and says so. Returns the remote path; installing
  /// the same name twice returns the first upload.
  std::string install(const std::string& local_probe);

  /// Runs / starts argv as part of this run: its process group is recorded in the
  /// directory and it carries the run marker, so cleanup can always stop it.
  transport::RunResult run(const std::vector<std::string>& argv, transport::RunOptions options = {});
  std::unique_ptr<transport::Process> start(const std::vector<std::string>& argv,
                                            transport::StartOptions options = {});

  /// How this host reaches root (login as root, become = "sudo", or not at all).
  RootAccess root_access() const { return root_; }
  /// Runs argv as part of this run, as root where the host allows it: as is for
  /// a root login, through `sudo -n` with become = "sudo" (a sudo that wants a
  /// password, refuses, or meets `Defaults requiretty` throws Failure(kCouldNotRun)
  /// naming the host and the sudoers lines that would allow it), and as the
  /// login user otherwise: what then fails for lack of root says so itself
  /// (the facts probe reports "needs root"). For the facts probe, ping -f, conrep.
  transport::RunResult run_privileged(const std::vector<std::string>& argv,
                                      transport::RunOptions options = {});

  /// Stops every process the run started on the host and removes the directory.
  /// Idempotent; throws Failure if the host cannot be reached even after one
  /// reconnect. The destructor calls it and logs instead of throwing.
  void cleanup();
  /// As cleanup(), and runs `then` (the lab lease's release) right after it in
  /// the same exec, whether or not the clean-up worked: one round trip for the
  /// run's end on this host. True if `then` ran and exited 0 (false also when
  /// the directory was already cleaned, or `then` is empty: nothing ran).
  bool cleanup(const std::vector<std::string>& then);

 private:
  // The constructor's second half: resolve probe_dir, sweep the lab's
  // leftovers (if `sweep_prefix` is set) and mkdir the run's directory in one
  // exec, verify it, write the owner note; on a throw the constructor removes what may have
  // been made.
  void make_private_dir(const std::string& who, const std::string& owner_note, const std::string& sweep_prefix);
  std::vector<std::string> marked(const std::vector<std::string>& argv) const;
  std::string install_once(const std::string& local_probe, const std::string& name);
  std::string exec_failure_message(const std::string& probe, const transport::RunResult& r);

  transport::Transport& transport_;
  util::Messages& messages_;
  std::string host_name_;
  RootAccess root_ = RootAccess::kNone;
  std::unique_ptr<SudoRunner> sudo_;
  std::string probe_dir_;
  std::vector<transport::DirComponent>
      path_;  ///< probe_dir's directories below "/", in order, as lstat saw them
  std::string dir_;
  long login_uid_ = -1;     // as the run directory's script reported it
  std::string cache_dir_;   // the host's probe cache (remote_scripts.h), empty: none
  bool cleaned_ = false;
  std::vector<std::string> swept_;
  std::map<std::string, std::string> installed_;  // probe name -> remote path
  std::map<std::string, std::string> refused_;    // probe name -> why it cannot run there
};

/// What names a host in its run directories: its transport's host identity (its
/// host key), or the profile's host name when the transport cannot tell.
std::string host_tag(transport::Transport& transport, const profile::Host& host);

/// "labgate-<lab>." — the prefix of every run directory of a lab; throws
/// Failure(kUsageError) if the lab name has characters unsafe in a file name.
std::string run_dir_prefix(const std::string& lab_name);

}  // namespace labgate::deploy

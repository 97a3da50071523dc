// The command line a remote login shell runs for every labgate command. Whatever
// the login shell is (bash with a noisy ~/.bashrc, csh, tcsh, ksh), it only execs
// an explicit /bin/sh, which is handed the real script in an encoding that no
// shell reinterprets; that script announces the process-group id on stderr (so a
// timeout or stop can kill the whole group over a second channel: closing an SSH
// channel kills nothing on the host), frames stdout with a start marker (so a
// banner or MOTD printed before it is never taken for the command's output),
// fixes the locale, then execs the program so the group leader is the program.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace labgate::transport {

/// Wraps argv for any login shell (sh, bash, csh, tcsh, ksh). sshd makes each
/// session's shell a session and process-group leader (setsid); `exec /bin/sh`
/// and the final `exec` keep that pid, so $$ is the group id. With `pgid_file`,
/// the id is also appended there (and nothing starts if it cannot be).
std::string wrap_remote_command(const std::vector<std::string>& argv,
                                const std::optional<std::string>& pgid_file = std::nullopt);

/// The script wrap_remote_command hands /bin/sh: announce the group id (and
/// append it to `pgid_file`), frame stdout, fix the locale, exec argv.
std::string remote_script(const std::vector<std::string>& argv,
                          const std::optional<std::string>& pgid_file = std::nullopt);

/// The line a spare channel's login shell runs (ssh_spare.h): an explicit
/// /bin/sh that waits for one launcher_request line on stdin and runs it in its
/// own process, which sshd made the channel's session and group leader: the
/// program then stands exactly where wrap_remote_command would have put it.
std::string launcher_remote_command();

/// The request line for launcher_remote_command: remote_script(argv, pgid_file)
/// escaped for printf %b, newline-terminated; the program's stdin follows it.
std::string launcher_request(const std::vector<std::string>& argv,
                             const std::optional<std::string>& pgid_file = std::nullopt);

/// printf %b escapes for backslash, newline and '!', unquoted: one line that
/// `read -r` takes whole and printf %b turns back into `script`.
std::string escape_for_printf_b(std::string_view script);

/// The script's text as one word that every login shell passes through unchanged
/// (printf %b escapes for backslash, newline and '!'), for wrap_remote_command.
std::string encode_for_printf_b(std::string_view script);

/// argv that stops process group `pgid`: SIGTERM, then SIGKILL if it is still
/// there after `grace`. Exits 0 whether or not the group existed.
std::vector<std::string> kill_group_argv(long pgid, std::chrono::milliseconds grace);

/// Finds a marker line the wrapper prints ("\037labgate-pgid 123\n") in a stream
/// fed in chunks, wherever it falls (a noisy login shell may print before it,
/// even without a line end), removes it and keeps its value. What came before it
/// is either passed through (stderr: a login script's warning may explain a
/// failure) or set aside as login noise (stdout: never part of a result).
class MarkerFilter {
 public:
  enum class Before { kPassThrough, kSetAside };
  MarkerFilter(std::string_view marker, Before before) : marker_(marker), before_(before) {}
  /// Returns the part of `chunk` that belongs to the program's stream.
  std::string feed(std::string_view chunk);
  /// Flushes anything held back (call at EOF). Without a marker, everything
  /// held is returned: it may be the only clue why the wrapper never ran.
  std::string finish();
  /// The text after the marker on its line, once seen.
  const std::optional<std::string>& value() const { return value_; }
  /// What the login shell printed before the marker (kSetAside only), bounded.
  const std::string& noise() const { return noise_; }

 private:
  std::string marker_;
  Before before_;
  std::string pending_;  // bytes held until we know whether they hold the marker
  std::optional<std::string> value_;
  std::string noise_;
  bool done_ = false;  // marker seen or given up on: pass everything through
};

/// The stderr filter: removes the wrapper's pgid announcement, keeps the id.
class PgidMarkerFilter {
 public:
  std::string feed(std::string_view chunk) { return f_.feed(chunk); }
  std::string finish() { return f_.finish(); }
  /// The announced process-group id, once seen (never 0 or 1).
  std::optional<long> pgid() const;

 private:
  MarkerFilter f_{"\037labgate-pgid ", MarkerFilter::Before::kPassThrough};
};

/// The stdout filter: drops what the login shell printed before the program.
class StdoutFrameFilter {
 public:
  std::string feed(std::string_view chunk) { return f_.feed(chunk); }
  std::string finish() { return f_.finish(); }
  /// True once the frame's start was seen: the wrapper ran.
  bool framed() const { return f_.value().has_value(); }
  /// What the login shell printed on stdout before the command (a banner).
  const std::string& noise() const { return f_.noise(); }

 private:
  MarkerFilter f_{"\037labgate-out", MarkerFilter::Before::kSetAside};
};

}  // namespace labgate::transport

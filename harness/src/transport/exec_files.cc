// File operations through /bin/sh and write-failure diagnosis (see exec_files.h).
#include "exec_files.h"

#include <sys/stat.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <sstream>

#include "labgate/transport/shell_quote.h"
#include "labgate/util/excerpt.h"
#include "labgate/util/exit_code.h"
#include "part_name.h"

namespace labgate::transport {

namespace {

using namespace std::chrono_literals;

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
  return excerpt(s, 400);
}

std::string dir_of(const std::string& path) {
  const auto slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// Exit codes of the upload script, each a different cause.
constexpr int kWriteFailed = 3, kChmodFailed = 4, kExists = 5, kLinkFailed = 6;

}  // namespace

void exec_upload(Transport& t, std::string_view data, const std::string& remote_path, int mode) {
  const std::string part = part_name(remote_path);
  char octal[8];
  std::snprintf(octal, sizeof octal, "%o", mode & 07777);
  // noclobber: the part file is created O_EXCL, so a planted name is refused.
  RunOptions o;
  o.input = std::string(data);
  o.timeout = 120s;
  const auto r = t.run(sh_argv(R"SH(
p=$1; target=$2; mode=$3
umask 077; set -C
cat > "$p" || exit 3  # the caller diagnoses, then removes it
chmod "$mode" "$p" || { rm -f "$p"; exit 4; }
if ln "$p" "$target" 2>/dev/null; then rm -f "$p"; exit 0; fi
rm -f "$p"
if [ -e "$target" ] || [ -h "$target" ]; then exit 5; fi
exit 6
)SH",
                               {part, remote_path, octal}),
                       o);
  if (r.ok()) return;
  const std::string who =
      "host " + t.host_name() + ": upload of " + remote_path + " (through /bin/sh, not SFTP)";
  switch (r.exit_status) {
    case kExists:
      could_not_run(who + " refused: " + remote_path + " already exists (never overwritten)");
    case kWriteFailed: {
      // Asked while the part file still holds its space, then removed.
      const std::string why = describe_write_failure(t, dir_of(remote_path), data.size());
      RunOptions rm;
      rm.timeout = 30s;
      rm.during_interrupt = true;
      t.run({"rm", "-f", "--", part}, rm);
      could_not_run(who + " failed writing " + part + ": " + trimmed(r.err) +
                    (why.empty() ? "" : " (" + why + ")"));
    }
    case kChmodFailed:
      could_not_run(who + ": chmod " + part + " failed: " + trimmed(r.err));
    case kLinkFailed:
      could_not_run(who + ": cannot move " + part + " into place: " + trimmed(r.err));
    default:
      could_not_run(who + " " + r.describe() + ": " + trimmed(r.err));
  }
}

std::string exec_read(Transport& t, const std::string& remote_path, std::size_t limit) {
  RunOptions o;
  o.timeout = 120s;
  o.output_limit = limit + 1;
  RunResult r;
  try {
    r = t.run({"cat", "--", remote_path}, o);
  } catch (const Failure& f) {
    if (std::string(f.what()).find("wrote more than") == std::string::npos) throw;
    could_not_run("host " + t.host_name() + ": " + remote_path + " is larger than " + std::to_string(limit) +
                  " bytes; not read");
  }
  if (!r.ok())
    could_not_run("host " + t.host_name() + ": cannot read " + remote_path + ": " + trimmed(r.err));
  if (r.out.size() > limit)
    could_not_run("host " + t.host_name() + ": " + remote_path + " is larger than " + std::to_string(limit) +
                  " bytes; not read");
  return r.out;
}

std::optional<Transport::FileInfo> exec_lstat(Transport& t, const std::string& remote_path) {
  return exec_lstat_each(t, {remote_path}).front();
}

std::vector<std::optional<Transport::FileInfo>> exec_lstat_each(Transport& t,
                                                                const std::vector<std::string>& remote_paths) {
  RunOptions o;
  o.timeout = 30s;
  // One line per path, in order: stat's, or ABSENT; a stat that fails ends the
  // command with its message (never a line short).
  const auto r = t.run(sh_argv("for p; do if [ -e \"$p\" ] || [ -h \"$p\" ]; then "
                               "stat -c '" + std::string(kStatFormat) + "' -- \"$p\" || exit; else echo ABSENT; fi; done",
                               remote_paths),
                       o);
  const std::string what = remote_paths.size() == 1 ? remote_paths.front() : std::to_string(remote_paths.size()) + " paths (" + remote_paths.front() + " ...)";
  if (!r.ok()) could_not_run("host " + t.host_name() + ": cannot stat " + what + ": " + trimmed(r.err));
  std::vector<std::optional<Transport::FileInfo>> out;
  std::istringstream lines(r.out);
  std::string line;
  for (const std::string& p : remote_paths) {
    if (!std::getline(lines, line))
      could_not_run("host " + t.host_name() + ": stat " + p + ": no answer for it: " + excerpt(r.out, 200));
    try {
      out.push_back(parse_stat_line(line));
    } catch (const std::exception& e) {
      could_not_run("host " + t.host_name() + ": stat " + p + ": " + e.what());
    }
  }
  return out;
}

std::string describe_write_failure(Transport& t, const std::string& dir, std::uint64_t needed) {
  try {
    RunOptions o;
    o.timeout = 20s;
    o.during_interrupt = true;
    // A 64 KiB test write gets the kernel's own reason (ENOSPC, EROFS, EDQUOT);
    // df says how much is left and which filesystem it is.
    const auto r = t.run(sh_argv(R"SH(
d=$1; f="$d/.labgate-space-test.$$"
err=$(dd if=/dev/zero of="$f" bs=1024 count=64 2>&1 >/dev/null) || printf 'write: %s\n' "$(printf '%s\n' "$err" | head -n 1)"
rm -f "$f"
df -Pk "$d" 2>/dev/null | awk 'NR==2 { printf "free: %.0f %s\n", $4 * 1024, $6 }'
)SH",
                                 {dir}),
                         o);
    std::string write;
    std::optional<std::uint64_t> free_bytes;
    std::string mount;
    std::istringstream lines(r.out);
    for (std::string line; std::getline(lines, line);) {
      if (line.rfind("write: ", 0) == 0) write = line.substr(7);
      if (line.rfind("free: ", 0) == 0) {
        std::istringstream f(line.substr(6));
        std::uint64_t b = 0;
        if (f >> b >> mount) free_bytes = b;
      }
    }
    // dd's message is "dd: failed to open '...': Read-only file system": keep the cause.
    if (auto colon = write.rfind(": "); colon != std::string::npos) write = write.substr(colon + 2);
    const std::string free_text =
        free_bytes ? std::to_string(*free_bytes) + " bytes free on " + excerpt(mount, 200) : std::string();
    if (write.empty() && free_bytes && needed > *free_bytes)
      return "no space left for it: " + std::to_string(needed) + " bytes needed, " + free_text;
    std::string out = write.empty() ? "a test write there succeeded" : excerpt(write, 200);
    if (!free_text.empty()) out += "; " + free_text;
    return out;
  } catch (const std::exception&) {
    return "";
  }
}

}  // namespace labgate::transport

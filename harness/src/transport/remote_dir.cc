// Component-by-component resolution of a remote directory (see remote_dir.h).
#include "labgate/transport/remote_dir.h"

#include <sstream>

#include "labgate/transport/stat_line.h"
#include "labgate/util/exit_code.h"

namespace labgate::transport {
namespace {

using namespace std::chrono_literals;

std::string octal(unsigned mode) {
  std::ostringstream o;
  o << '0' << std::oct << mode;
  return o.str();
}

// What `link` resolves to on the host, for the message; "" if it cannot be told.
std::string resolved(Transport& t, const std::string& path) {
  try {
    RunOptions o;
    o.timeout = 10s;
    const RunResult r = t.run({"readlink", "-f", "--", path}, o);
    std::string out = r.ok() ? r.out : "";
    while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
    return out;
  } catch (const std::exception&) {
    return "";  // only the message loses the hint
  }
}

}  // namespace

std::vector<std::string> remote_dir_paths(const std::string& dir) {
  // "/" itself only when it is the directory: it is never a symlink, and one
  // round trip fewer per host and run.
  std::vector<std::string> paths;
  for (std::size_t at = dir.find('/', 1); at != std::string::npos; at = dir.find('/', at + 1))
    paths.push_back(dir.substr(0, at));
  paths.push_back(dir);
  return paths;
}

std::vector<DirComponent> resolve_remote_dir(Transport& t, const std::string& dir, const std::string& who,
                                             const std::string& key) {
  // All at once (over SSH one request in a housekeeping step).
  return check_remote_dir(t, dir, t.lstat_each(remote_dir_paths(dir)), who, key);
}

std::vector<DirComponent> check_remote_dir(Transport& t, const std::string& dir,
                                           const std::vector<std::optional<Transport::FileInfo>>& infos,
                                           const std::string& who, const std::string& key) {
  const auto fail = [&](const std::string& why) {
    throw Failure(ExitCode::kCouldNotRun, who + ": " + key + " " + dir + ": " + why);
  };
  const std::vector<std::string> paths = remote_dir_paths(dir);
  std::vector<DirComponent> out;
  // A later path seen through an earlier symlink is never used: the loop stops there.
  for (std::size_t i = 0; i < paths.size(); ++i) {
    const std::string& p = paths[i];
    if (i >= infos.size()) fail(p + " was not reported by the host's script");
    const auto& info = infos[i];
    if (!info) fail(p == dir ? "does not exist" : p + " does not exist");
    if (info->is_symlink) {
      const std::string target = resolved(t, dir);
      fail((p == dir ? "is a symlink" : p + " is a symlink") +
           std::string("; a run only goes where the profile says, so name the real directory") +
           (target.empty()
                ? ""
                : " (" + key.substr(0, key.find(' ')) + " = \"" + target + "\" if that is the one meant)"));
    }
    if (!info->is_dir) fail(p == dir ? "is not a directory" : p + " is not a directory");
    // Everyone may rename entries of a world-writable directory unless it is sticky.
    if ((info->mode & 0002) && !(info->mode & 01000))
      fail((p == dir ? std::string("it") : p) + " is world-writable without the sticky bit (mode " +
           octal(info->mode) + "); any user could replace " +
           (p == dir ? "the run's directory there" : "what follows it on the path"));
    out.push_back({p, *info});
  }
  return out;
}

std::string dir_safe_shell() {
  // The same rules as check_remote_dir, from stat's raw mode (hex): 0x2 is
  // writable by others, 0x200 (01000) the sticky bit.
  return std::string(R"SH(
dir_safe() {
  for p; do
    if [ -e "$p" ] || [ -h "$p" ]; then s=$(stat -c ')SH") + kStatFormat + R"SH(' -- "$p") || return 1; else s=ABSENT; fi
    echo "path $s"
    [ "$s" != ABSENT ] && [ ! -h "$p" ] && [ -d "$p" ] || return 1
    r=$((0x${s%% *}))
    [ $((r & 2)) -eq 0 ] || [ $((r & 512)) -ne 0 ] || return 1
  done
  return 0
}
)SH";
}

std::vector<std::optional<Transport::FileInfo>> parse_dir_safe(const std::string& out) {
  std::vector<std::optional<Transport::FileInfo>> infos;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("path ", 0) != 0) continue;
    try {
      infos.push_back(parse_stat_line(line.substr(5)));
    } catch (const std::exception&) {
      break;  // check_remote_dir names the path not reported
    }
  }
  return infos;
}

std::string foreign_owner(const std::vector<DirComponent>& components, long login_uid, const std::string& who,
                          const std::string& key, const std::string& dir) {
  for (const DirComponent& c : components) {
    if (c.info.uid <= 0 || c.info.uid == login_uid || login_uid < 0) continue;
    return who + ": " + key + " " + dir + (c.path == dir ? " is" : ": " + c.path + " is") + " owned by uid " +
           std::to_string(c.info.uid) + ", neither root nor the login user (uid " +
           std::to_string(login_uid) + "): its owner could replace " +
           (c.path == dir ? "the run's directory" : "what follows it") +
           " with a symlink; refusing. Name a directory owned, all the way down, by root or by the login "
           "user";
  }
  return "";
}

}  // namespace labgate::transport

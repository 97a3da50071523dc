// The lease's remote scripts and their output (see lease_scripts.h).
#include "lease_scripts.h"

#include <iterator>
#include <sstream>

#include "labgate/transport/remote_dir.h"
#include "labgate/transport/shell_quote.h"

namespace labgate::lease {

namespace {

// report DIR: print HELD with the holder file and heartbeat age, or NOTDIR.
constexpr const char* kReport = R"SH(
report() {
  if [ -h "$1" ] || [ ! -d "$1" ]; then echo NOTDIR; return 0; fi
  echo HELD
  cat "$1/holder" 2>/dev/null
  echo
  now=$(date +%s)
  beat=$(stat -c %Y "$1/heartbeat" 2>/dev/null)
  [ -n "$beat" ] && echo "heartbeat_age=$((now - beat))"
  made=$(stat -c %Y "$1" 2>/dev/null)
  [ -n "$made" ] && echo "dir_age=$((now - made))"
  return 0
}
)SH";

// The number after `key` at the start of a line of `text`, if any.
std::optional<long> number_after(const std::string& text, const std::string& key) {
  const std::string lines = "\n" + text;
  const auto at = lines.rfind("\n" + key);  // the last: the script prints it after the holder file
  if (at == std::string::npos) return std::nullopt;
  try {
    return std::stol(lines.substr(at + 1 + key.size()));
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace

std::vector<std::string> take_argv(const std::string& lease_dir, const std::vector<std::string>& resolve) {
  std::vector<std::string> args{lease_dir};
  args.insert(args.end(), resolve.begin(), resolve.end());
  // 0755: any user's gate may read who holds it; only we write inside.
  return transport::sh_argv(std::string(kReport) + transport::dir_safe_shell() + R"SH(
d=$1; shift
dir_safe "$@" || exit 0
n=0
while :; do
  if mkdir -m 0755 "$d" 2>/dev/null; then
    cat > "$d/holder" && touch "$d/heartbeat" && echo TAKEN && exit 0
    rm -rf "$d"; exit 1
  fi
  # The mkdir failed because another run holds it, or because that run released
  # it (rm -rf) between our mkdir and now: then try again. Only a path still
  # absent after three mkdirs is one that cannot be created.
  if [ -e "$d" ] || [ -h "$d" ]; then
    state=$(report "$d")
    if [ "$state" != NOTDIR ] || [ -e "$d" ] || [ -h "$d" ]; then printf '%s\n' "$state"; exit 0; fi
  fi
  n=$((n + 1))
  [ "$n" -lt 3 ] || { echo "cannot create $d" >&2; exit 1; }
done
)SH",
                            args);
}

std::vector<std::string> inspect_argv(const std::string& lease_dir) {
  return transport::sh_argv(std::string(kReport) + R"SH(
if [ -e "$1" ] || [ -h "$1" ]; then report "$1"; else echo FREE; fi
)SH",
                            {lease_dir});
}

std::vector<std::string> heartbeat_argv(const std::string& lease_dir, const std::string& run_id) {
  return transport::sh_argv(
      "if grep -qxF \"run_id=$2\" \"$1/holder\" 2>/dev/null && touch \"$1/heartbeat\"; then echo ours; "
      "else echo lost; fi",
      {lease_dir, run_id});
}

std::vector<std::string> release_argv(const std::string& lease_dir, const std::string& run_id) {
  return transport::sh_argv(
      "[ ! -h \"$1\" ] && [ -d \"$1\" ] || exit 0; "
      "if grep -qxF \"run_id=$2\" \"$1/holder\" 2>/dev/null; then rm -rf \"$1\"; fi",
      {lease_dir, run_id});
}

std::optional<RemoteLeaseState> parse_state(const std::string& out) {
  std::istringstream lines(out);
  std::string first;
  // Skip anything a login script printed before our first word.
  while (std::getline(lines, first)) {
    if (first == "TAKEN" || first == "FREE" || first == "HELD" || first == "NOTDIR") break;
  }
  RemoteLeaseState s;
  if (first == "TAKEN") {
    s.kind = RemoteLeaseState::Kind::kTaken;
  } else if (first == "FREE") {
    s.kind = RemoteLeaseState::Kind::kFree;
  } else if (first == "NOTDIR") {
    s.kind = RemoteLeaseState::Kind::kNotADirectory;
  } else if (first == "HELD") {
    s.kind = RemoteLeaseState::Kind::kHeld;
    std::string rest((std::istreambuf_iterator<char>(lines)), std::istreambuf_iterator<char>());
    s.holder = Holder::parse(rest);
    s.heartbeat_age = number_after(rest, "heartbeat_age=");
    s.dir_age = number_after(rest, "dir_age=");
  } else {
    return std::nullopt;
  }
  return s;
}

}  // namespace labgate::lease

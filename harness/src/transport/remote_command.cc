// Remote command wrapping: process-group announcement and group kill.
#include "remote_command.h"

#include <algorithm>
#include <charconv>

#include "labgate/transport/shell_quote.h"

namespace labgate::transport {

namespace {
// A control character no sane program starts a line with, plus a tag.
constexpr std::string_view kMarker = "\037labgate-pgid ";
// Past this much stderr without the marker something is wrong with the wrapper;
// stop holding output back.
constexpr std::size_t kGiveUpAfter = 64 * 1024;
}  // namespace

std::string wrap_remote_command(const std::vector<std::string>& argv,
                                const std::optional<std::string>& pgid_file) {
  std::string line = "printf '\\037labgate-pgid %s\\n' \"$$\" >&2; ";
  if (pgid_file) {
    // If the id cannot be recorded, do not start something we could not clean up.
    line += "echo \"$$\" >> " + shell_quote(*pgid_file) + " || exit 125; ";
  }
  line += "exec " + shell_join(argv);
  return line;
}

std::vector<std::string> kill_group_argv(long pgid, std::chrono::milliseconds grace) {
  const long tenths = std::max<long>(1, static_cast<long>(grace.count() / 100));
  // `kill -SIG -PGID` (no `--`, no `-s`) is what both bash 3.2 and dash accept.
  return sh_argv(
      "p=$1; kill -TERM -$p 2>/dev/null || kill -TERM $p 2>/dev/null || exit 0; n=0; "
      "while kill -0 -$p 2>/dev/null; do n=$((n+1)); "
      "if [ $n -gt $2 ]; then kill -KILL -$p 2>/dev/null; exit 0; fi; sleep 0.1; done; exit 0",
      {std::to_string(pgid), std::to_string(tenths)});
}

std::string PgidMarkerFilter::feed(std::string_view chunk) {
  if (done_) return std::string(chunk);
  pending_.append(chunk);
  std::string out;
  // Pass through every complete line before the marker; hold a partial line.
  for (;;) {
    const auto nl = pending_.find('\n');
    if (nl == std::string::npos) break;
    std::string_view line(pending_.data(), nl);
    if (line.substr(0, kMarker.size()) == kMarker) {
      long v = 0;
      auto digits = line.substr(kMarker.size());
      auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
      if (ec == std::errc() && p == digits.data() + digits.size() && v > 1) pgid_ = v;
      out += pending_.substr(nl + 1);
      pending_.clear();
      done_ = true;
      return out;
    }
    out += pending_.substr(0, nl + 1);
    pending_.erase(0, nl + 1);
  }
  if (pending_.size() > kGiveUpAfter) {
    out += pending_;
    pending_.clear();
    done_ = true;
  }
  return out;
}

std::string PgidMarkerFilter::finish() {
  done_ = true;
  std::string out;
  out.swap(pending_);
  return out;
}

}  // namespace labgate::transport

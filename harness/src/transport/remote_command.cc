// Remote command wrapping: an explicit /bin/sh, framed output, group kill.
#include "remote_command.h"

#include <algorithm>
#include <charconv>

#include "labgate/transport/shell_quote.h"

namespace labgate::transport {

namespace {
// Past this much output without the marker something is wrong with the wrapper;
// stop holding output back.
constexpr std::size_t kGiveUpAfter = 64 * 1024;
constexpr std::size_t kNoiseKept = 4096;
}  // namespace

std::string escape_for_printf_b(std::string_view script) {
  std::string out;
  out.reserve(script.size() + script.size() / 8);
  for (char c : script) {
    switch (c) {
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";  // csh and tcsh refuse a newline inside quotes ("Unmatched '")
        break;
      case '!':
        out += "\\0041";  // csh's history substitution acts even inside single quotes
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string encode_for_printf_b(std::string_view script) { return shell_quote(escape_for_printf_b(script)); }

namespace {
// Every shell the launcher and the wrapper start: the login shell sees one line
// of words quoted alike in sh, csh and ksh; only /bin/sh decodes and runs the
// script, in the login shell's own process.
std::string via_explicit_sh(const std::string& script) {
  return "exec /bin/sh -c 'eval \"$(printf %b \"$1\")\"' labgate-sh " + encode_for_printf_b(script);
}

}  // namespace

std::string remote_script(const std::vector<std::string>& argv, const std::optional<std::string>& pgid_file) {
  std::string script = "printf '\\037labgate-pgid %s\\n' \"$$\" >&2; ";
  if (pgid_file) {
    // If the id cannot be recorded, do not start something we could not clean up.
    script += "echo \"$$\" >> " + shell_quote(*pgid_file) + " || exit 125; ";
  }
  // Tools' output is parsed: numbers with a decimal point, English messages.
  script += "LC_ALL=C; LANG=C; export LC_ALL LANG; printf '\\037labgate-out\\n'; exec " + shell_join(argv);
  return script;
}

std::string wrap_remote_command(const std::vector<std::string>& argv,
                                const std::optional<std::string>& pgid_file) {
  return via_explicit_sh(remote_script(argv, pgid_file));
}

std::string launcher_remote_command() {
  // `read` takes one byte at a time from a pipe or socket, so whatever follows
  // the line on stdin is left for the program (its input, then EOF).
  return via_explicit_sh("IFS= read -r lg_l || exit 125; eval \"$(printf %b \"$lg_l\")\"");
}

std::string launcher_request(const std::vector<std::string>& argv, const std::optional<std::string>& pgid_file) {
  return escape_for_printf_b(remote_script(argv, pgid_file)) + "\n";
}

std::vector<std::string> kill_group_argv(long pgid, std::chrono::milliseconds grace) {
  // Looks every 20 ms: a probe server ends within a few ms of SIGTERM, and each
  // case stops one, so a coarser step is paid by every case of a run.
  const long steps = std::max<long>(1, static_cast<long>(grace.count() / 20));
  // `kill -SIG -PGID` (no `--`, no `-s`) is what both bash 3.2 and dash accept.
  return sh_argv(
      "p=$1; kill -TERM -$p 2>/dev/null || kill -TERM $p 2>/dev/null || exit 0; n=0; "
      "while kill -0 -$p 2>/dev/null; do n=$((n+1)); "
      "if [ $n -gt $2 ]; then kill -KILL -$p 2>/dev/null; exit 0; fi; sleep 0.02; done; exit 0",
      {std::to_string(pgid), std::to_string(steps)});
}

std::string MarkerFilter::feed(std::string_view chunk) {
  if (done_) return std::string(chunk);
  pending_.append(chunk);
  const auto at = pending_.find(marker_);
  const auto nl = at == std::string::npos ? std::string::npos : pending_.find('\n', at + marker_.size());
  if (nl != std::string::npos) {
    std::string before = pending_.substr(0, at);
    value_ = pending_.substr(at + marker_.size(), nl - at - marker_.size());
    std::string after = pending_.substr(nl + 1);
    pending_.clear();
    done_ = true;
    if (before_ == Before::kPassThrough) return before + after;
    noise_ = before.substr(0, kNoiseKept);
    return after;
  }
  if (pending_.size() > kGiveUpAfter) {
    done_ = true;
    std::string out;
    out.swap(pending_);
    return out;
  }
  return "";
}

std::string MarkerFilter::finish() {
  done_ = true;
  std::string out;
  out.swap(pending_);
  return out;
}

std::optional<long> PgidMarkerFilter::pgid() const {
  if (!f_.value()) return std::nullopt;
  const std::string& digits = *f_.value();
  long v = 0;
  auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (ec == std::errc() && p == digits.data() + digits.size() && v > 1) return v;
  return std::nullopt;
}

}  // namespace labgate::transport

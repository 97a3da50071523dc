// Counter snapshots around a program in one shell line (see counter_bracket.h).
#include "labgate/gate/counter_bracket.h"

#include <algorithm>
#include <charconv>

#include "labgate/counters/snapshot.h"
#include "labgate/transport/shell_quote.h"

namespace labgate::gate {
namespace {

// "$@" is the program. $s > 128 is a signal's death as sh reports it; raising
// it again on the shell itself keeps the transport's "killed by SIG..." true.
constexpr const char* kScriptTail =
    "\"$@\"; s=$?; printf '\\037labgate-counters-after\\n'; %CAT% 2>&1; "
    "printf '\\037labgate-counters-end %d\\n' $?; "
    "if [ $s -gt 128 ] && [ $s -lt 160 ]; then kill -$((s-128)) $$; fi; exit $s";

// Sets $lc from $lc: "all" is every CPU /proc/stat lists (the watch takes 16).
constexpr const char* kWatchCpus =
    "if [ \"$lc\" = all ]; then "
    "lc=$(sed -n 's/^cpu\\([0-9][0-9]*\\) .*/\\1/p' /proc/stat | head -16 | tr '\\n' ,); "
    "lc=${lc%,}; fi; ";
// The watch's three words come first ($1 binary, $2 CPUs or "all", $3 duration).
// Its output waits in a file beside it ($$: one per shell) so it never mixes
// with the program's.
constexpr const char* kWatchStart =
    "lw=$1; lc=$2; ld=$3; shift 3; %CPUS%"
    "lf=$lw.$$.out; \"$lw\" --cpus \"$lc\" --away --duration \"$ld\" >\"$lf\" 2>&1 </dev/null & lp=$!; ";

/// `text` with %CPUS% replaced by kWatchCpus.
std::string with_cpus(std::string text) {
  const std::string tag = "%CPUS%";
  text.replace(text.find(tag), tag.size(), kWatchCpus);
  return text;
}
constexpr const char* kWatchEnd =
    "kill -TERM $lp 2>/dev/null; wait $lp; printf '\\037labgate-watch %d\\n' $?; cat \"$lf\" 2>&1; rm -f \"$lf\"; ";

std::string script(bool watched) {
  std::string cat;
  for (const auto& w : counters::snapshot_command()) cat += (cat.empty() ? "" : " ") + w;
  std::string tail = kScriptTail;
  if (watched) tail.insert(tail.find("printf"), kWatchEnd);
  std::string s = cat + " 2>&1; printf '\\037labgate-counters-before %d\\n' $?; " +
                  (watched ? with_cpus(kWatchStart) : std::string()) + tail;
  const std::string tag = "%CAT%";
  s.replace(s.find(tag), tag.size(), cat);
  return s;
}

/// Reads "<status>\n" after a marker at `at`; the position past the newline, or npos.
std::size_t read_status(std::string_view out, std::size_t at, int& status) {
  const std::size_t nl = out.find('\n', at);
  if (nl == std::string_view::npos) return nl;
  int v = -1;
  auto [p, ec] = std::from_chars(out.data() + at, out.data() + nl, v);
  status = ec == std::errc() && p == out.data() + nl ? v : -1;
  return nl + 1;
}

}  // namespace

std::vector<std::string> bracketed_argv(const std::vector<std::string>& argv,
                                        const std::optional<NoiseWatch>& watch) {
  if (!watch) return transport::sh_argv(script(false), argv);
  std::vector<std::string> args{watch->binary, watch->cpus.empty() ? "all" : watch->cpus, watch->duration};
  args.insert(args.end(), argv.begin(), argv.end());
  return transport::sh_argv(script(true), args);
}

std::vector<std::string> watch_argv(const NoiseWatch& watch) {
  // exec: the watch is the process the transport stops (SIGTERM), so it prints its document.
  return transport::sh_argv(
      with_cpus("lc=$2; %CPUS%exec \"$1\" --cpus \"$lc\" --away --duration \"$3\" --interval \"$4\""),
      {watch.binary, watch.cpus.empty() ? "all" : watch.cpus, watch.duration, watch.interval});
}

std::optional<std::vector<std::string>> bracketed_program(const std::vector<std::string>& argv) {
  for (const bool watched : {false, true}) {
    const auto head = transport::sh_argv(script(watched));
    const std::size_t skip = head.size() + (watched ? 3 : 0);
    if (argv.size() >= skip && std::equal(head.begin(), head.end(), argv.begin()))
      return std::vector<std::string>(argv.begin() + static_cast<long>(skip), argv.end());
  }
  return std::nullopt;
}

std::optional<std::string> BracketSnapshot::snapshot(std::string& why) const {
  if (!seen) {
    why = "the command ended before it read them";
    return std::nullopt;
  }
  if (status != 0) {
    why = "cat /proc/net/{snmp,netstat,dev} exited " + std::to_string(status) + ": " + text.substr(0, 200);
    return std::nullopt;
  }
  return text;
}

Bracketed split_bracketed(std::string_view out) {
  Bracketed b;
  const std::size_t before = out.find(kBeforeMarker);
  if (before == std::string_view::npos) {
    b.body = std::string(out);
    return b;
  }
  b.before.text = std::string(out.substr(0, before));
  const std::size_t body = read_status(out, before + kBeforeMarker.size(), b.before.status);
  if (body == std::string_view::npos) return b;
  b.before.seen = true;
  const std::size_t after = out.find(kAfterMarker, body);
  const std::size_t watch = out.substr(0, after).find(kWatchMarker, body);
  const std::size_t body_end = std::min(after, watch);
  b.body = std::string(
      out.substr(body, body_end == std::string_view::npos ? std::string_view::npos : body_end - body));
  if (watch != std::string_view::npos) {
    const std::size_t text = read_status(out, watch + kWatchMarker.size(), b.watch_status);
    if (text != std::string_view::npos)
      b.watch = std::string(
          out.substr(text, after == std::string_view::npos ? std::string_view::npos : after - text));
  }
  if (after == std::string_view::npos) return b;
  const std::size_t text = after + kAfterMarker.size();
  const std::size_t end = out.find(kEndMarker, text);
  if (end == std::string_view::npos) return b;
  b.after.text = std::string(out.substr(text, end - text));
  b.after.seen = read_status(out, end + kEndMarker.size(), b.after.status) != std::string_view::npos;
  return b;
}

}  // namespace labgate::gate

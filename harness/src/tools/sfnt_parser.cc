// sfnt-pingpong (sfnettest) output -> Measurement. Its rows are per message size:
// size, mean, min, median, max, %ile, stddev (integer ns) and iter. Without
// --rtt it halves every sample before its statistics ("# reporting: 1/2 RTT":
// do_pings() does `results[i] /= 2`, integer division), so those figures are
// doubled back to round trips and the Measurement says so; with --rtt they are
// round trips as measured. Its header must say which, or the output is refused.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "labgate/tools/parsers.h"

#include "sfnt_parts.h"
#include "text_scan.h"

namespace labgate::tools {

namespace {

using profile::TestKind;

/// The value of --name in the client's own command line ("--minms 2000" or
/// "--minms=2000", as sfnt_cmd_line.c takes both); nullopt when not given.
std::optional<std::string> option(const std::vector<std::string_view>& words, std::string_view name) {
  const std::string flag = "--" + std::string(name);
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (words[i] == flag && i + 1 < words.size()) return std::string(words[i + 1]);
    if (words[i].starts_with(flag + "=")) return std::string(words[i].substr(flag.size() + 1));
  }
  return std::nullopt;
}

bool has_flag(const std::vector<std::string_view>& words, std::string_view name) {
  const std::string flag = "--" + std::string(name);
  for (auto w : words)
    if (w == flag) return true;
  return false;
}

/// The first of tcp|udp|pipe|unix_stream|unix_datagram among the words (its mode).
std::optional<std::string> mode_of(const std::vector<std::string_view>& words) {
  for (auto w : words)
    if (w == "tcp" || w == "udp" || w == "pipe" || w == "unix_stream" || w == "unix_datagram")
      return std::string(w);
  return std::nullopt;
}

constexpr const char* kColumns[] = {"size", "mean", "min", "median", "max", "%ile", "stddev", "iter"};

}  // namespace

std::vector<sfnt::Row> sfnt::read(const ToolText& t, Header& h) {
  std::vector<Row> rows;
  int header_line = 0;
  for (std::size_t i = 0; i < t.lines.size(); ++i) {
    const int ln = static_cast<int>(i + 1);
    const std::string_view line = scan::trim(t.lines[i]);
    if (line.empty()) continue;
    if (line.starts_with("ERROR")) {
      // NT_TRY's three lines (where, what failed, errno) and "Test failed.": all quoted.
      std::string said;
      bool refused = false;
      for (std::size_t j = i; j < t.lines.size() && scan::trim(t.lines[j]).starts_with("ERROR"); ++j) {
        said += (said.empty() ? "" : "; ") + std::string(scan::trim(t.lines[j]).substr(0, 160));
        refused = refused || scan::contains_nocase(t.lines[j], "connection refused");
      }
      t.fail(ln, "sfnt-pingpong reported a failure: " + said,
             refused ? ParseFailure::kServerUnreachable : ParseFailure::kToolFailed);
    }
    if (line.starts_with("usage:"))
      t.fail(ln, "sfnt-pingpong printed its usage text instead of running (wrong command line?)",
             ParseFailure::kToolFailed);
    if (line.starts_with("# cmdline:")) {
      h.cmdline = std::string(scan::trim(line.substr(10)));
      h.cmdline_line = ln;
      continue;
    }
    if (line.starts_with("# version:")) {
      h.version = std::string(scan::trim(line.substr(10)));
      continue;
    }
    if (line.starts_with("# src:")) {
      h.src = std::string(scan::trim(line.substr(6)));
      continue;
    }
    if (line.starts_with("# reporting:")) {
      const std::string_view what = scan::trim(line.substr(12));
      if (what != "RTT" && what != "1/2 RTT")
        t.fail(ln, "sfnt-pingpong reports neither RTT nor 1/2 RTT: " + t.quote(ln));
      h.half = what == "1/2 RTT";
      continue;
    }
    if (line.starts_with("# percentile=")) {
      h.percentile = std::string(scan::trim(line.substr(13)));
      const auto p = scan::number(h.percentile);
      if (!p || *p <= 0 || *p >= 100)
        t.fail(ln, "sfnt-pingpong: cannot read the percentile in " + t.quote(ln));
      continue;
    }
    if (line.starts_with("# WARNING")) {
      h.warnings.push_back("sfnt-pingpong: " + std::string(scan::trim(line.substr(2))));
      continue;
    }
    if (line.starts_with("# LD_PRELOAD=") || line.starts_with("# server LD_PRELOAD=")) {
      h.preload.push_back(std::string(line.substr(2)));
      continue;
    }
    if (line.starts_with("#")) {
      const auto w = scan::words(line.substr(1));
      if (!w.empty() && w.front() == "size") {
        if (w.size() != std::size(kColumns))
          t.fail(ln, "sfnt-pingpong: its table has columns labgate has not read: " + t.quote(ln));
        for (std::size_t c = 0; c < w.size(); ++c)
          if (w[c] != kColumns[c])
            t.fail(ln, "sfnt-pingpong: column " + std::to_string(c + 1) + " is '" + std::string(w[c]) +
                           "', labgate reads '" + kColumns[c] + "': " + t.quote(ln));
        header_line = ln;
      }
      continue;  // date, uname, cpu, ram, tsc_hz, NIC lines: facts, not figures
    }
    // Its stderr, which the driver reads after stdout: a shell's complaint from its
    // sys-info commands ("sh: 1: lspci: not found") and its own progress lines
    // ("sfnt-pingpong: client: waiting for server to start"); failures are ERROR lines.
    if (!header_line || line.starts_with("sh: ") || line.starts_with("sfnt-pingpong: ")) continue;
    const auto w = scan::words(line);
    Row r;
    r.line = ln;
    std::uint64_t* cells[] = {&r.size, &r.mean, &r.min, &r.median, &r.max, &r.pct, &r.stddev, &r.iter};
    if (w.size() != std::size(cells)) t.fail(ln, "sfnt-pingpong: not a row of its table: " + t.quote(ln));
    for (std::size_t c = 0; c < w.size(); ++c) {
      const auto v = scan::count(w[c]);
      if (!v)
        t.fail(ln, "sfnt-pingpong: " + std::string(kColumns[c]) + " is not a whole number in " + t.quote(ln));
      *cells[c] = *v;
    }
    // Its own statistics of one sorted array: anything else is not its output.
    if (r.iter == 0 || r.min > r.median || r.median > r.max || r.min > r.mean || r.mean > r.max ||
        r.min > r.pct || r.pct > r.max)
      t.fail(ln, "sfnt-pingpong: min <= median, mean, %ile <= max does not hold in " + t.quote(ln));
    rows.push_back(r);
  }
  if (!header_line) {
    if (h.cmdline_line)
      t.fail(static_cast<int>(t.lines.size()), "sfnt-pingpong output ends before its table (failed run?)");
    t.fail(1, "not sfnt-pingpong output: no '#\tsize\tmean\t...' table header");
  }
  if (!h.half) t.fail(header_line, "sfnt-pingpong output does not say RTT or 1/2 RTT ('# reporting:' line)");
  if (h.percentile.empty())
    t.fail(header_line, "sfnt-pingpong output does not say its percentile ('# percentile=')");
  if (rows.empty())
    t.fail(static_cast<int>(t.lines.size()),
           "sfnt-pingpong output has its header but no result row (truncated?)");
  return rows;
}

measure::Measurement parse_sfnt_pingpong(const ToolText& t, const ParseOptions& options) {
  if (t.lines.empty()) t.fail(0, "empty: no sfnt-pingpong output");
  sfnt::Header h;
  const std::vector<sfnt::Row> rows = sfnt::read(t, h);
  if (rows.size() != 1) {
    std::string sizes;
    for (const auto& r : rows) sizes += (sizes.empty() ? "" : ", ") + std::to_string(r.size);
    t.fail(rows[1].line, "sfnt-pingpong output holds " + std::to_string(rows.size()) + " message sizes (" +
                             sizes + "); labgate judges one size per test: run it with --sizes N");
  }
  const sfnt::Row& r = rows.front();
  const auto words = scan::words(h.cmdline);
  measure::Measurement m;
  m.source = "sfnt-pingpong";
  m.metric = measure::Metric::kRoundTrip;
  const auto mode = mode_of(words);
  if (mode && *mode != "tcp" && *mode != "udp")
    t.fail(h.cmdline_line, "sfnt-pingpong " + *mode +
                               " measures a local IPC path, not the network: " + t.quote(h.cmdline_line));
  std::optional<TestKind> kind;
  if (mode) kind = *mode == "tcp" ? TestKind::kTcpRr : TestKind::kUdpRr;
  // --mcast GROUP or --mcastintf (its default group): its multicast ping-pong.
  if (mode && *mode == "udp" && std::any_of(words.begin(), words.end(), [](std::string_view w) {
        return w.starts_with("--mcast") && !w.starts_with("--mcastloop");
      }))
    kind = TestKind::kUdpMulticast;
  if (!kind && !options.kind)
    t.fail(1, "sfnt-pingpong output does not say tcp or udp (no '# cmdline:' line); give the kind");
  if (kind && options.kind && *kind != *options.kind)
    t.fail(h.cmdline_line, std::string("this is a ") + profile::to_string(*kind) + " run, not the " +
                               profile::to_string(*options.kind) + " that was asked for");
  m.kind = profile::to_string(kind ? *kind : *options.kind);

  const double f = *h.half ? 2.0 : 1.0;
  m.reported["mean"] = static_cast<double>(r.mean) * f;
  m.reported["min"] = static_cast<double>(r.min) * f;
  m.reported["p50"] = static_cast<double>(r.median) * f;
  m.reported["max"] = static_cast<double>(r.max) * f;
  m.reported["stddev"] = static_cast<double>(r.stddev) * f;
  m.reported[scan::percentile_name(h.percentile)] = static_cast<double>(r.pct) * f;
  m.parameters["tool"] = "sfnt-pingpong";
  m.parameters["message_size"] = std::to_string(r.size);
  m.parameters["sfnt.iterations"] = std::to_string(r.iter);
  m.parameters["sfnt.version"] = h.version.empty() ? "not printed" : h.version;
  if (!h.src.empty()) m.parameters["sfnt.src"] = h.src;
  if (!h.cmdline.empty()) m.parameters["sfnt.cmdline"] = h.cmdline;
  for (const auto& p : h.preload)
    m.parameters[p.starts_with("server") ? "sfnt.server_preload" : "sfnt.preload"] = p;
  m.parameters["latency"] = "round-trip time";
  m.parameters["latency_normalised"] = *h.half ? "doubled: sfnt-pingpong reported 1/2 RTT (each sample "
                                                 "halved in integer ns before its statistics, "
                                                 "so a doubled figure is at most 1 ns under the round trip)"
                                               : "as printed: sfnt-pingpong ran with --rtt";
  m.parameters["sfnt.median"] = "its sorted samples' element n/2 (the upper median)";
  m.parameters["sfnt.percentile"] = "its sorted samples' element floor(n*p/100)";
  m.warnings = h.warnings;
  // Its run: warm-up (--warmupms, excluded), then batches of --miniter pings until
  // --maxms has passed or --maxiter samples are held; it prints no run time.
  const auto maxms = option(words, "maxms"), maxiter = option(words, "maxiter"),
             warmupms = option(words, "warmupms");
  const std::optional<std::uint64_t> limit_ms = maxms ? scan::count(*maxms) : sfnt::kDefaultMaxMs;
  const std::optional<std::uint64_t> limit_iter = maxiter ? scan::count(*maxiter) : sfnt::kDefaultMaxIter;
  const std::optional<std::uint64_t> warm_ms = warmupms ? scan::count(*warmupms) : sfnt::kDefaultWarmupMs;
  if (warm_ms) m.warmup_s = static_cast<double>(*warm_ms) / 1000.0;
  m.parameters["warmup"] = "sfnt-pingpong's own: --warmupms of 1-byte pings before the sizes, left out";
  if (has_flag(words, "rtt") == *h.half)
    m.warnings.push_back(
        "sfnt-pingpong's command line and its '# reporting:' line disagree; the line was believed");
  if (!limit_ms || !limit_iter) {
    m.warnings.push_back("sfnt-pingpong's --maxms or --maxiter cannot be read: its run time is not known");
  } else if (r.iter >= *limit_iter) {
    m.warnings.push_back("sfnt-pingpong stopped at --maxiter " + std::to_string(*limit_iter) +
                         " samples, before its --maxms of " + std::to_string(*limit_ms) +
                         " ms: it measured for less than that, for a time it does not print");
  } else {
    // It ran until --maxms had passed (checked after each batch of --miniter).
    m.duration_s = static_cast<double>(*limit_ms) / 1000.0;
    m.expectation = sfnt::expect_samples(r.iter, m.duration_s, m.reported["mean"]);
  }
  return m;
}

}  // namespace labgate::tools

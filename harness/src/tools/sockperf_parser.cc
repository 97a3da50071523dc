// sockperf ping-pong (pp) and under-load (ul) output, 2.5 to 3.10 -> Measurement.
// sockperf calls half the round trip "latency" unless run with --full-rtt;
// labgate keeps round trips only, so half-RTT values are doubled and the
// Measurement says so. Throughput (tp) runs and unknown versions are refused.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <map>

#include "labgate/tools/parsers.h"

#include "labgate/util/not_measured.h"
#include "sockperf_parts.h"
#include "text_scan.h"

namespace labgate::tools {

namespace {

using profile::TestKind;

/// "[2;35m" left behind when a terminal copy lost the ESC byte.
std::string strip_orphan_sgr(std::string s) {
  std::size_t p = 0;
  while ((p = s.find('[', p)) != std::string::npos) {
    std::size_t q = p + 1;
    while (q < s.size() && (std::isdigit(static_cast<unsigned char>(s[q])) || s[q] == ';')) ++q;
    if (q < s.size() && s[q] == 'm' && q > p + 1) {
      s.erase(p, q - p + 1);
    } else {
      ++p;
    }
  }
  return s;
}

/// "Key=value" inside "... Key=value; Key2=value2" (spaces around '=' allowed).
std::optional<double> field(std::string_view line, std::string_view key) {
  std::size_t at = line.find(key);
  if (at == std::string_view::npos) return std::nullopt;
  std::string_view rest = scan::trim(line.substr(at + key.size()));
  if (rest.empty() || rest.front() != '=') return std::nullopt;
  rest = scan::trim(rest.substr(1));
  // 3.8+ separates its figures with ", " inside the parentheses.
  std::size_t end = rest.find_first_of(" ;(),");
  return scan::number(rest.substr(0, end));
}

/// The raw token after "Key=" (for the "not measured" test), "" when absent.
std::string raw_field(std::string_view line, std::string_view key) {
  std::size_t at = line.find(key);
  if (at == std::string_view::npos) return "";
  std::string_view rest = scan::trim(line.substr(at + key.size()));
  if (rest.empty() || rest.front() != '=') return "";
  rest = scan::trim(rest.substr(1));
  return std::string(rest.substr(0, rest.find_first_of(" ;(),")));
}

/// Warns for each of `keys` whose value is a "not measured" marker; true if any was.
bool warn_markers(std::string_view line, int ln, std::initializer_list<const char*> keys, measure::Measurement& m) {
  bool any = false;
  for (const char* k : keys)
    if (const std::string raw = raw_field(line, k); util::is_not_measured(raw)) {
      m.warnings.push_back(util::not_measured_warning("line " + std::to_string(ln), "sockperf", k, raw));
      any = true;
    }
  return any;
}

struct Summary {
  std::optional<sockperf::Version> version;
  std::optional<TestKind> kind;
  bool full_rtt = false;
  bool avg_seen = false;
  int avg_line = 0;
  int servers = 0;
  bool observations_seen = false;
  std::uint64_t observations = 0;
  bool counted = false;        ///< [Valid Duration] counts were read
  int counted_line = 0;
  bool drops_counted = false;  ///< the dropped/duplicated/out-of-order line was read
  std::optional<double> total_run_s;  ///< [Total Run] RunTime: warm-up + valid duration + cool-down
};

}  // namespace

measure::Measurement parse_sockperf(const ToolText& t, const ParseOptions& options) {
  if (t.lines.empty()) t.fail(0, "empty: no sockperf output");
  measure::Measurement m;
  m.source = "sockperf";
  m.metric = measure::Metric::kRoundTrip;
  Summary s;
  std::map<std::string, double> values_us;  // as printed, before normalising
  bool after_percentiles = false;
  bool in_histogram = false;

  for (std::size_t i = 0; i < t.lines.size(); ++i) {
    const int ln = static_cast<int>(i + 1);
    std::string clean = strip_orphan_sgr(t.lines[i]);
    std::string_view line = scan::trim(clean);
    if (line.starts_with("sockperf:")) line = scan::trim(line.substr(9));
    if (line.empty()) continue;

    if (line.starts_with("ERROR") ||
        line.find("No messages were received from the server") != std::string_view::npos) {
      const bool unreachable = scan::contains_nocase(line, "connection refused") ||
                               line.find("No messages were received") != std::string_view::npos;
      t.fail(ln, "sockperf reported a failure: " + t.quote(ln),
             unreachable ? ParseFailure::kServerUnreachable : ParseFailure::kToolFailed);
    }
    if (line.starts_with("Usage: sockperf"))
      t.fail(ln, "sockperf printed its usage text instead of running (wrong command line?)",
             ParseFailure::kToolFailed);
    if (auto v = line.find("version #"); v != std::string_view::npos && line.starts_with("==")) {
      const auto version = scan::words(line.substr(v + 9));
      if (version.empty())
        t.fail(ln, "the version line names no version: " + t.quote(ln));  // found by fuzzing
      s.version = sockperf::parse_version(version.front());
      if (!s.version || !sockperf::known(*s.version))
        t.fail(ln,
               "sockperf " + std::string(version.front()) + " is a version labgate has not read (it reads " +
                   sockperf::kKnownVersions + "): its summary lines may differ; " + t.quote(ln),
               ParseFailure::kToolFailed);
      m.parameters["sockperf.version"] = std::string(version.front());
      continue;
    }
    if (line.starts_with("[") && line.find("# ") != std::string_view::npos &&
        line.find("PORT") != std::string_view::npos) {
      const bool tcp = line.ends_with("# TCP");
      if (!tcp && !line.ends_with("# UDP")) t.fail(ln, "sockperf: unknown protocol in " + t.quote(ln));
      s.kind = tcp ? TestKind::kTcpRr : TestKind::kUdpRr;
      // "[ 0] IP = 239.1.2.3   PORT = 5123 # UDP": a group is its multicast ping-pong.
      const auto w = scan::words(line);
      const auto ip = std::find(w.begin(), w.end(), "IP");
      if (!tcp && ip != w.end() && w.end() - ip > 2 && scan::ipv4_multicast(ip[2])) {
        s.kind = TestKind::kUdpMulticast;
        m.parameters["sockperf.group"] = std::string(ip[2]);
      }
      continue;
    }
    if (line.starts_with("Printing statistics for Server No:") ||
        line.starts_with("========= Printing statistics")) {
      if (++s.servers > 1)
        t.fail(ln, "sockperf statistics for more than one server; labgate measures one pair per run");
      continue;
    }
    if (line.starts_with("[Total Run]")) {
      if (auto w = field(line, "Warm up time")) {
        m.warmup_s = *w / 1000.0;
        s.total_run_s = field(line, "RunTime");  // 3.x: where the parts of the run are known
      }
      continue;
    }
    if (line.starts_with("[Valid Duration]")) {
      if (warn_markers(line, ln, {"RunTime", "SentMessages", "ReceivedMessages"}, m)) continue;
      auto run = field(line, "RunTime"), sent = field(line, "SentMessages"),
           recv = field(line, "ReceivedMessages");
      if (!run || !sent || !recv)
        t.fail(ln, "sockperf: cannot read RunTime, SentMessages and ReceivedMessages in " + t.quote(ln));
      // A count is a whole number a uint64 can hold; anything else is not sockperf's.
      for (double c : {*sent, *recv})
        if (!(c >= 0 && c <= 1.8e19) || c != std::floor(c))
          t.fail(ln, "sockperf: message counts must be whole numbers in range in " + t.quote(ln));
      m.duration_s = *run;
      m.sent = static_cast<std::uint64_t>(*sent);
      m.received = static_cast<std::uint64_t>(*recv);
      s.counted = true;
      s.counted_line = ln;
      continue;
    }
    if (line.starts_with("====> avg-")) {
      const std::string_view what = line.substr(10, line.find('=', 10) - 10);
      if (what != "lat" && what != "latency" && what != "rtt")
        t.fail(ln, "sockperf: unknown average " + t.quote(ln));
      s.full_rtt = what == "rtt";
      s.avg_seen = true;
      s.avg_line = ln;
      const std::pair<std::string, const char*> figures[] = {{"avg-" + std::string(what), "mean"},
                                                             {"std-dev", "stddev"}};
      for (const auto& [key, name] : figures) {
        const std::string raw = raw_field(line, key);
        if (util::is_not_measured(raw)) {
          m.warnings.push_back(util::not_measured_warning("line " + std::to_string(ln), "sockperf", key, raw));
          continue;
        }
        auto v = field(line, key);
        if (!v || *v < 0) t.fail(ln, "sockperf: cannot read the average and std-dev in " + t.quote(ln));
        values_us[name] = *v;
      }
      // 3.8+: mean-ad, median-ad, siqr, cv, std-error and a confidence interval
      // after the std-dev, in the unit of the average; kept as printed.
      if (const auto comma = line.find(", mean-ad="); comma != std::string_view::npos)
        m.parameters["sockperf.dispersion"] =
            std::string(scan::trim(line.substr(comma + 2, line.rfind(')') - comma - 2))) +
            (what == "rtt" ? " (round trips, us)" : " (half round trips, us, as printed)");
      continue;
    }
    if (line.starts_with("[Histogram]")) {
      // 3.8+ --histogram: a bar chart of '#' marks scaled to the terminal; the
      // percentile block above carries the figures, so the chart is not read.
      in_histogram = true;
      m.parameters["sockperf.histogram"] =
          "printed (--histogram), not read: its bars are '#' marks scaled to the terminal, not counts";
      continue;
    }
    if (in_histogram) continue;
    if (line.starts_with("# dropped messages")) {
      if (warn_markers(line, ln, {"# dropped messages", "# duplicated messages", "# out-of-order messages"}, m))
        continue;  // the counts are not measured: drops are then not counted
      auto d = field(line, "# dropped messages"), dup = field(line, "# duplicated messages"),
           ooo = field(line, "# out-of-order messages");
      if (!d || !dup || !ooo)
        t.fail(ln, "sockperf: cannot read dropped/duplicated/out-of-order in " + t.quote(ln));
      for (double c : {*d, *dup, *ooo})
        if (!(c >= 0 && c <= 1.8e19) || c != std::floor(c))
          t.fail(ln, "sockperf: message counts must be whole numbers in range in " + t.quote(ln));
      m.dropped = static_cast<std::uint64_t>(*d);
      m.duplicated = static_cast<std::uint64_t>(*dup);
      m.out_of_order = static_cast<std::uint64_t>(*ooo);
      s.drops_counted = true;
      continue;
    }
    if ((line.starts_with("Summary:") && (line.find("Message Rate") != std::string_view::npos ||
                                          line.find("BandWidth") != std::string_view::npos)) ||
        (line.starts_with("Total of ") && line.find(" messages sent in ") != std::string_view::npos))
      t.fail(ln,
             "sockperf throughput (tp) output: it measures one-way message rate, not round trips; labgate "
             "reads ping-pong (pp) and under-load (ul) runs: " +
                 t.quote(ln),
             ParseFailure::kToolFailed);
    if (line.starts_with("Total ") && line.find("observations") != std::string_view::npos) {
      auto n = scan::count(scan::words(line)[1]);
      if (!n) t.fail(ln, "sockperf: cannot read the observation count in " + t.quote(ln));
      m.parameters["sockperf.observations"] = std::to_string(*n);
      s.observations_seen = true;
      s.observations = *n;
      continue;
    }
    if (line.starts_with("--->")) {
      std::string_view body = scan::trim(line.substr(4));
      const std::size_t eq = body.rfind('=');
      if (eq != std::string_view::npos && util::is_not_measured(body.substr(eq + 1))) {
        m.warnings.push_back(util::not_measured_warning("line " + std::to_string(ln), "sockperf",
                                                        scan::trim(body.substr(0, eq)), body.substr(eq + 1)));
        continue;
      }
      auto v = eq == std::string_view::npos ? std::nullopt : scan::number(body.substr(eq + 1));
      if (!v) t.fail(ln, "sockperf: cannot read the value in " + t.quote(ln));
      const std::string_view label = scan::trim(body.substr(0, eq));
      if (label.starts_with("percentile")) {
        values_us[scan::percentile_name(label.substr(10))] = *v;
        after_percentiles = true;
      } else if (label.find("<MAX>") != std::string_view::npos) {
        values_us["max"] = *v;
      } else if (label.find("<MIN>") != std::string_view::npos) {
        values_us["min"] = *v;
      } else if (label == "observation") {
        // Copies that lost the angle brackets: the first plain observation is the max, the last the min.
        values_us[after_percentiles ? "min" : "max"] = *v;
      } else {
        t.fail(ln, "sockperf: unknown result line " + t.quote(ln));
      }
      continue;
    }
  }

  if (!s.avg_seen) {
    if (s.servers || s.kind)
      t.fail(static_cast<int>(t.lines.size()),
             "sockperf output has no '====> avg-' summary (truncated or failed run?)");
    t.fail(1, "not sockperf ping-pong output: no '====> avg-lat'/'avg-latency'/'avg-rtt' summary");
  }
  if (!s.observations_seen && !values_us.count("max"))
    t.fail(static_cast<int>(t.lines.size()), "sockperf output ends before its percentile block (truncated?)");
  if (!s.kind && !options.kind)
    t.fail(1, "sockperf output does not say UDP or TCP (no '[ 0] IP = ... # UDP' line); give the kind");
  if (s.kind && options.kind && *s.kind != *options.kind)
    t.fail(1, std::string("this is a ") + profile::to_string(*s.kind) + " run, not the " +
                  profile::to_string(*options.kind) + " that was asked for");
  const TestKind kind = s.kind ? *s.kind : *options.kind;
  m.kind = profile::to_string(kind);

  // sockperf 2.x has no --full-rtt: its "latency" is always half the round trip.
  const bool half = !s.full_rtt || (s.version && s.version->major == 2);
  const double factor = half ? 2.0 : 1.0;
  for (const auto& [name, us] : values_us) m.reported[name] = scan::us_to_ns(us * factor);
  m.parameters["tool"] = "sockperf";
  m.parameters["latency"] = "round-trip time";
  m.parameters["latency_normalised"] =
      half ? "doubled: sockperf reported half the round trip as 'latency' (run without --full-rtt)"
           : "as printed: sockperf ran with --full-rtt";
  m.parameters["warmup"] =
      "sockperf's own: the first part of its run (Warm up time), left out of its valid duration";
  if (!s.version) m.parameters["sockperf.version"] = "not printed";
  // A 3.x run is warm-up + valid duration + a cool-down it leaves out at the end
  // (50 ms); the cool-down is what its own figures leave over. 2.x prints no
  // warm-up, so where its excluded part lies is not said: nothing is named.
  if (s.total_run_s && s.counted && *s.total_run_s > m.warmup_s + m.duration_s)
    m.cooldown_s = *s.total_run_s - m.warmup_s - m.duration_s;
  // Several hosts in the group answer each ping; only the first answer is timed.
  if (kind == TestKind::kUdpMulticast && s.drops_counted && m.duplicated > 0)
    m.warnings.push_back(std::to_string(m.duplicated) +
                         " duplicated answers: more than one host in the group answered the pings (sockperf "
                         "measures one subscriber, issue #220); its round trips are each ping's first answer, "
                         "not any one subscriber's");
  // sockperf counts drops by sequence number, for UDP and TCP alike.
  m.counts_drops = s.drops_counted && s.counted;
  if (!s.counted) return m;
  sockperf::Counts counts{m.sent, m.received, m.dropped, m.duplicated, m.out_of_order, m.counts_drops};
  if (options.reply_every)
    if (const std::string why = sockperf::reply_every_mismatch(counts, *options.reply_every); !why.empty())
      t.fail(s.counted_line, "sockperf: " + why);
  const sockperf::Mode mode = sockperf::tell_mode(counts, options.reply_every);
  if (mode.under_load) {
    m.parameters["sockperf.mode"] = "under-load (ul)";
    m.parameters["sockperf.reply_every"] = std::to_string(mode.reply_every) + " (told from " + mode.why + ")";
    m.warnings.push_back("sockperf under-load (ul) run: 1 in " + std::to_string(mode.reply_every) +
                         " messages was answered, at the rate it was paced at (open loop); its latencies are "
                         "that sample's round trips, not a closed ping-pong loop's");
    // Told from the counts, late replies counted as drops make the rate read low
    // (19 for 20) and the run a few percent short: the command line knows it.
    if (!options.reply_every)
      m.warnings.push_back(
          "its reply rate was told from its counts (sockperf does not print --reply-every); "
          "if the run is held short, import it again with --reply-every N from its command "
          "line");
  } else {
    m.parameters["sockperf.mode"] = "ping-pong (pp)";
  }
  if (s.observations_seen) {
    const auto mean = m.reported.find("mean");
    m.expectation = sockperf::expect_samples(
        mode, counts, s.observations, m.duration_s,
        mean == m.reported.end() ? std::nullopt : std::optional<double>(mean->second),
        options.rate_per_s.has_value());
  }
  return m;
}

}  // namespace labgate::tools

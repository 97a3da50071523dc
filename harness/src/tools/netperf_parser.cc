// netperf output -> Measurement: the banner (which test), -k KEY=VALUE results,
// the -v 2 histogram and the classic tables, with netperf's quirks made explicit
// (-2147483648 is "not measured", never a number).
#include <map>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "labgate/tools/parsers.h"
#include "labgate/util/not_measured.h"
#include "netperf_parts.h"
#include "text_scan.h"

namespace labgate::tools {

namespace {

using profile::TestKind;

struct KeyValue {
  std::string value;
  int line = 0;
};

struct Banner {
  TestKind kind;
  int line = 0;
  std::string text;
};

/// "MIGRATED TCP REQUEST/RESPONSE TEST from ..." -> the test; nullopt if not a banner.
std::optional<std::pair<std::string, std::string>> banner_words(std::string_view line) {
  auto w = scan::words(line);
  std::size_t k = (!w.empty() && w[0] == "MIGRATED") ? 1 : 0;
  if (w.size() < k + 4 || w[k + 2] != "TEST" || w[k + 3] != "from") return std::nullopt;
  return std::make_pair(std::string(w[k]), std::string(w[k + 1]));
}

std::optional<TestKind> kind_of_test(const std::string& proto, const std::string& type) {
  if (proto == "TCP" && type == "STREAM") return TestKind::kTcpStream;
  if (proto == "UDP" && type == "STREAM") return TestKind::kUdpStream;
  if (proto == "TCP" && type == "REQUEST/RESPONSE") return TestKind::kTcpRr;
  if (proto == "UDP" && type == "REQUEST/RESPONSE") return TestKind::kUdpRr;
  return std::nullopt;
}

/// The netperf command line a saved run often starts with ("[root@x ~]# netperf ...").
std::optional<std::string> command_of(std::string_view line) {
  const std::size_t at = line.find("netperf ");
  if (at == std::string_view::npos) return std::nullopt;
  const std::string_view before = scan::trim(line.substr(0, at));
  const bool prompt =
      before.empty() || before.ends_with('#') || before.ends_with('$') || before.ends_with('/');
  if (!prompt || line.find(" -", at) == std::string_view::npos) return std::nullopt;
  return std::string(scan::trim(line.substr(at)));
}

std::optional<TestKind> kind_of_command(const std::string& cmd) {
  const auto w = scan::words(cmd);
  for (std::size_t k = 0; k + 1 < w.size(); ++k) {
    if (w[k] != "-t") continue;
    if (w[k + 1] == "TCP_RR") return TestKind::kTcpRr;
    if (w[k + 1] == "UDP_RR") return TestKind::kUdpRr;
    if (w[k + 1] == "TCP_STREAM") return TestKind::kTcpStream;
    if (w[k + 1] == "UDP_STREAM") return TestKind::kUdpStream;
  }
  return std::nullopt;
}

/// A failure netperf itself reports, and whether it means "no netserver there".
std::optional<ParseFailure> tool_failure(std::string_view line) {
  if (line.find("are you sure there is a netserver listening") != std::string_view::npos ||
      line.find("could not establish the control connection") != std::string_view::npos)
    return ParseFailure::kServerUnreachable;
  if (line.starts_with("netperf: ") || line.find("send_data: data send error") != std::string_view::npos ||
      line.find("recv_response") != std::string_view::npos)
    return ParseFailure::kToolFailed;
  return std::nullopt;
}

/// What the file holds, section by section, before it becomes a Measurement.
struct Sections {
  std::optional<Banner> banner;
  std::optional<std::string> command;
  std::map<std::string, KeyValue> keys;
  std::optional<netperf::DecadeHistogram> histogram;
  std::optional<netperf::Table> table;
  std::string omni;  ///< "-o (CSV)" or "-O (columns)" when the values came from the output selectors
  std::vector<std::string> notes;
  int ignored = 0, first_ignored = 0;
  int duplicate_line = 0;  ///< the first repeated -k key, and what to say about it
  std::string duplicate_message;
};

Sections read_sections(const ToolText& t) {
  Sections s;
  for (std::size_t i = 0; i < t.lines.size(); ++i) {
    const std::string_view line = scan::trim(t.lines[i]);
    const int ln = static_cast<int>(i + 1);
    if (line.empty()) continue;
    if (auto f = tool_failure(line)) t.fail(ln, "netperf reported a failure: " + t.quote(ln), *f);
    if (auto bw = banner_words(line)) {
      if (s.banner)
        t.fail(ln, "a second netperf run starts here (the first at line " + std::to_string(s.banner->line) +
                       "); save one run per file");
      auto kind = kind_of_test(bw->first, bw->second);
      if (!kind)
        t.fail(ln, "netperf test '" + bw->first + " " + bw->second +
                       "' has no labgate kind (supported: TCP/UDP STREAM and REQUEST/RESPONSE)");
      s.banner = Banner{*kind, ln, std::string(line)};
      // A copy from a PDF may wrap the banner: "(10.0.0.1) port 0 AF_INET" on its own line.
      if (i + 1 < t.lines.size() && scan::trim(t.lines[i + 1]).starts_with('('))
        s.banner->text += " " + t.lines[++i];
      continue;
    }
    if (line.starts_with("Histogram of")) {
      if (s.histogram)
        t.fail(ln,
               "a second netperf histogram (the first at line " + std::to_string(s.histogram->line) + ")");
      s.histogram = netperf::read_histogram(t, i, s.notes);
      continue;
    }
    if (netperf::is_table_start(line)) {
      if (s.table)
        t.fail(ln, "a second netperf result table (the first at line " + std::to_string(s.table->line) + ")");
      s.table = netperf::read_table(t, i);
      continue;
    }
    // `-- -o` / `-- -O`: the same values as -k, under netperf's column titles.
    if (s.banner && s.keys.empty() && netperf::is_omni_header(line)) {
      s.omni = t.lines[i].find(',') != std::string::npos ? "-o (CSV)" : "-O (columns)";
      for (auto& v : netperf::read_omni(t, i, s.notes)) {
        if (s.keys.count(v.key)) t.fail(v.line, v.key + " appears twice in netperf's " + s.omni + " output");
        s.keys[v.key] = KeyValue{v.value, v.line};
      }
      continue;
    }
    // "**MAX_LATENCY=12129": the seed marks the value it cares about by hand.
    const std::string_view kv = line.substr(std::min(line.find_first_not_of('*'), line.size()));
    const std::size_t eq = kv.find('=');
    if (eq != std::string_view::npos && eq > 0 &&
        kv.substr(0, eq).find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") ==
            std::string_view::npos) {
      std::string key(kv.substr(0, eq));
      if (auto it = s.keys.find(key); it != s.keys.end()) {
        // Judged once the file is known to be netperf output: junk can look like KEY=.
        if (!s.duplicate_line) {
          s.duplicate_line = ln;
          s.duplicate_message =
              key + " appears twice (first at line " + std::to_string(it->second.line) + ")";
        }
        continue;
      }
      if (kv.size() != line.size())
        s.notes.push_back("line " + std::to_string(ln) + ": a '*' annotation added by hand before " + key +
                          " was ignored");
      s.keys[key] = KeyValue{std::string(scan::trim(kv.substr(eq + 1))), ln};
      continue;
    }
    if (auto cmd = command_of(line); cmd && !s.command) {
      s.command = *cmd;
      continue;
    }
    if (!s.ignored++) s.first_ignored = ln;
  }
  return s;
}

TestKind resolve_kind(const ToolText& t, const Sections& s, const ParseOptions& o) {
  if (s.banner) {
    if (o.kind && *o.kind != s.banner->kind)
      t.fail(s.banner->line, std::string("this is a ") + profile::to_string(s.banner->kind) +
                                 " run, not the " + profile::to_string(*o.kind) + " that was asked for");
    return s.banner->kind;
  }
  if (o.kind) return *o.kind;
  if (s.command)
    if (auto k = kind_of_command(*s.command)) return *k;
  t.fail(
      1,
      "cannot tell which netperf test this is (no banner: was it run with -P 0?); give the kind explicitly");
}

/// The latency -k keys and their labgate names.
const std::pair<const char*, const char*> kLatencyKeys[] = {
    {"P50_LATENCY", "p50"},       {"P90_LATENCY", "p90"}, {"P99_LATENCY", "p99"}, {"MEAN_LATENCY", "mean"},
    {"STDDEV_LATENCY", "stddev"}, {"MAX_LATENCY", "max"}, {"MIN_LATENCY", "min"},
};

double number_at(const ToolText& t, const std::string& key, const KeyValue& kv) {
  auto v = scan::number(kv.value);
  if (!v) t.fail(kv.line, key + " is '" + kv.value + "', not a number");
  return *v;
}

std::string thousands(double v) {
  std::string digits = std::to_string(static_cast<unsigned long long>(std::llround(std::max(0.0, v))));
  for (int at = static_cast<int>(digits.size()) - 3; at > 0; at -= 3)
    digits.insert(static_cast<std::size_t>(at), ",");
  return digits;
}

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

/// The -k values that are measurements: every "not measured" marker (-2147483648,
/// -1, inf, nan ... for ANY key) is left out with a warning naming it, and a
/// negative value, which no netperf figure can be, likewise.
class Keys {
 public:
  Keys(const ToolText& t, const Sections& s, measure::Measurement& m) : t_(t) {
    for (const auto& [key, kv] : s.keys) {
      if (util::is_not_measured(kv.value)) {
        m.warnings.push_back(
            util::not_measured_warning("line " + std::to_string(kv.line), "netperf", key, kv.value));
        m.parameters["netperf." + key] = "not measured (" + kv.value + ")";
        continue;
      }
      m.parameters["netperf." + key] = kv.value;
      if (const auto v = scan::number(kv.value); v && *v < 0) {
        m.warnings.push_back("line " + std::to_string(kv.line) + ": " + key + " is negative (" + kv.value +
                             "), not a measurement; it is left absent");
        continue;
      }
      known_[key] = kv;
    }
  }
  const KeyValue* find(const std::string& key) const {
    auto it = known_.find(key);
    return it == known_.end() ? nullptr : &it->second;
  }
  std::optional<double> number(const std::string& key) const {
    const KeyValue* kv = find(key);
    if (!kv) return std::nullopt;
    return number_at(t_, key, *kv);
  }

 private:
  const ToolText& t_;
  std::map<std::string, KeyValue> known_;
};

/// How many transactions netperf keeps in flight: 1 + its "first burst".
int in_flight(const std::optional<Banner>& banner) {
  if (!banner) return 1;
  const std::size_t at = banner->text.find("first burst ");
  if (at == std::string::npos) return 1;
  const auto w = scan::words(std::string_view(banner->text).substr(at + 12));
  const auto n = w.empty() ? std::nullopt : scan::count(w.front());
  return n ? static_cast<int>(std::min<std::uint64_t>(*n, 1u << 20)) + 1 : 1;
}

/// Whether netperf measured nothing: an empty histogram, or (without one) a
/// round trip of 0 us for every latency figure, which no network gives. Its
/// percentiles of 0 are then not figures.
bool zero_samples(const Sections& s, TestKind kind, const measure::Measurement& m) {
  if (s.histogram) return s.histogram->total == 0;
  if (!profile::is_rr(kind)) return false;  // a send() under 1 us is a real 0
  bool any = false;
  for (const auto& [key, stat] : kLatencyKeys)
    if (auto it = m.reported.find(stat); it != m.reported.end()) {
      if (it->second != 0) return false;
      any = true;
    }
  return any;
}

/// Sample accounting for RR: one transaction in flight (or 1 + first burst), so
/// ELAPSED_TIME / MEAN_LATENCY is how many the run had time for; the
/// transactions it completed (TRANSACTION_RATE x ELAPSED_TIME, or from
/// RT_LATENCY) and the histogram's HIST_TOTAL must both reach it. A lost UDP
/// datagram stalls the loop for the rest of the run, which is the only way
/// netperf shows it: RT_LATENCY (elapsed / transactions) then exceeds MEAN_LATENCY.
void rr_expectation(const Sections& s, const Keys& k, TestKind kind, bool zero, measure::Measurement& m) {
  const auto elapsed = k.number("ELAPSED_TIME");
  if (!elapsed || *elapsed <= 0) return;
  const int flight = in_flight(s.banner);
  const auto mean_us = k.number("MEAN_LATENCY");
  const auto rate = k.number("TRANSACTION_RATE");
  const auto rt_us = k.number("RT_LATENCY");
  measure::SampleExpectation e;
  const bool udp = !profile::is_tcp(kind);
  const std::string test = udp ? "UDP_RR" : "TCP_RR";
  e.shortfall_means = udp
                          ? "netperf UDP_RR has no retransmission: replies were lost (the transaction loop stalled)"
                          : "netperf TCP_RR's transaction loop stalled (retransmissions or a stalled peer): "
                            "transactions are missing";
  std::optional<double> transactions;
  std::string held_basis;
  if (rate) {
    transactions = *rate * *elapsed;
    held_basis = thousands(*transactions) + " transactions (" + fixed(*rate, 3) + "/s)";
  } else if (rt_us && *rt_us > 0) {
    transactions = *elapsed * 1e6 / *rt_us * flight;
    held_basis = thousands(*transactions) + " transactions";
  }
  if (rt_us) held_basis += (held_basis.empty() ? "" : ", ") + std::string("RT_LATENCY ") + fixed(*rt_us, 2) + " us";
  if (s.histogram) {
    const double total = static_cast<double>(s.histogram->total);
    held_basis += (held_basis.empty() ? "" : ", ") + std::string("HIST_TOTAL ") + thousands(total);
    transactions = transactions ? std::min(*transactions, total) : total;
  }
  if (!transactions) return;
  e.held = zero ? 0 : *transactions;
  const std::string flight_text =
      flight == 1 ? "one transaction in flight" : std::to_string(flight) + " transactions in flight";
  if (mean_us && *mean_us > 0 && !zero) {
    e.expected = *elapsed * 1e6 / *mean_us * flight;
    e.basis = fixed(*elapsed, 2) + " s at a " + fixed(*mean_us, 2) + " us mean (" + flight_text + ") allows ~" +
              thousands(e.expected) + "; held: " + held_basis;
  } else if (zero) {
    e.expected = 1;
    e.basis = fixed(*elapsed, 2) + " s of netperf " + test + " and not one transaction recorded; " + held_basis;
  } else {
    return;  // without the histogram's mean, RT_LATENCY is elapsed / transactions: nothing to compare
  }
  m.expectation = e;
}

/// Sample accounting for streams: every send() call is timed into the histogram.
void stream_expectation(const Sections& s, const Keys& k, measure::Measurement& m) {
  const auto calls = k.number("LOCAL_SEND_CALLS");
  if (!calls || !s.histogram) return;
  measure::SampleExpectation e;
  e.expected = std::max(1.0, *calls);
  e.held = static_cast<double>(s.histogram->total);
  e.basis = thousands(*calls) + " send() calls (LOCAL_SEND_CALLS), HIST_TOTAL " + thousands(e.held);
  e.shortfall_means = "send() calls are missing from netperf's histogram";
  m.expectation = e;
}

void apply_keys(const ToolText& t, const Sections& s, TestKind kind, measure::Measurement& m) {
  const Keys k(t, s, m);
  for (const auto& [key, stat] : kLatencyKeys)
    if (auto us = k.number(key)) m.reported[stat] = scan::us_to_ns(*us);
  const bool zero = zero_samples(s, kind, m);
  if (zero) {
    for (const auto& [key, stat] : kLatencyKeys) m.reported.erase(stat);
    m.warnings.push_back(std::string("netperf recorded no ") + (profile::is_rr(kind) ? "transaction" : "send") +
                         (s.histogram ? " (HIST_TOTAL 0)" : " (every latency figure is 0)") +
                         ": zero samples, so its percentiles of 0 are not figures and are left absent");
  }
  if (auto rt = k.number("RT_LATENCY"); rt && *rt > 0 && !zero && !m.reported.count("mean"))
    m.reported["mean"] = scan::us_to_ns(*rt);
  if (auto tr = k.number("TRANSACTION_RATE")) m.reported["transaction_rate"] = *tr;
  if (auto tp = k.number("THROUGHPUT")) {
    const KeyValue* units = k.find("THROUGHPUT_UNITS");
    if (units && units->value == "Trans/s") {
      m.reported.emplace("transaction_rate", *tp);  // TRANSACTION_RATE, when measured, has more digits
    } else if (units) {
      auto bits = netperf::bits_per_unit(units->value);
      if (!bits) t.fail(units->line, "THROUGHPUT_UNITS '" + units->value + "' is not a unit netperf prints");
      m.throughput_bps = *tp * *bits;
    } else if (!profile::is_rr(kind)) {
      m.throughput_bps = *tp * 1e6;  // omni's default unit for stream tests: 10^6bits/s
      m.warnings.push_back("line " + std::to_string(k.find("THROUGHPUT")->line) +
                           ": THROUGHPUT without THROUGHPUT_UNITS, read as 10^6bits/s");
    }
  }
  if (auto el = k.number("ELAPSED_TIME")) m.duration_s = *el;
  const auto sends = k.number("LOCAL_SEND_CALLS");
  const auto recvs = k.number("REMOTE_RECV_CALLS");
  if (profile::is_stream(kind) && !profile::is_tcp(kind) && sends && recvs) {
    // Both counted: what was sent and did not arrive is the loss.
    m.counts_drops = true;
    m.sent = static_cast<std::uint64_t>(*sends);
    m.received = static_cast<std::uint64_t>(*recvs);
    m.dropped = m.sent > m.received ? m.sent - m.received : 0;
    m.counts_drops = true;
    if (m.sent) m.loss_fraction = static_cast<double>(m.dropped) / static_cast<double>(m.sent);
  }
  if (profile::is_rr(kind))
    rr_expectation(s, k, kind, zero, m);
  else
    stream_expectation(s, k, m);
}

void apply_table(const netperf::Table& tab, const std::optional<Banner>& banner, measure::Measurement& m) {
  using Shape = netperf::Table::Shape;
  m.duration_s = tab.elapsed_s;
  m.parameters["netperf.local_socket_bytes"] = std::to_string(tab.local_socket);
  if (tab.shape == Shape::kRequestResponse) {
    m.reported["transaction_rate"] = tab.transaction_rate;
    m.parameters["message_size"] = std::to_string(tab.request_size) + "," + std::to_string(tab.response_size);
    const bool one_in_flight = !banner || banner->text.find("first burst") == std::string::npos ||
                               banner->text.find("first burst 0") != std::string::npos;
    if (!m.reported.count("mean") && tab.transaction_rate > 0 && one_in_flight) {
      m.reported["mean"] = 1e9 / tab.transaction_rate;
      m.warnings.push_back(
          "mean round trip inferred as 1 / transaction rate (one transaction in flight); "
          "netperf's result table gives no percentiles");
    }
    return;
  }
  m.parameters["message_size"] = std::to_string(tab.message_size);
  m.parameters["netperf.remote_socket_bytes"] = std::to_string(tab.remote_socket);
  m.throughput_bps = tab.throughput_bps;
  if (tab.shape == Shape::kUdpStream) {
    // What arrived is the goodput; the sender's figure counts datagrams the network dropped.
    m.throughput_bps = tab.received_bps;
    m.parameters["netperf.sender_throughput_bps"] = std::to_string(tab.throughput_bps);
    m.parameters["netperf.send_errors"] = std::to_string(tab.send_errors);
    m.counts_drops = true;
    m.sent = tab.sent;
    m.received = tab.received;
    m.dropped = tab.sent > tab.received ? tab.sent - tab.received : 0;
    m.counts_drops = true;
    if (tab.sent) m.loss_fraction = static_cast<double>(m.dropped) / static_cast<double>(tab.sent);
  }
}

void apply_histogram(const ToolText& t, const netperf::DecadeHistogram& h, TestKind kind,
                     measure::Measurement& m) {
  using Of = netperf::DecadeHistogram::Of;
  if ((h.of == Of::kRequestResponse && !profile::is_rr(kind)) || (h.of == Of::kSend && profile::is_rr(kind)))
    t.fail(h.line, std::string("this histogram does not belong to a ") + profile::to_string(kind) +
                       " test: " + t.quote(h.line));
  std::optional<double> min_ns, max_ns;
  if (auto it = m.reported.find("max"); it != m.reported.end()) max_ns = it->second;
  if (auto it = m.reported.find("min"); it != m.reported.end()) min_ns = it->second;
  netperf::load_histogram(h, min_ns, max_ns, m.histogram);
  m.parameters["histogram"] =
      "netperf buckets (decade-wide): netperf -v 2's 1 us wide below 10 us, 10 us below 100 us, ..., each "
      "recorded at its upper edge (netperf's own MIN and MAX at their values); for plots only: its mean and "
      "percentiles are not netperf's figures, which are in 'reported'";
  m.warnings.push_back(
      "netperf's histogram has decade-bucket resolution: percentiles from it are coarse; "
      "the -k values (P50_LATENCY...) are authoritative and are in 'reported'");
}

}  // namespace

measure::Measurement parse_netperf(const ToolText& t, const ParseOptions& options) {
  if (t.lines.empty()) t.fail(0, "empty: no netperf output");
  Sections s = read_sections(t);
  int found_latency = 0;
  for (const auto& [key, stat] : kLatencyKeys) found_latency += s.keys.count(key) ? 1 : 0;
  if (!found_latency && !s.histogram && !s.table && !s.keys.count("THROUGHPUT")) {
    if (s.banner)
      t.fail(static_cast<int>(t.lines.size()), "netperf output ends after its banner at line " +
                                                   std::to_string(s.banner->line) +
                                                   " with no result (truncated or failed run?)");
    t.fail(1, "not netperf output: no banner, -k KEY=VALUE results, -v 2 histogram or result table");
  }
  if (s.duplicate_line) t.fail(s.duplicate_line, s.duplicate_message);
  const TestKind kind = resolve_kind(t, s, options);

  measure::Measurement m;
  m.source = "netperf";
  m.kind = profile::to_string(kind);
  m.metric = profile::is_rr(kind) ? measure::Metric::kRoundTrip : measure::Metric::kSendTime;
  m.parameters["tool"] = "netperf";
  m.parameters["latency"] = profile::is_rr(kind) ? "round-trip time of one request/response transaction"
                                                 : "time of one send() call";
  m.parameters["warmup"] = "none: netperf has no warm-up option";
  if (s.banner) m.parameters["netperf.banner"] = s.banner->text;
  if (s.command) m.parameters["command"] = *s.command;
  if (!s.omni.empty()) m.parameters["netperf.output"] = "omni output selectors, " + s.omni;

  apply_keys(t, s, kind, m);
  if (s.table) apply_table(*s.table, s.banner, m);
  if (s.histogram) apply_histogram(t, *s.histogram, kind, m);
  for (auto& n : s.notes) m.warnings.push_back(std::move(n));
  if (s.ignored)
    m.warnings.push_back("ignored " + std::to_string(s.ignored) +
                         " line(s) that are not netperf output (first: line " +
                         std::to_string(s.first_ignored) + " " + t.quote(s.first_ignored) + ")");
  return m;
}

}  // namespace labgate::tools

// iperf3's text log (a client run without -J, the form most saved runs are in):
// its final summary per direction -> the same flows -J gives, figures as
// printed (3 significant figures), what the log does not hold left absent.
#include <map>

#include "iperf3_parts.h"
#include "text_scan.h"

namespace labgate::tools::iperf3 {
namespace {

using profile::TestKind;

/// One "[  5][TX-C]   0.00-2.00   sec  1.06 GBytes  4.54 Gbits/sec    0   sender" line.
struct Row {
  int line = 0;
  std::string id, role;  ///< "5" or "SUM"; "TX-C", "RX-C" (--bidir) or ""
  double start = 0, end = 0, bps = 0;
  std::vector<std::string_view> rest;  ///< the words after the bitrate
  std::string side;                    ///< "sender", "receiver" or "" (an interval)
  bool omitted = false;
};

std::optional<double> bits_per_second(const ToolText& t, int ln, std::string_view value,
                                      std::string_view unit) {
  const auto v = scan::number(value);
  if (!v) return std::nullopt;
  static const std::pair<std::string_view, double> kUnits[] = {
      {"bits/sec", 1}, {"Kbits/sec", 1e3}, {"Mbits/sec", 1e6}, {"Gbits/sec", 1e9}, {"Tbits/sec", 1e12}};
  for (const auto& [name, scale] : kUnits)
    if (unit == name) return *v * scale;
  if (unit.ends_with("Bytes/sec"))
    t.fail(ln, "iperf3 printed its rate in " + std::string(unit) +
                   " (-f in bytes): labgate reads bits/sec, iperf3's default format");
  return std::nullopt;
}

std::optional<Row> read_row(const ToolText& t, int ln, std::string_view line) {
  Row r;
  r.line = ln;
  const auto bracket = [&](std::string& out) {
    if (line.empty() || line.front() != '[') return false;
    const std::size_t close = line.find(']');
    if (close == std::string_view::npos) return false;
    out = std::string(scan::trim(line.substr(1, close - 1)));
    line = line.substr(close + 1);
    return true;
  };
  if (!bracket(r.id) || r.id == "ID") return std::nullopt;
  if (!line.empty() && line.front() == '[' && !bracket(r.role)) return std::nullopt;
  const auto w = scan::words(line);
  if (w.size() < 6 || w[1] != "sec") return std::nullopt;
  const std::size_t dash = w[0].find('-');
  const auto a = scan::number(w[0].substr(0, dash)),
             b = dash == std::string_view::npos ? std::nullopt : scan::number(w[0].substr(dash + 1));
  const auto bps = bits_per_second(t, ln, w[4], w[5]);
  if (!a || !b || !bps) t.fail(ln, "iperf3: cannot read the interval and bitrate in " + t.quote(ln));
  r.start = *a;
  r.end = *b;
  r.bps = *bps;
  r.rest.assign(w.begin() + 6, w.end());
  if (!r.rest.empty() && (r.rest.back() == "sender" || r.rest.back() == "receiver")) {
    r.side = std::string(r.rest.back());
    r.rest.pop_back();
  }
  if (!r.rest.empty() && r.rest.back() == "(omitted)") {
    r.omitted = true;
    r.rest.pop_back();
  }
  return r;
}

/// UDP's "0.007 ms  0/24422 (0%)" after the bitrate.
void udp_figures(const ToolText& t, const Row& r, Flow& f) {
  if (r.rest.size() < 4 || r.rest[1] != "ms")
    t.fail(r.line, "iperf3: cannot read jitter and loss in " + t.quote(r.line));
  const std::size_t slash = r.rest[2].find('/');
  f.jitter_ms = scan::number(r.rest[0]);
  f.lost = slash == std::string_view::npos ? std::nullopt : scan::number(r.rest[2].substr(0, slash));
  f.packets = slash == std::string_view::npos ? std::nullopt : scan::number(r.rest[2].substr(slash + 1));
  std::string_view pct = r.rest[3];
  if (pct.size() > 3 && pct.front() == '(' && pct.ends_with("%)"))
    f.lost_percent = scan::number(pct.substr(1, pct.size() - 3));
  if (!f.jitter_ms || !f.lost || !f.packets)
    t.fail(r.line, "iperf3: cannot read jitter and loss in " + t.quote(r.line));
  if (*f.lost < 0) {
    f.warnings.push_back("iperf3 reported " + std::to_string(static_cast<long long>(*f.lost)) +
                         " lost packets (reordering); counted as 0");
    f.lost = 0;
  }
}

}  // namespace

std::vector<measure::Measurement> parse_text(const ToolText& t, const ParseOptions& options) {
  bool reverse = false, bidir = false, udp = false, client = false;
  int summary = 0;  // the line after the final "[ ID]" header
  for (std::size_t i = 0; i < t.lines.size(); ++i) {
    const int ln = static_cast<int>(i + 1);
    const std::string_view line = scan::trim(t.lines[i]);
    if (line.starts_with("iperf3: error") || line.starts_with("iperf3: interrupt")) {
      const bool unreachable = scan::contains_nocase(line, "unable to connect") ||
                               scan::contains_nocase(line, "connection refused");
      t.fail(ln, "iperf3 reported an error: " + t.quote(ln),
             unreachable ? ParseFailure::kServerUnreachable : ParseFailure::kToolFailed);
    }
    if (line.starts_with("Server listening on") || line.starts_with("Accepted connection from"))
      t.fail(ln, "an iperf3 server's log: labgate reads the client's output (its own summary of both ends)");
    if (line.starts_with("Connecting to host ")) client = true;
    if (line.starts_with("Reverse mode, remote host")) reverse = true;
    if (line.starts_with("[ ID]")) {
      bidir = bidir || line.starts_with("[ ID][Role]");
      udp = udp || line.find("Datagrams") != std::string_view::npos;
      // The summary's header follows the last "- - -" rule (-P N rules off each interval too).
      if (i > 0 && scan::trim(t.lines[i - 1]).starts_with("- - -")) summary = ln + 1;
    }
  }
  if (!client)
    t.fail(1, "not iperf3 -J output nor its text log (no JSON object, no \"Connecting to host\" line)");
  if (!summary)
    t.fail(static_cast<int>(t.lines.size()),
           "iperf3's text log has no final summary (truncated or failed run?)");
  const TestKind kind = udp ? TestKind::kUdpStream : TestKind::kTcpStream;
  if (options.kind && *options.kind != kind)
    t.fail(1, std::string("this is a ") + profile::to_string(kind) +
                  " run (iperf3 measures streams), not the " + profile::to_string(*options.kind) +
                  " that was asked for");

  // Rows by direction: --bidir's TX-C is the client's send, RX-C the server's.
  std::map<bool, std::vector<Row>> intervals, summaries;
  for (std::size_t i = 0; i < t.lines.size(); ++i) {
    const int ln = static_cast<int>(i + 1);
    const auto r = read_row(t, ln, scan::trim(t.lines[i]));
    if (!r) continue;
    if (bidir && r->role != "TX-C" && r->role != "RX-C")
      t.fail(ln, "iperf3 --bidir row of an unknown role '" + r->role + "': " + t.quote(ln));
    const bool by_server = bidir ? r->role == "RX-C" : reverse;
    (ln >= summary ? summaries : intervals)[by_server].push_back(*r);
  }
  Run run;
  run.read_from =
      "its text log: figures as printed (3 significant figures); it holds no version, date or TCP RTT";
  std::vector<measure::Measurement> out;
  for (const bool by_server : {false, true}) {
    if (!summaries.count(by_server)) continue;
    const std::vector<Row>& rows = summaries[by_server];
    bool has_sum = false;
    std::map<std::string, bool> ids;
    for (const Row& r : rows) {
      has_sum = has_sum || r.id == "SUM";
      if (r.id != "SUM") ids[r.id] = true;
    }
    if (!has_sum && ids.size() > 1)
      t.fail(rows.front().line,
             "iperf3 summary of " + std::to_string(ids.size()) + " streams without a [SUM] line");
    Flow f;
    f.kind = kind;
    f.sent_by_server = by_server;
    f.bidir = bidir;
    f.streams = static_cast<int>(std::max<std::size_t>(1, ids.size()));
    const Row *sender = nullptr, *receiver = nullptr;
    for (const Row& r : rows) {
      if ((r.id == "SUM") != has_sum || r.side.empty()) continue;
      (r.side == "sender" ? sender : receiver) = &r;
    }
    if (!receiver)
      t.fail(rows.back().line, "iperf3's summary has no receiver line for the " +
                                   std::string(by_server ? "server's" : "client's") + " send (truncated?)");
    f.seconds = receiver->end - receiver->start;
    f.received_bps = receiver->bps;
    if (sender) {
      f.sent_bps = sender->bps;
      if (profile::is_tcp(kind) && !sender->rest.empty())
        f.retransmits = scan::number(sender->rest.front());
    }
    if (!profile::is_tcp(kind)) udp_figures(t, *receiver, f);
    double covered = 0;
    for (const Row& r : intervals[by_server])
      if ((r.id == "SUM") == has_sum) {
        ++f.intervals;
        if (!r.omitted) covered += r.end - r.start;
      }
    if (f.intervals) f.covered_s = covered;
    // The client printed the intervals: its own summary line times them.
    if (const Row* own = client_time_is_senders(by_server, bidir) ? sender : receiver)
      f.client_seconds = own->end - own->start;
    out.push_back(to_measurement(run, f));
  }
  if (out.empty()) t.fail(summary, "iperf3's summary holds no sender or receiver line");
  return out;
}

}  // namespace labgate::tools::iperf3

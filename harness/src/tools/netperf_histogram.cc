// netperf's -v 2 decade histogram: read and check it, then load it into the
// project histogram. Its buckets are a decade step wide (1 us wide below 10 us,
// 10 us below 100 us, ...), so what it yields for percentiles is coarse.
#include <cmath>

#include "netperf_parts.h"
#include "text_scan.h"

namespace labgate::tools::netperf {

namespace {

constexpr std::array<const char*, 8> kRows = {"UNIT_USEC", "TEN_USEC",     "HUNDRED_USEC", "UNIT_MSEC",
                                              "TEN_MSEC",  "HUNDRED_MSEC", "UNIT_SEC",     "TEN_SEC"};

/// "**820" -> 820 plus a note: the seed marks the sample it cares about by hand.
std::optional<std::uint64_t> cell(std::string_view s, int line, std::vector<std::string>& notes) {
  s = scan::trim(s);
  if (!s.empty() && s.front() == '*') {
    while (!s.empty() && s.front() == '*') s.remove_prefix(1);
    notes.push_back("line " + std::to_string(line) + ": a '*' annotation added by hand before " +
                    std::string(s) + " was ignored");
  }
  return scan::count(s);
}

/// Index of the next non-blank line at or after i, or lines.size().
std::size_t next_content(const ToolText& t, std::size_t i) {
  while (i < t.lines.size() && scan::trim(t.lines[i]).empty()) ++i;
  return i;
}

/// "NAME : v" or "NAME: v" -> v, when the line starts with NAME.
std::optional<std::string_view> labelled(std::string_view line, std::string_view name) {
  line = scan::trim(line);
  if (!line.starts_with(name)) return std::nullopt;
  line.remove_prefix(name.size());
  line = scan::trim(line);
  if (line.empty() || line.front() != ':') return std::nullopt;
  line.remove_prefix(1);
  return line;
}

}  // namespace

DecadeHistogram read_histogram(const ToolText& t, std::size_t& i, std::vector<std::string>& notes) {
  DecadeHistogram h;
  h.line = static_cast<int>(i + 1);
  const std::string& title = t.lines[i];
  if (title.find("request/response") != std::string::npos)
    h.of = DecadeHistogram::Of::kRequestResponse;
  else if (title.find("send") != std::string::npos)
    h.of = DecadeHistogram::Of::kSend;

  std::uint64_t sum = 0;
  for (std::size_t r = 0; r < kRows.size(); ++r) {
    i = next_content(t, i + 1);
    const int ln = static_cast<int>(i + 1);
    if (i == t.lines.size())
      t.fail(static_cast<int>(t.lines.size()), std::string("netperf histogram ends early: the ") + kRows[r] +
                                                   " row is missing (truncated output?)");
    auto rest = labelled(t.lines[i], kRows[r]);
    if (!rest)
      t.fail(ln, std::string("netperf histogram: expected the ") + kRows[r] + " row, found " + t.quote(ln));
    std::size_t b = 0;
    std::string_view s = *rest;
    while (true) {
      const std::size_t colon = s.find(':');
      const std::string_view field = s.substr(0, colon);
      if (b == 10)
        t.fail(ln, std::string("netperf histogram: the ") + kRows[r] + " row has more than 10 buckets");
      auto v = cell(field, ln, notes);
      if (!v)
        t.fail(ln, std::string("netperf histogram: ") + kRows[r] + " bucket " + std::to_string(b) + " is '" +
                       std::string(scan::trim(field)) + "', not a count");
      h.counts[r][b++] = *v;
      sum += *v;
      if (colon == std::string_view::npos) break;
      s.remove_prefix(colon + 1);
    }
    if (b != 10)
      t.fail(ln, std::string("netperf histogram: the ") + kRows[r] + " row has " + std::to_string(b) +
                     " buckets, not 10 (truncated line?)");
  }

  i = next_content(t, i + 1);
  if (i == t.lines.size())
    t.fail(static_cast<int>(t.lines.size()),
           "netperf histogram ends early: '>100_SECS' and HIST_TOTAL are missing");
  auto over = labelled(t.lines[i], ">100_SECS");
  auto over_count = over ? cell(*over, static_cast<int>(i + 1), notes) : std::nullopt;
  if (!over_count)
    t.fail(static_cast<int>(i + 1),
           "netperf histogram: expected '>100_SECS: N', found " + t.quote(static_cast<int>(i + 1)));
  h.over_100s = *over_count;
  sum += h.over_100s;

  i = next_content(t, i + 1);
  if (i == t.lines.size())
    t.fail(static_cast<int>(t.lines.size()),
           "netperf histogram ends early: HIST_TOTAL is missing (truncated output?)");
  h.total_line = static_cast<int>(i + 1);
  auto total = labelled(t.lines[i], "HIST_TOTAL");
  auto total_count = total ? cell(*total, h.total_line, notes) : std::nullopt;
  if (!total_count)
    t.fail(h.total_line, "netperf histogram: expected 'HIST_TOTAL: N', found " + t.quote(h.total_line));
  h.total = *total_count;
  if (h.total != sum)
    t.fail(h.total_line, "netperf histogram: HIST_TOTAL is " + std::to_string(h.total) +
                             " but its buckets add up to " + std::to_string(sum) +
                             " (edited or truncated output?)");
  return h;
}

void load_histogram(const DecadeHistogram& h, std::optional<double> min_ns, std::optional<double> max_ns,
                    stats::Histogram& into) {
  double width_ns = 1000;  // UNIT_USEC buckets are 1 us wide
  for (std::size_t r = 0; r < h.counts.size(); ++r, width_ns *= 10) {
    for (std::size_t b = 0; b < 10; ++b) {
      std::uint64_t n = h.counts[r][b];
      if (!n) continue;
      const double lo = width_ns * static_cast<double>(b), hi = width_ns * static_cast<double>(b + 1);
      // The upper edge keeps every percentile from it on the pessimistic side; the
      // bucket holding netperf's exact MAX_LATENCY is recorded at that maximum, and
      // one sample of the bucket holding MIN_LATENCY at that minimum, so the
      // histogram's min and max are netperf's own.
      double at = hi - 1;
      if (max_ns && *max_ns >= lo && *max_ns < hi) at = *max_ns;
      if (min_ns && *min_ns >= lo && *min_ns < hi && *min_ns <= at) {
        into.record_n(static_cast<std::uint64_t>(*min_ns), 1);
        --n;
      }
      into.record_n(static_cast<std::uint64_t>(at), n);
    }
  }
  if (h.over_100s) {
    const double at = max_ns && *max_ns >= 100e9 ? *max_ns : 100e9;
    into.record_n(static_cast<std::uint64_t>(at), h.over_100s);
  }
}

}  // namespace labgate::tools::netperf

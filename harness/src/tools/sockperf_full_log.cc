// sockperf's per-sample log: the host-side pass that keeps its worst samples,
// and the reading of what it prints (see sockperf_full_log.h).
#include "labgate/tools/sockperf_full_log.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace labgate::tools {
namespace {

// One pass, memory bounded by K lines: the K largest rx - tx seen so far, the
// smallest of them found again only when it is replaced. Lines other than a
// sample (sockperf's dashes, its column header, a second server's block
// header) do not match. sockperf writes ", " between its columns.
constexpr const char* kWorstPass = R"AWK(BEGIN { FS = ", *"; n = 0; k = 0; need = 1 }
NF == 4 && $1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+(\.[0-9]+)?$/ && $3 ~ /^[0-9]+(\.[0-9]+)?$/ {
  n++
  if (n == 1) first = $2
  last = $3
  v = $3 - $2
  if (k < K) { k++; line[k] = $0; val[k] = v; need = 1; next }
  if (need) { mi = 1; for (i = 2; i <= k; i++) if (val[i] < val[mi]) mi = i; need = 0 }
  if (v > val[mi]) { line[mi] = $0; val[mi] = v; need = 1 }
}
END { print "samples " n " " (n ? first : 0) " " (n ? last : 0); for (i = 1; i <= k; i++) print line[i] }
)AWK";

[[noreturn]] void bad(const std::string& what) { throw std::invalid_argument("sockperf full log: " + what); }

std::vector<std::string> fields_of(const std::string& line) {
  std::vector<std::string> out;
  std::string cur;
  for (char ch : line) {
    if (ch == ',') {
      out.push_back(cur);
      cur.clear();
    } else if (ch != ' ' && ch != '\t' && ch != '\r') {
      cur += ch;
    }
  }
  out.push_back(cur);
  return out;
}

std::uint64_t whole_number(const std::string& s, const std::string& line) {
  if (s.empty() || s.size() > 19 || !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }))
    bad("expected a sample index in '" + line + "'");
  return std::stoull(s);
}

}  // namespace

std::uint64_t decimal_seconds_to_ns(const std::string& s) {
  const auto dot = s.find('.');
  const std::string whole = s.substr(0, dot);
  std::string frac = dot == std::string::npos ? "" : s.substr(dot + 1);
  const auto digits = [](const std::string& x) {
    return std::all_of(x.begin(), x.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  if (whole.empty() || whole.size() > 10 || !digits(whole) || !digits(frac) || frac.size() > 9 ||
      (dot != std::string::npos && frac.empty()))
    bad("'" + s + "' is not a time in seconds with up to 9 decimals");
  frac.resize(9, '0');
  return std::stoull(whole) * 1000000000ull + std::stoull(frac);
}

std::vector<std::string> full_log_worst_argv(const std::string& path, std::size_t keep) {
  // The file goes whatever the pass did: the log of a long run is hundreds of MB.
  return {"sh", "-c", "awk -v K=\"$2\" \"$3\" \"$1\"; s=$?; rm -f \"$1\"; exit $s", "sh", path,
          std::to_string(keep), kWorstPass};
}

FullLogWorst parse_full_log_worst(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  FullLogWorst out;
  bool head = false;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    if (!head) {
      std::istringstream h(line);
      std::string word, first, last;
      if (!(h >> word >> out.samples >> first >> last) || word != "samples")
        bad("expected 'samples N FIRST LAST', got '" + line.substr(0, 80) + "'");
      head = true;
      if (out.samples > 0) {
        out.first_tx_ns = decimal_seconds_to_ns(first);
        out.last_rx_ns = decimal_seconds_to_ns(last);
      }
      continue;
    }
    const std::vector<std::string> f = fields_of(line);
    if (f.size() != 4) bad("expected 'packet, txTime, rxTime, rtt', got '" + line.substr(0, 80) + "'");
    FullLogSample s;
    s.index = whole_number(f[0], line);
    s.tx_ns = decimal_seconds_to_ns(f[1]);
    s.rx_ns = decimal_seconds_to_ns(f[2]);
    out.worst.push_back(s);
  }
  if (!head) bad("the pass printed nothing (no log, or no awk on the host)");
  if (out.worst.size() > out.samples)
    bad("more samples kept (" + std::to_string(out.worst.size()) + ") than read (" +
        std::to_string(out.samples) + ")");
  std::stable_sort(out.worst.begin(), out.worst.end(),
                   [](const FullLogSample& a, const FullLogSample& b) { return a.rtt_ns() > b.rtt_ns(); });
  return out;
}

}  // namespace labgate::tools

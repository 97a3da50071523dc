// netperf's omni output selectors (`-- -o LIST`: one CSV header and one values
// line; `-- -O LIST`: columns under a header wrapped over up to four lines),
// read back into the -k KEY=VALUE form the rest of the parser judges.
#include <cctype>
#include <map>

#include "netperf_parts.h"
#include "text_scan.h"

namespace labgate::tools::netperf {
namespace {

/// netperf 2.7's titles of the selectors labgate reads (nettest_omni.c's
/// set_output_elt, its four header parts joined by spaces) and their -k names.
const std::map<std::string, std::string, std::less<>> kTitles = {
    {"Throughput", "THROUGHPUT"},
    {"Throughput Units", "THROUGHPUT_UNITS"},
    {"Elapsed Time (sec)", "ELAPSED_TIME"},
    {"Minimum Latency Microseconds", "MIN_LATENCY"},
    {"Maximum Latency Microseconds", "MAX_LATENCY"},
    {"Mean Latency Microseconds", "MEAN_LATENCY"},
    {"Stddev Latency Microseconds", "STDDEV_LATENCY"},
    {"50th Percentile Latency Microseconds", "P50_LATENCY"},
    {"90th Percentile Latency Microseconds", "P90_LATENCY"},
    {"99th Percentile Latency Microseconds", "P99_LATENCY"},
    {"Transaction Rate Tran/s", "TRANSACTION_RATE"},
    {"Round Trip Latency usec/tran", "RT_LATENCY"},
    {"Request Size Bytes", "REQUEST_SIZE"},
    {"Response Size Bytes", "RESPONSE_SIZE"},
    {"Local Send Size", "LOCAL_SEND_SIZE"},
    {"Local Send Calls", "LOCAL_SEND_CALLS"},
    {"Remote Recv Calls", "REMOTE_RECV_CALLS"},
};

bool known_first_word(std::string_view w) {
  for (const auto& [title, key] : kTitles)
    if (title.substr(0, title.find(' ')) == w) return true;
  return false;
}

/// A title labgate has no -k name for: kept, under a name made from it.
std::string key_of(const std::string& title, std::vector<std::string>& notes, int ln) {
  if (const auto it = kTitles.find(title); it != kTitles.end()) return it->second;
  std::string k;
  for (char c : title)
    k += std::isalnum(static_cast<unsigned char>(c)) ? static_cast<char>(std::toupper(c)) : '_';
  notes.push_back("line " + std::to_string(ln) + ": netperf output selector '" + title +
                  "' is not one labgate judges; kept as netperf.OMNI_" + k);
  return "OMNI_" + k;
}

std::vector<std::string> split_csv(std::string_view line) {
  std::vector<std::string> out;
  for (std::size_t from = 0;;) {
    const std::size_t comma = line.find(',', from);
    out.emplace_back(scan::trim(line.substr(from, comma - from)));
    if (comma == std::string_view::npos) return out;
    from = comma + 1;
  }
}

}  // namespace

bool is_omni_header(std::string_view line) {
  const auto w = scan::words(line.substr(0, line.find(',')));
  return !w.empty() && known_first_word(w.front()) && line.find('=') == std::string_view::npos;
}

std::vector<OmniValue> read_omni(const ToolText& t, std::size_t& i, std::vector<std::string>& notes) {
  const int header_ln = static_cast<int>(i + 1);
  std::vector<OmniValue> out;
  const std::string_view first = t.lines[i];
  if (first.find(',') != std::string_view::npos) {  // -o: CSV
    if (i + 1 >= t.lines.size())
      t.fail(header_ln, "netperf -o output ends after its header (truncated or failed run?)");
    const auto titles = split_csv(first);
    const auto values = split_csv(t.lines[++i]);
    const int ln = static_cast<int>(i + 1);
    if (values.size() != titles.size())
      t.fail(ln, "netperf -o values: " + std::to_string(values.size()) + " for the " +
                     std::to_string(titles.size()) + " columns of line " + std::to_string(header_ln));
    for (std::size_t c = 0; c < titles.size(); ++c)
      out.push_back({key_of(titles[c], notes, ln), values[c], ln});
    return out;
  }
  // -O: header lines, then the values line (the first whose first word is a number).
  std::size_t v = i;
  while (v < t.lines.size() && v - i < 5) {
    const auto w = scan::words(t.lines[v]);
    if (!w.empty() && scan::number(w.front())) break;
    ++v;
  }
  if (v >= t.lines.size() || v == i || v - i > 4)
    t.fail(header_ln, "netperf -O output: no values line under its header (truncated or failed run?)");
  const std::string& values = t.lines[v];
  const int ln = static_cast<int>(v + 1);
  // Each column starts where its value starts: netperf left-aligns both.
  std::vector<std::size_t> starts;
  for (std::size_t p = 0; p < values.size(); ++p)
    if (values[p] != ' ' && (p == 0 || values[p - 1] == ' ')) starts.push_back(p);
  for (std::size_t c = 0; c < starts.size(); ++c) {
    const std::size_t from = starts[c], to = c + 1 < starts.size() ? starts[c + 1] : std::string::npos;
    std::string title;
    for (std::size_t h = i; h < v; ++h) {
      const std::string& line = t.lines[h];
      if (from >= line.size()) continue;
      const std::string_view piece =
          scan::trim(std::string_view(line).substr(from, to == std::string::npos ? to : to - from));
      if (!piece.empty()) title += (title.empty() ? "" : " ") + std::string(piece);
    }
    const std::string_view value =
        scan::trim(std::string_view(values).substr(from, to == std::string::npos ? to : to - from));
    if (title.empty()) t.fail(ln, "netperf -O value '" + std::string(value) + "' stands under no header");
    out.push_back({key_of(title, notes, ln), std::string(value), ln});
  }
  i = v;
  return out;
}

}  // namespace labgate::tools::netperf

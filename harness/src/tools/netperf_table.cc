// netperf's classic result tables (what it prints without -k): TCP_RR/UDP_RR
// transaction rate, TCP_STREAM throughput, and UDP_STREAM's sender and
// receiver rows, whose message counts give the loss.
#include <cmath>

#include "netperf_parts.h"
#include "text_scan.h"

namespace labgate::tools::netperf {

namespace {

using Shape = Table::Shape;

std::optional<Shape> shape_of(std::string_view line) {
  const auto w = scan::words(line);
  if (w.size() >= 2 && w[0] == "Local" && (w[1] == "/Remote" || w[1] == "/")) return Shape::kRequestResponse;
  if (w.size() >= 3 && w[0] == "Recv" && w[1] == "Send" && w[2] == "Send") return Shape::kStream;
  if (w.size() >= 3 && w[0] == "Socket" && w[1] == "Message" && w[2] == "Elapsed") return Shape::kUdpStream;
  return std::nullopt;
}

/// The numbers of a data row, or nullopt when any of its first `need` tokens is not one.
std::optional<std::vector<double>> row(std::string_view line, std::size_t need) {
  const auto w = scan::words(line);
  if (w.size() < need) return std::nullopt;
  std::vector<double> v;
  for (std::size_t k = 0; k < need; ++k) {
    auto n = scan::number(w[k]);
    if (!n) return std::nullopt;
    v.push_back(*n);
  }
  return v;
}

bool starts_with_number(std::string_view line) {
  const auto w = scan::words(line);
  return !w.empty() && scan::number(w[0]).has_value();
}

std::uint64_t whole(double v) { return v < 0 ? 0 : static_cast<std::uint64_t>(std::llround(v)); }

const char* name_of(Shape s) {
  switch (s) {
    case Shape::kRequestResponse:
      return "request/response";
    case Shape::kStream:
      return "STREAM";
    case Shape::kUdpStream:
      return "UDP_STREAM";
  }
  return "?";
}

}  // namespace

bool is_table_start(std::string_view line) { return shape_of(line).has_value(); }

std::optional<double> bits_per_unit(std::string_view unit) {
  std::string u(unit);
  for (const char* suffix : {"/sec", "/s"}) {
    const std::string s(suffix);
    if (u.size() > s.size() && u.compare(u.size() - s.size(), s.size(), s) == 0) {
      u.resize(u.size() - s.size());
      break;
    }
  }
  // Lower-case units are powers of ten of bits, capitalised ones powers of two of bytes (netperf -f).
  if (u == "bits") return 1.0;
  if (u == "10^3bits" || u == "Kbits") return 1e3;
  if (u == "10^6bits" || u == "Mbits") return 1e6;
  if (u == "10^9bits" || u == "Gbits") return 1e9;
  if (u == "Bytes") return 8.0;
  if (u == "KBytes") return 8.0 * 1024;
  if (u == "MBytes") return 8.0 * 1024 * 1024;
  if (u == "GBytes") return 8.0 * 1024 * 1024 * 1024;
  return std::nullopt;
}

Table read_table(const ToolText& t, std::size_t& i) {
  Table tab;
  tab.shape = *shape_of(t.lines[i]);
  tab.line = static_cast<int>(i + 1);
  const char* name = name_of(tab.shape);

  // Header lines until the first row that starts with a number; the last header
  // line holds the units ("10^6bits/sec", "per sec").
  std::string units_line;
  std::size_t j = i + 1;
  for (; j < t.lines.size() && !starts_with_number(t.lines[j]); ++j) {
    if (!scan::trim(t.lines[j]).empty()) units_line = t.lines[j];
    if (j - i > 8)
      t.fail(tab.line, std::string("netperf ") + name + " table: no result row below its header");
  }
  if (j == t.lines.size())
    t.fail(static_cast<int>(t.lines.size()), std::string("netperf ") + name + " table starting at line " +
                                                 std::to_string(tab.line) +
                                                 " has no result row (truncated output?)");
  const int ln = static_cast<int>(j + 1);
  double unit = 1e6;
  if (tab.shape != Shape::kRequestResponse) {
    const auto w = scan::words(units_line);
    std::optional<double> found;
    for (auto word : w)
      if ((found = bits_per_unit(word))) break;
    if (!found)
      t.fail(ln - 1, std::string("netperf ") + name + " table: no throughput unit in " + t.quote(ln - 1));
    unit = *found;
  }

  switch (tab.shape) {
    case Shape::kRequestResponse: {
      auto v = row(t.lines[j], 6);
      if (!v)
        t.fail(ln,
               "netperf request/response table: expected 6 numbers (socket sizes, request, response, "
               "elapsed, rate), found " +
                   t.quote(ln));
      tab.local_socket = whole((*v)[0]);
      tab.request_size = whole((*v)[2]);
      tab.response_size = whole((*v)[3]);
      tab.elapsed_s = (*v)[4];
      tab.transaction_rate = (*v)[5];
      // netperf prints the remote socket sizes on a second row; it may be missing in a copy.
      if (j + 1 < t.lines.size()) {
        auto remote = row(t.lines[j + 1], 2);
        if (remote && scan::words(t.lines[j + 1]).size() == 2) ++j;
      }
      break;
    }
    case Shape::kStream: {
      auto v = row(t.lines[j], 5);
      if (!v)
        t.fail(ln,
               "netperf STREAM table: expected 5 numbers (recv socket, send socket, message, elapsed, "
               "throughput), found " +
                   t.quote(ln));
      tab.remote_socket = whole((*v)[0]);
      tab.local_socket = whole((*v)[1]);
      tab.message_size = whole((*v)[2]);
      tab.elapsed_s = (*v)[3];
      tab.throughput_bps = (*v)[4] * unit;
      break;
    }
    case Shape::kUdpStream: {
      auto v = row(t.lines[j], 6);
      if (!v)
        t.fail(ln,
               "netperf UDP_STREAM table: expected 6 numbers on the sender row (socket, message, elapsed, "
               "okay, errors, throughput), found " +
                   t.quote(ln));
      tab.local_socket = whole((*v)[0]);
      tab.message_size = whole((*v)[1]);
      tab.elapsed_s = (*v)[2];
      tab.sent = whole((*v)[3]);
      tab.send_errors = whole((*v)[4]);
      tab.throughput_bps = (*v)[5] * unit;
      // The receiver row is what makes loss known; without it the run is incomplete.
      std::size_t k = j + 1;
      while (k < t.lines.size() && scan::trim(t.lines[k]).empty()) ++k;
      auto r = k < t.lines.size() ? row(t.lines[k], 4) : std::nullopt;
      if (!r)
        t.fail(k < t.lines.size() ? static_cast<int>(k + 1) : static_cast<int>(t.lines.size()),
               "netperf UDP_STREAM table: the receiver row (socket, elapsed, messages received, throughput) "
               "is missing after line " +
                   std::to_string(ln) + " (truncated output?)");
      tab.remote_socket = whole((*r)[0]);
      tab.received = whole((*r)[2]);
      tab.received_bps = (*r)[3] * unit;
      j = k;
      break;
    }
  }
  if (tab.elapsed_s <= 0) t.fail(ln, std::string("netperf ") + name + " table: elapsed time is not positive");
  i = j;
  return tab;
}

}  // namespace labgate::tools::netperf

// The pieces of netperf output, each read by its own file: the -v 2 decade
// histogram and the classic result tables (private to src/tools).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "labgate/stats/histogram.h"
#include "labgate/tools/tool_text.h"

namespace labgate::tools::netperf {

/// netperf's -v 2 histogram: 8 decade rows (UNIT_USEC .. TEN_SEC) of 10 buckets.
struct DecadeHistogram {
  enum class Of { kRequestResponse, kSend, kOther };
  Of of = Of::kOther;
  int line = 0;        ///< the "Histogram of ..." line
  int total_line = 0;  ///< the HIST_TOTAL line
  std::array<std::array<std::uint64_t, 10>, 8> counts{};
  std::uint64_t over_100s = 0;
  std::uint64_t total = 0;
};

/// Reads the block whose "Histogram of" line is lines[i]; leaves i on HIST_TOTAL.
/// Checks every row is there with 10 counts and that HIST_TOTAL is their sum.
/// Annotations a person added ("**820") are removed and reported in `notes`.
DecadeHistogram read_histogram(const ToolText& t, std::size_t& i, std::vector<std::string>& notes);

/// Records every bucket into `into` at its upper edge (the conservative end), or
/// at `max_ns` for the bucket that holds the exact maximum netperf reported, and
/// one sample at `min_ns` in the bucket that holds netperf's exact minimum.
void load_histogram(const DecadeHistogram& h, std::optional<double> min_ns, std::optional<double> max_ns,
                    stats::Histogram& into);

/// A classic (non -k) netperf result table.
struct Table {
  enum class Shape { kRequestResponse, kStream, kUdpStream };
  Shape shape = Shape::kStream;
  int line = 0;  ///< first header line
  double elapsed_s = 0;
  // kRequestResponse
  double transaction_rate = 0;  ///< per second
  std::uint64_t request_size = 0, response_size = 0;
  // kStream / kUdpStream (sender row)
  std::uint64_t message_size = 0;
  double throughput_bps = 0;
  std::uint64_t local_socket = 0, remote_socket = 0;
  // kUdpStream
  std::uint64_t sent = 0, send_errors = 0, received = 0;
  double received_bps = 0;
};

/// Whether lines[i] starts a result table ("Recv Send Send", "Local /Remote", "Socket Message ...").
bool is_table_start(std::string_view line);

/// Reads the table starting at lines[i]; leaves i on its last data line.
Table read_table(const ToolText& t, std::size_t& i);

/// Bits per second in one unit netperf prints ("10^6bits/sec", "10^9bits/s",
/// "KBytes/sec", "bits/s"...); nullopt for an unknown unit.
std::optional<double> bits_per_unit(std::string_view unit);

/// One value of netperf's omni output selectors, under its -k name.
struct OmniValue {
  std::string key, value;
  int line = 0;
};
/// Whether `line` opens `-- -o` CSV or `-- -O` column output (its first title is netperf's).
bool is_omni_header(std::string_view line);
/// Reads the block that starts at lines[i]; leaves i on its values line.
std::vector<OmniValue> read_omni(const ToolText& t, std::size_t& i, std::vector<std::string>& notes);

}  // namespace labgate::tools::netperf

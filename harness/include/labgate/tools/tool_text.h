// A tool's saved or captured output as clean numbered lines, and the error every
// tool parser throws: it always names the file (or stream) and the line at fault.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace labgate::tools {

/// Tool outputs worth parsing are kilobytes (a 6-hour iperf3 -J run is ~30 MiB);
/// anything larger is refused before it is held in memory twice.
inline constexpr std::size_t kMaxToolOutputBytes = 64u << 20;

/// Why a parse failed: the text is not what the tool prints, the tool itself
/// reported a failure, or the tool could not reach its server (worth a retry
/// while the server is still starting).
enum class ParseFailure { kMalformed, kToolFailed, kServerUnreachable };

/// "results/x.txt:12: HIST_TOTAL is 10 but the buckets add up to 9". Line 0 means
/// the whole input (empty, too large, unreadable).
class ParseError : public std::runtime_error {
 public:
  ParseError(std::string origin, int line, std::string reason, ParseFailure kind = ParseFailure::kMalformed);
  const std::string& origin() const { return origin_; }
  int line() const { return line_; }
  const std::string& reason() const { return reason_; }
  ParseFailure kind() const { return kind_; }

 private:
  std::string origin_;
  int line_;
  std::string reason_;
  ParseFailure kind_;
};

/// Output split into lines with terminal noise removed: ANSI escape sequences
/// (sockperf colours its summary), carriage returns, and non-breaking spaces
/// (copied from web pages and PDFs, as in the seeds) become plain spaces.
struct ToolText {
  std::string origin;              ///< file path, or e.g. "sockperf stdout on a"
  std::vector<std::string> lines;  ///< lines[0] is line 1
  std::string raw;                 ///< the text as given (JSON parsers need it whole)

  /// Line `n` (1-based) as a short printable quote for messages.
  std::string quote(int n) const;
  /// Throws ParseError at line `n`.
  [[noreturn]] void fail(int n, const std::string& reason,
                         ParseFailure kind = ParseFailure::kMalformed) const;
};

/// Splits `raw`; throws ParseError (line 0) when it is larger than `limit` bytes.
ToolText text_from_string(std::string origin, std::string raw, std::size_t limit = kMaxToolOutputBytes);

/// Reads a file; throws ParseError (line 0) when it cannot be read, is empty or is
/// larger than `limit` (checked before reading it).
ToolText read_tool_file(const std::string& path, std::size_t limit = kMaxToolOutputBytes);

/// Removes ANSI escape sequences (CSI "ESC [ ... final", and two-byte ESC x).
std::string strip_ansi(std::string_view s);

}  // namespace labgate::tools

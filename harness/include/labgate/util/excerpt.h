// A piece of untrusted remote output (a probe's or a tool's stdout/stderr) made
// safe to put in an error message: bounded in size, control and non-UTF-8 bytes
// escaped, so megabytes of binary garbage never reach a log, a terminal or the
// JUnit XML verbatim.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace labgate {

/// At most `max_bytes` of `text` (trimmed of surrounding whitespace), with each
/// byte outside printable ASCII shown as \xNN and tabs and newlines as \t, \n
/// (both kept as they are with `keep_newlines`); when cut, ends with
/// "... (N bytes in all)".
std::string excerpt(std::string_view text, std::size_t max_bytes = 300, bool keep_newlines = false);

}  // namespace labgate

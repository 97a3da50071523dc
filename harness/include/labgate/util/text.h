// Whitespace trimming and the first meaningful line of a command's output: what
// every parser of remote output needs, in one place.
#pragma once

#include <string>
#include <string_view>

namespace labgate::util {

/// `s` without leading and trailing white space (space, tab, CR, LF, VT, FF).
std::string trim(std::string_view s);

/// The first line of `text` that is not blank, trimmed; "" when there is none
/// (what a one-line error message quotes of a command's output).
std::string first_nonblank_line(std::string_view text);

}  // namespace labgate::util

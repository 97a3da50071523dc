// POSIX shell quoting: every remote command is built from an argv, so nothing
// from a profile (paths, names, arguments) is ever interpreted by the remote shell.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace labgate::transport {

/// Quotes one word for a POSIX shell (bash 3.2 on RHEL 5 included): the result
/// always expands to exactly `word`, whatever bytes it holds ($(), `, ", ', \n).
std::string shell_quote(std::string_view word);

/// Joins argv into one command line, each word quoted. Throws std::invalid_argument
/// on an empty argv or a word holding a NUL byte (a shell cannot pass one).
std::string shell_join(const std::vector<std::string>& argv);

/// argv that runs a fixed shell `script` with `args` as "$1", "$2", ...: the way to
/// use pipes or redirections without pasting data into the script text.
std::vector<std::string> sh_argv(std::string script, const std::vector<std::string>& args = {});

}  // namespace labgate::transport

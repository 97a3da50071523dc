// POSIX shell quoting of argv words for remote command lines.
#include "labgate/transport/shell_quote.h"

#include <stdexcept>

namespace labgate::transport {

std::string shell_quote(std::string_view word) {
  // Words made only of these need no quotes; anything else goes in single quotes,
  // inside which a shell treats every byte literally except the quote itself.
  constexpr std::string_view kSafe =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+.,/:@%";
  // '=' is left out: `A=b cmd` as a first word would be an assignment, not a program.
  if (!word.empty() && word.find_first_not_of(kSafe) == std::string_view::npos) {
    return std::string(word);
  }
  std::string out = "'";
  for (char c : word) {
    if (c == '\'') {
      out += "'\\''";  // close, an escaped quote, reopen
    } else {
      out += c;
    }
  }
  out += '\'';
  return out;
}

std::string shell_join(const std::vector<std::string>& argv) {
  if (argv.empty()) throw std::invalid_argument("empty command (argv has no program)");
  std::string line;
  for (const auto& word : argv) {
    if (word.find('\0') != std::string::npos) {
      throw std::invalid_argument("argument holds a NUL byte, which no shell can pass: " +
                                  shell_quote(word.substr(0, word.find('\0'))) + "\\0...");
    }
    if (!line.empty()) line += ' ';
    line += shell_quote(word);
  }
  return line;
}

std::vector<std::string> sh_argv(std::string script, const std::vector<std::string>& args) {
  std::vector<std::string> argv{"/bin/sh", "-c", std::move(script), "labgate-sh"};
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

}  // namespace labgate::transport

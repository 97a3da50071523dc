// wrapper = "onload --profile=latency" and preload = "libxlio.so": the command
// prefix a test's tool or probe runs under and the LD_PRELOAD library the built-in
// probes must be seen to have mapped (kernel-bypass stacks).
#include <algorithm>
#include <sstream>

#include "sections.h"

namespace labgate::profile::detail {
namespace {

// Characters a shell would act on: a wrapper is an argv prefix, never shell text
// (each word reaches the host quoted, so these would only arrive literally).
bool shell_special(char c) {
  return std::string_view(";&|$`<>(){}*?!'\"\\#~[]").find(c) != std::string_view::npos;
}

bool printable(char c) { return c > ' ' && c < 0x7f; }

}  // namespace

void read_launch_keys(TableReader& r, TestSpec& s) {
  if (auto v = r.get_string("wrapper")) {
    std::istringstream in(*v);
    std::vector<std::string> words;
    for (std::string w; in >> w;) words.push_back(w);
    const auto bad_word = std::find_if(words.begin(), words.end(), [](const std::string& w) {
      return !std::all_of(w.begin(), w.end(), printable) || std::any_of(w.begin(), w.end(), shell_special);
    });
    if (words.empty() || words.size() > 16)
      r.diag().error(r.get("wrapper")->pos, r.key_path("wrapper"),
                     "expected a command prefix of 1 to 16 words, like \"onload --profile=latency\"");
    else if (words[0][0] == '-')
      r.diag().error(r.get("wrapper")->pos, r.key_path("wrapper"),
                     "must start with a command, not the option \"" + words[0] + "\"");
    else if (bad_word != words.end())
      r.diag().error(
          r.get("wrapper")->pos, r.key_path("wrapper"),
          "\"" + *bad_word +
              "\" is not a plain word: a wrapper is split at spaces into a command and its options "
              "(no shell quoting, variables or redirection; --option=value and NAME=value are fine)");
    else
      s.wrapper = words;
  }
  if (auto v = r.get_string("preload")) {
    const std::string& p = *v;
    const bool chars = !p.empty() && std::all_of(p.begin(), p.end(), [](char c) {
      return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
             c == '_' || c == '-' || c == '+' || c == '/';
    });
    const std::string base = p.substr(p.rfind('/') + 1);
    if (!chars || p.find("..") != std::string::npos || base.find(".so") == std::string::npos ||
        (p.find('/') != std::string::npos && p[0] != '/'))
      r.diag().error(r.get("preload")->pos, r.key_path("preload"),
                     "expected one shared library, by file name or absolute path, like \"libxlio.so\" or "
                     "\"/usr/lib64/libonload.so\"");
    else
      s.preload = p;
  }
}

}  // namespace labgate::profile::detail

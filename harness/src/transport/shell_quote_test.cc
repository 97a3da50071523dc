// shell_quote against real shells: every hostile word must come back byte for
// byte from both dash (/bin/sh on Debian) and bash (/bin/sh on RHEL 5).
#include "labgate/transport/shell_quote.h"

#include <gtest/gtest.h>

#include <random>
#include <stdexcept>

#include "labgate/profile/profile.h"
#include "local_transport.h"

namespace labgate::transport {
namespace {

// Runs `printf '%s\0' <quoted words>` through `shell` and splits what comes back.
std::vector<std::string> round_trip(const std::string& shell, const std::vector<std::string>& words) {
  profile::Host local;
  local.name = "local";
  local.address = "local";
  LocalTransport t(local);
  std::vector<std::string> argv{"printf", "%s\\0"};
  argv.insert(argv.end(), words.begin(), words.end());
  RunResult r = t.run({shell, "-c", shell_join(argv)}, {});
  EXPECT_EQ(r.exit_status, 0) << r.err;
  std::vector<std::string> back;
  std::size_t start = 0;
  for (std::size_t i = 0; i < r.out.size(); ++i) {
    if (r.out[i] == '\0') {
      back.push_back(r.out.substr(start, i - start));
      start = i + 1;
    }
  }
  return back;
}

const std::vector<std::string> kHostile = {"plain",
                                           "with space",
                                           "two  spaces",
                                           "tab\there",
                                           "new\nline",
                                           "trailing\n",
                                           "'",
                                           "''",
                                           "it's",
                                           "\"double\"",
                                           "$(touch /tmp/labgate-pwned)",
                                           "`touch /tmp/labgate-pwned`",
                                           "$HOME",
                                           "${IFS}",
                                           "a;b",
                                           "a|b",
                                           "a&b",
                                           "a>b",
                                           "<in",
                                           "*",
                                           "?",
                                           "[a-z]",
                                           "~",
                                           "~root",
                                           "#comment",
                                           "\\",
                                           "\\'",
                                           "!bang",
                                           "A=b",
                                           "-n",
                                           "--",
                                           "é ünïcode",
                                           "\x01\x7f\xff",
                                           "%s%n",
                                           "a\r\nb",
                                           "{a,b}",
                                           "' ; rm -rf / ; '"};

TEST(ShellQuote, HostileWordsSurviveDash) { EXPECT_EQ(round_trip("/bin/dash", kHostile), kHostile); }

TEST(ShellQuote, HostileWordsSurviveBash) { EXPECT_EQ(round_trip("/bin/bash", kHostile), kHostile); }

TEST(ShellQuote, EmptyWordIsKept) {
  const std::vector<std::string> words{"", "x", ""};
  EXPECT_EQ(round_trip("/bin/sh", words), words);
}

TEST(ShellQuote, RandomBytesSurvive) {
  std::mt19937 rng(20240601);
  std::uniform_int_distribution<int> byte(1, 255), len(0, 40);
  std::vector<std::string> words;
  for (int i = 0; i < 300; ++i) {
    std::string w;
    for (int n = len(rng); n > 0; --n) w += static_cast<char>(byte(rng));
    words.push_back(w);
  }
  EXPECT_EQ(round_trip("/bin/bash", words), words);
  EXPECT_EQ(round_trip("/bin/dash", words), words);
}

TEST(ShellQuote, SafeWordsStayReadable) {
  EXPECT_EQ(shell_quote("/tmp/labgate-x.1/probe"), "/tmp/labgate-x.1/probe");
  EXPECT_EQ(shell_quote("--self-digest"), "--self-digest");
  EXPECT_EQ(shell_quote("A=b"), "'A=b'");  // would be an assignment as a first word
  EXPECT_EQ(shell_quote("it's"), "'it'\\''s'");
  EXPECT_EQ(shell_quote(""), "''");
}

TEST(ShellQuote, JoinRefusesWhatNoShellCanPass) {
  EXPECT_THROW(shell_join({}), std::invalid_argument);
  EXPECT_THROW(shell_join({"echo", std::string("a\0b", 3)}), std::invalid_argument);
}

TEST(ShellQuote, ShArgvPassesDataAsPositionalParameters) {
  const auto argv = sh_argv("printf '%s|' \"$@\"", {"$(id)", "a b"});
  ASSERT_EQ(argv.size(), 6u);
  EXPECT_EQ(argv[0], "/bin/sh");
  profile::Host local;
  local.name = "local";
  local.address = "local";
  LocalTransport t(local);
  EXPECT_EQ(t.run(argv, {}).out, "$(id)|a b|");
}

}  // namespace
}  // namespace labgate::transport

// The ssh_config subset on real file text: first value wins, patterns,
// negation, %h and ~, Match/Include noted, bad values named by file:line.
#include "ssh_config.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <sstream>

#include "labgate/util/exit_code.h"

namespace labgate::transport {
namespace {

SshConfig parse(const std::string& text) {
  std::istringstream in(text);
  return SshConfig::parse(in, "/cfg");
}

const char* kConfig = R"(# operator's config
Host mdp7a mdp7b
    HostName %h.dc1.example.net
    User perfops
    Port 2200
Host mdp7b
    HostName other.example.net   # never used: mdp7a mdp7b gave HostName first
    IdentityFile ~/.ssh/id_mdp
Host *.example.net !nojump.example.net
  ProxyJump=perfops@bastion:22
Host nojump.example.net
  UserKnownHostsFile "~/.ssh/known hosts"
Match user nobody
  User wrong
Host *
  User fallback
  IdentityFile %d/.ssh/id_default
  Include ~/.ssh/more.conf
)";

TEST(SshConfig, AliasResolvesWithFirstValueWinning) {
  setenv("HOME", "/home/op", 1);
  const SshConfig c = parse(kConfig);
  const SshConfigEntry a = c.lookup("mdp7b");
  ASSERT_TRUE(a.hostname);
  EXPECT_EQ(a.hostname->value, "mdp7b.dc1.example.net");
  EXPECT_EQ(a.hostname->origin, "/cfg:3");
  EXPECT_EQ(a.user->value, "perfops");
  EXPECT_EQ(a.port->value, "2200");
  EXPECT_EQ(a.identity_file->value, "/home/op/.ssh/id_mdp");
  EXPECT_EQ(a.identity_file->origin, "/cfg:8");
  EXPECT_FALSE(a.proxy_jump);  // the alias, not its HostName, is matched (as OpenSSH does)
  ASSERT_EQ(a.notes.size(), 2u);
  EXPECT_NE(a.notes[0].find("/cfg:13: a Match block"), std::string::npos);
  EXPECT_NE(a.notes[1].find("/cfg:18: Include is not followed"), std::string::npos);
}

TEST(SshConfig, PatternsNegationQuotesAndEquals) {
  setenv("HOME", "/home/op", 1);
  const SshConfig c = parse(kConfig);
  const SshConfigEntry j = c.lookup("x.example.net");
  ASSERT_TRUE(j.proxy_jump);
  EXPECT_EQ(j.proxy_jump->value, "perfops@bastion:22");
  EXPECT_EQ(j.user->value, "fallback");
  EXPECT_EQ(j.identity_file->value, "/home/op/.ssh/id_default");
  const SshConfigEntry n = c.lookup("nojump.example.net");
  EXPECT_FALSE(n.proxy_jump);
  EXPECT_EQ(n.user_known_hosts_file->value, "/home/op/.ssh/known hosts");
  EXPECT_FALSE(c.lookup("MDP7A.other").hostname);
  EXPECT_TRUE(c.lookup("MDP7A").hostname);  // host names match case-insensitively
}

TEST(SshConfig, BadValuesNameFileAndLine) {
  try {
    parse("Host a\n  Port 99999\n").lookup("a");
    FAIL() << "no error";
  } catch (const Failure& f) {
    EXPECT_NE(std::string(f.what()).find("/cfg:2: Port \"99999\" is not a port"), std::string::npos)
        << f.what();
  }
  EXPECT_THROW(parse("Host a\n  User\n"), Failure);
  EXPECT_THROW(parse("Host a\n  HostName \"x\n"), Failure);
  EXPECT_THROW(parse("Host a\n  HostName %r.x\n").lookup("a"), Failure);
  EXPECT_THROW(SshConfig::load("/nonexistent/ssh_config"), Failure);
  EXPECT_FALSE(parse("Host a\n  Port 22\n").lookup("b").port);
}

}  // namespace
}  // namespace labgate::transport

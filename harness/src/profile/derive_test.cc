// Deriving a profile by setting values where the parser found them: everything
// else kept byte for byte, types kept, and every bad key or value named.
#include "labgate/profile/derive.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "labgate/profile/load.h"
#include "labgate/util/exit_code.h"

namespace labgate::profile {
namespace {

using ::testing::HasSubstr;

const char* kText =
    "# a lab pair\n"
    "[lab]\n"
    "name = \"lab-pair1\"            # the lease\n"
    "[defaults.ssh]\n"
    "port = 22\n"
    "identity = '../.lab/pair1/id_rsa'\n"
    "legacy_algorithms = false\n"
    "[hosts.a]\n"
    "address = \"198.18.0.2\"  # mgmt0 — in lg-a\n"
    "test_address = { direct = \"198.19.1.1\" }\n"
    "[preconditions.sysctl]\n"
    "\"net.ipv4.tcp_sack\" = 0\n";

std::string derive(std::vector<KeySetting> s) { return derive_profile_text(kText, "t.toml", s); }

std::string derive_error(std::vector<KeySetting> s) {
  try {
    derive(std::move(s));
  } catch (const Failure& f) {
    EXPECT_EQ(f.code(), ExitCode::kUsageError);
    return f.what();
  }
  return "no error";
}

TEST(DeriveProfile, SetsValuesWhereTheParserFoundThemAndKeepsEverythingElse) {
  const std::string out = derive({{"lab.name", "lab-pair7"},
                                  {"hosts.a.address", "198.18.0.50"},
                                  {"defaults.ssh.identity", "/work/x/.lab/pair7/id_rsa"},
                                  {"defaults.ssh.port", "2222"},
                                  {"defaults.ssh.legacy_algorithms", "true"},
                                  {"preconditions.sysctl.\"net.ipv4.tcp_sack\"", "1"}});
  std::string want = kText;
  auto swap = [&](const std::string& from, const std::string& to) { want.replace(want.find(from), from.size(), to); };
  swap("\"lab-pair1\"", "\"lab-pair7\"");
  swap("\"198.18.0.2\"", "\"198.18.0.50\"");
  swap("'../.lab/pair1/id_rsa'", "\"/work/x/.lab/pair7/id_rsa\"");
  swap("port = 22", "port = 2222");
  swap("legacy_algorithms = false", "legacy_algorithms = true");
  swap("\"net.ipv4.tcp_sack\" = 0", "\"net.ipv4.tcp_sack\" = 1");
  EXPECT_EQ(out, want);
}

TEST(DeriveProfile, StringsAreQuotedAndEscaped) {
  const std::string out = derive({{"lab.name", "a \"quoted\" \\ name"}});
  EXPECT_THAT(out, HasSubstr("name = \"a \\\"quoted\\\" \\\\ name\"            # the lease\n"));
}

TEST(DeriveProfile, ValuesAfterNonAsciiTextOnTheirLineLandInPlace) {
  const std::string text = "[lab]\ndescription = \"µs — lab\"\nname = \"x\"\n[hosts.a]\naddress = \"é\" \n";
  const std::string out =
      derive_profile_text(text, "u.toml", {{"lab.description", "ns"}, {"hosts.a.address", "198.18.0.2"}});
  EXPECT_EQ(out, "[lab]\ndescription = \"ns\"\nname = \"x\"\n[hosts.a]\naddress = \"198.18.0.2\" \n");
}

TEST(DeriveProfile, BadKeysAndValuesAreNamed) {
  EXPECT_THAT(
      derive_error({{"lab.nmae", "x"}}),
      HasSubstr("t.toml: --set lab.nmae: the profile has no key 'nmae' in lab (did you mean 'name'?)"));
  EXPECT_THAT(derive_error({{"hosts.b.address", "x"}}), HasSubstr("no key 'b' in hosts"));
  EXPECT_THAT(derive_error({{"hosts.a.test_address", "x"}}),
              HasSubstr("t.toml:10:16: --set hosts.a.test_address: the value is a table"));
  EXPECT_THAT(derive_error({{"hosts.a.address.x", "x"}}),
              HasSubstr("hosts.a.address is a string, not a table"));
  EXPECT_THAT(
      derive_error({{"defaults.ssh.port", "22x"}}),
      HasSubstr(
          "t.toml:5:8: --set defaults.ssh.port=22x: the profile's value is an integer, and '22x' is not "
          "an integer"));
  EXPECT_THAT(derive_error({{"defaults.ssh.legacy_algorithms", "yes"}}), HasSubstr("is not true or false"));
  EXPECT_THAT(derive_error({{"lab.name", "a"}, {"lab.name", "b"}}), HasSubstr("set twice"));
  EXPECT_THAT(derive_error({{"lab..name", "a"}}), HasSubstr("empty part in the key"));
  try {
    derive_profile_text("[lab\n", "bad.toml", {{"lab.name", "x"}});
    ADD_FAILURE() << "a syntax error was not reported";
  } catch (const Failure& f) {
    EXPECT_THAT(f.what(), HasSubstr("bad.toml:"));
    EXPECT_THAT(f.what(), HasSubstr("TOML syntax error"));
  }
  EXPECT_THROW(parse_key_setting("lab.name"), Failure);
  EXPECT_EQ(parse_key_setting("a.b=c=d").value, "c=d");
}

}  // namespace
}  // namespace labgate::profile

// known_hosts rules as OpenSSH applies them, on file text: markers, hashed
// names (a line hashed by the real `ssh-keygen -H`), patterns and precedence.
#include "labgate/transport/known_hosts.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace labgate::transport {
namespace {

const std::string kK1 = "AAAAC3NzaC1lZDI1NTE5AAAAIGqYnTwFgkzJJtel+PafDMgyGBfkKgNwY4cdUAO8j7fO";
const std::string kK2 = "AAAAC3NzaC1lZDI1NTE5AAAAICGGtTZPCdebEfpOU4qxhyja6uhZVRMMsu8yLK0WPW1B";
const std::string kRsa =
    "AAAAB3NzaC1yc2EAAAADAQABAAAAgQDIIaXKLWcqi8hemJCDPTZRaStor9JFBBipsHiXEzA0ub10Nudys/NtSqiwj/"
    "Bau1W5r4t5X2UFtVWxol5kHcgr"
    "InmBkDZv2Ro/QvbAkGNKb9X2QPq3JsBtMq8LXFG9iqSN3YRIvwI3LSctvSB814TWnKBS/eXwFFeG4TeKfugRJQ==";
// `ssh-keygen -H` of "[198.18.0.2]:2222 ssh-ed25519 kK1".
const std::string kHashed = "|1|BNW6iU9VZ75VBRpekJHGPUWAzaU=|qXWROffBhVMxHtBCqwzASwy2UdE=";

HostKeyVerdict check(const std::string& file, const std::string& name, const std::string& type,
                     const std::string& key) {
  std::istringstream in(file);
  return check_host_key(parse_known_hosts(in), name, type, key);
}

TEST(KnownHosts, NamesCarryThePortUnless22) {
  EXPECT_EQ(known_hosts_name("h", 22), "h");
  EXPECT_EQ(known_hosts_name("198.18.0.2", 2222), "[198.18.0.2]:2222");
}

TEST(KnownHosts, HashedEntryFromSshKeygenMatchesOnlyItsName) {
  EXPECT_TRUE(host_patterns_match(kHashed, "[198.18.0.2]:2222"));
  EXPECT_FALSE(host_patterns_match(kHashed, "198.18.0.2"));
  EXPECT_FALSE(host_patterns_match("|1|garbage", "198.18.0.2"));
  EXPECT_EQ(check(kHashed + " ssh-ed25519 " + kK1 + "\n", "[198.18.0.2]:2222", "ssh-ed25519", kK1).status,
            HostKeyStatus::kOk);
}

TEST(KnownHosts, WildcardsNegationAndCase) {
  EXPECT_TRUE(host_patterns_match("a,*.lab", "x.lab"));
  EXPECT_TRUE(host_patterns_match("198.18.0.?", "198.18.0.2"));
  EXPECT_FALSE(host_patterns_match("*.lab,!bad.lab", "bad.lab"));
  EXPECT_TRUE(host_patterns_match("HOST.Lab", "host.lab"));
  EXPECT_FALSE(host_patterns_match("host", "[host]:2222"));
  // '[' is literal (OpenSSH's match_pattern), not a glob bracket expression.
  EXPECT_TRUE(host_patterns_match("[198.18.0.94]:2222", "[198.18.0.94]:2222"));
  EXPECT_FALSE(host_patterns_match("[198.18.0.94]:2222", "1"));
  EXPECT_TRUE(wildcard_match("*a*b?", "xxaYYbz"));
  EXPECT_FALSE(wildcard_match("*a*b?", "xxaYYb"));
}

TEST(KnownHosts, RevokedKeyRefusedEvenWithAPlainLineForIt) {
  const std::string f = "h ssh-ed25519 " + kK1 + "\n@revoked * ssh-ed25519 " + kK1 + "\n";
  const HostKeyVerdict v = check(f, "h", "ssh-ed25519", kK1);
  EXPECT_EQ(v.status, HostKeyStatus::kRevoked);
  EXPECT_EQ(v.line, 2);
  // A revoked line for another key does not touch this one.
  EXPECT_EQ(check("h ssh-ed25519 " + kK1 + "\n@revoked * ssh-ed25519 " + kK2 + "\n", "h", "ssh-ed25519", kK1)
                .status,
            HostKeyStatus::kOk);
  // A revoked line alone is not knowledge of the host: the key stays refused.
  EXPECT_EQ(check("@revoked h ssh-ed25519 " + kK1 + "\n", "h", "ssh-ed25519", kK1).status,
            HostKeyStatus::kRevoked);
  EXPECT_EQ(check("@revoked other ssh-ed25519 " + kK1 + "\n", "h", "ssh-ed25519", kK1).status,
            HostKeyStatus::kUnknown);
}

TEST(KnownHosts, ChangedOtherCertAuthorityUnknown) {
  EXPECT_EQ(check("h ssh-ed25519 " + kK2 + "\n", "h", "ssh-ed25519", kK1).status, HostKeyStatus::kChanged);
  // A later exact match wins over an earlier stale line, as in OpenSSH.
  EXPECT_EQ(check("h ssh-ed25519 " + kK2 + "\nh ssh-ed25519 " + kK1 + "\n", "h", "ssh-ed25519", kK1).status,
            HostKeyStatus::kOk);
  EXPECT_EQ(check("h ssh-rsa " + kRsa + "\n", "h", "ssh-ed25519", kK1).status, HostKeyStatus::kOther);
  const HostKeyVerdict ca =
      check("# c\n@cert-authority *.lab ssh-ed25519 " + kK2 + "\n", "a.lab", "ssh-ed25519", kK1);
  EXPECT_EQ(ca.status, HostKeyStatus::kCertAuthorityOnly);
  EXPECT_EQ(ca.line, 2);
  EXPECT_EQ(
      check("\n# only comments\n@weird h ssh-ed25519 " + kK1 + "\nh ssh-ed25519\n", "h", "ssh-ed25519", kK1)
          .status,
      HostKeyStatus::kUnknown);
}

TEST(KnownHosts, AppendCreatesFileAndKeepsLinesApart) {
  const std::string dir = ::testing::TempDir() + "/kh_" + std::to_string(getpid());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directory(dir);  // like $HOME: only ~/.ssh itself is created
  const std::string path = dir + "/ssh/known_hosts";
  EXPECT_EQ(append_known_hosts_line(path, "h ssh-ed25519 " + kK1), "");
  EXPECT_EQ(std::filesystem::status(path).permissions() & std::filesystem::perms::all,
            std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  { std::ofstream(path, std::ios::app) << "x ssh-ed25519 " << kK2; }  // no final newline
  EXPECT_EQ(append_known_hosts_line(path, "y ssh-ed25519 " + kK2), "");
  EXPECT_EQ(check_host_key_file(path, "y", "ssh-ed25519", kK2).status, HostKeyStatus::kOk);
  EXPECT_EQ(check_host_key_file(path, "x", "ssh-ed25519", kK2).status, HostKeyStatus::kOk);
  EXPECT_EQ(check_host_key_file(dir + "/missing", "x", "ssh-ed25519", kK2).status, HostKeyStatus::kUnknown);
  EXPECT_NE(append_known_hosts_line("/proc/nope/known_hosts", "x").find("cannot"), std::string::npos);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace labgate::transport

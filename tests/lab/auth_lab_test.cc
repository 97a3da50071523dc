// Who may talk to whom: host keys verified against the profile's known_hosts
// only, login by the profile's key (with a passphrase from an environment
// variable) — each refusal a clear error with exit 3, through the library and
// through the `labgate` binary.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <fstream>
#include <regex>

#include "lab_env.h"
#include "labgate/util/exit_code.h"

namespace labgate::lab {
namespace {

class AuthOnLab : public LabTest {
 protected:
  // A fresh key pair nobody has seen, in a scratch dir.
  std::string new_key(const std::string& type) {
    const std::string path = temp_dir("key") + "/id_" + type;
    auto r = run_local({"ssh-keygen", "-q", "-t", type, "-N", "", "-f", path});
    EXPECT_TRUE(r.ok()) << r.err;
    return path;
  }
  std::string pub_of(const std::string& key) {
    std::ifstream f(key + ".pub");
    std::string type, blob;
    f >> type >> blob;
    return type + " " + blob;
  }
  std::string write(const std::string& text) {
    const std::string path = temp_dir("kh") + "/known_hosts";
    std::ofstream(path) << text;
    return path;
  }
  std::string fail_with(profile::Host h) {
    auto t = transport::make_transport(h);
    return could_not_run([&] { t->run({"true"}); });
  }
};

TEST_F(AuthOnLab, UnknownHostKeyIsRefusedWithFingerprintAndHowToAccept) {
  profile::Host h = host("a");
  h.ssh.known_hosts = write("");
  std::string msg = fail_with(h);
  EXPECT_NE(msg.find("unknown host key"), std::string::npos) << msg;
  EXPECT_TRUE(std::regex_search(msg, std::regex("SHA256:[A-Za-z0-9+/]{43}"))) << msg;
  EXPECT_NE(msg.find("labgate keyscan PROFILE --write"), std::string::npos) << msg;
  EXPECT_NE(msg.find("or add this line to " + h.ssh.known_hosts), std::string::npos) << msg;
  // The line to add really is the server's key: adding it lets us in.
  const auto line = msg.substr(msg.rfind('\n') + 1);
  ASSERT_EQ(line.rfind("  " + address("a") + " ", 0), 0u) << line;
  std::ofstream(h.ssh.known_hosts) << line.substr(2) << "\n";
  EXPECT_TRUE(transport::make_transport(h)->run({"true"}).ok());

  h.ssh.known_hosts = "/nonexistent/known_hosts";
  msg = fail_with(h);
  EXPECT_NE(msg.find("does not exist or cannot be read"), std::string::npos) << msg;
}

TEST_F(AuthOnLab, ChangedHostKeyIsRefused) {
  // known_hosts holds other keys of every type the server has, for both ports.
  std::string text;
  for (const char* type : {"rsa", "ed25519", "ecdsa"}) {
    const std::string k = pub_of(new_key(type));
    text += address("a") + " " + k + "\n[" + address("a") + "]:2222 " + k + "\n";
  }
  profile::Host h = host("a");
  h.ssh.known_hosts = write(text);
  std::string msg = fail_with(h);
  EXPECT_NE(msg.find("HOST KEY CHANGED"), std::string::npos) << msg;
  EXPECT_NE(msg.find("ssh-keygen -R '" + address("a") + "'"), std::string::npos) << msg;
  h = host("a", 2222, true);
  h.ssh.known_hosts = write(text);
  msg = fail_with(h);
  EXPECT_NE(msg.find("HOST KEY CHANGED"), std::string::npos) << msg;
  EXPECT_NE(msg.find("'[" + address("a") + "]:2222'"), std::string::npos) << msg;
}

TEST_F(AuthOnLab, KeyOfAnotherTypeOnlyIsRefused) {
  profile::Host h = host("b", 2222, true);  // the legacy server has only an RSA host key
  h.ssh.known_hosts = write("[" + address("b") + "]:2222 " + pub_of(new_key("ed25519")) + "\n");
  const std::string msg = fail_with(h);
  EXPECT_NE(msg.find("host key of another type"), std::string::npos) << msg;
}

TEST_F(AuthOnLab, WrongIdentityIsRefused) {
  profile::Host h = host("b");
  h.ssh.identity = new_key("rsa");
  std::string msg = fail_with(h);
  EXPECT_NE(msg.find("login refused for user root"), std::string::npos) << msg;
  EXPECT_NE(msg.find(*h.ssh.identity), std::string::npos) << msg;
  h.ssh.identity = "/nonexistent/id_rsa";
  msg = fail_with(h);
  EXPECT_NE(msg.find("does not exist or cannot be read"), std::string::npos) << msg;
}

TEST_F(AuthOnLab, PassphraseComesOnlyFromTheNamedVariableAndIsNeverShown) {
  std::ifstream f(state_dir() + "/passphrase");
  std::string pass;
  std::getline(f, pass);
  ASSERT_FALSE(pass.empty());
  profile::Host h = host("a");
  h.ssh.identity = state_dir() + "/id_rsa_pass";
  h.ssh.passphrase_env = "LABGATE_TEST_PASSPHRASE";
  unsetenv("LABGATE_TEST_PASSPHRASE");
  std::string msg = fail_with(h);
  EXPECT_NE(msg.find("LABGATE_TEST_PASSPHRASE"), std::string::npos) << msg;
  EXPECT_NE(msg.find("is not set"), std::string::npos) << msg;
  setenv("LABGATE_TEST_PASSPHRASE", "wrong-passphrase", 1);
  msg = fail_with(h);
  EXPECT_NE(msg.find("passphrase in $LABGATE_TEST_PASSPHRASE is wrong"), std::string::npos) << msg;
  EXPECT_EQ(msg.find("wrong-passphrase"), std::string::npos) << "the passphrase leaked: " << msg;
  setenv("LABGATE_TEST_PASSPHRASE", pass.c_str(), 1);
  EXPECT_TRUE(transport::make_transport(h)->run({"true"}).ok());
  unsetenv("LABGATE_TEST_PASSPHRASE");
  // Without passphrase_env a protected key says how to provide one.
  h.ssh.passphrase_env.reset();
  msg = fail_with(h);
  EXPECT_NE(msg.find("passphrase_env"), std::string::npos) << msg;
}

TEST_F(AuthOnLab, WithoutAnIdentityTheAgentLogsIn) {
  const std::string sock = temp_dir("agent") + "/agent.sock";
  auto agent = transport::make_transport([] {
                 profile::Host l;
                 l.name = "local";
                 l.address = "local";
                 return l;
               }())
                   ->start({"ssh-agent", "-D", "-a", sock});
  for (int i = 0; i < 50 && access(sock.c_str(), F_OK) != 0; ++i) usleep(100000);
  setenv("SSH_AUTH_SOCK", sock.c_str(), 1);
  profile::Host h = host("a");
  h.ssh.identity.reset();
  std::string msg = fail_with(h);  // an empty agent
  EXPECT_NE(msg.find("tried every key in ssh-agent"), std::string::npos) << msg;
  ASSERT_TRUE(run_local({"ssh-add", "-q", state_dir() + "/id_rsa"}).ok());
  EXPECT_TRUE(transport::make_transport(h)->run({"true"}).ok());
  unsetenv("SSH_AUTH_SOCK");
  msg = fail_with(h);
  EXPECT_NE(msg.find("SSH_AUTH_SOCK is not set"), std::string::npos) << msg;
  agent->stop(std::chrono::seconds(1));
}

// The same refusals through the real binary: exit code 3 and the message.
TEST_F(AuthOnLab, TheCliExitsThreeOnEachRefusal) {
  const std::string dir = temp_dir("cli");
  auto profile_with = [&](const std::string& ssh_keys) {
    const std::string path = dir + "/p" + std::to_string(scratch_.size()) + std::to_string(rand()) + ".toml";
    std::ofstream(path) << "[lab]\nname = \"labtest-cli\"\n\n[defaults.ssh]\nuser = \"root\"\n"
                        << ssh_keys << "connect_timeout = \"5s\"\n\n[hosts.a]\naddress = \"" << address("a")
                        << "\"\ntest_address = \"198.19.1.1\"\n";
    return path;
  };
  const std::string good_id = "identity = \"" + state_dir() + "/id_rsa\"\n";
  const std::string good_kh = "known_hosts = \"" + state_dir() + "/known_hosts\"\n";
  const std::string empty_kh = dir + "/empty_known_hosts";
  std::ofstream(empty_kh) << "";
  struct Case {
    std::string keys, expect;
  } cases[] = {
      {good_id + good_kh, ""},
      {good_id + "known_hosts = \"" + empty_kh + "\"\n", "unknown host key"},
      {"identity = \"" + new_key("rsa") + "\"\n" + good_kh, "login refused"},
  };
  for (const auto& c : cases) {
    const auto r = run_local({LABGATE_BIN, "lease", "status", profile_with(c.keys)});
    if (c.expect.empty()) {
      EXPECT_EQ(r.exit_status, 0) << r.out << r.err;
    } else {
      EXPECT_EQ(r.exit_status, 3) << r.out << r.err;
      EXPECT_NE(r.err.find(c.expect), std::string::npos) << r.err;
    }
  }
}

}  // namespace
}  // namespace labgate::lab

// SSH transport against the lab's real sshds: port 22 (OpenSSH 9.2 defaults) and
// port 2222 (only what OpenSSH 4.3p2 offers) with legacy_algorithms.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include <fstream>
#include <set>
#include <random>

#include "lab_env.h"
#include "labgate/deploy/digest.h"
#include "labgate/transport/shell_quote.h"
#include "labgate/util/exit_code.h"

namespace labgate::lab {
namespace {

using namespace std::chrono_literals;

struct Server {
  int port;
  bool legacy;
};

class SshOnLab : public LabTest, public ::testing::WithParamInterface<Server> {
 protected:
  std::unique_ptr<transport::Transport> connect(const std::string& name = "a") {
    return transport::make_transport(host(name, GetParam().port, GetParam().legacy));
  }
};

TEST_P(SshOnLab, RunsCommandsWithExitCodesAndSeparateStreams) {
  auto t = connect();
  auto r = t->run({"sh", "-c", "echo out; echo err >&2; exit 3"});
  EXPECT_EQ(r.exit_status, 3);
  EXPECT_EQ(r.out, "out\n");
  EXPECT_EQ(r.err, "err\n");  // no trace of the wrapper's process-group line
  EXPECT_GT(r.duration, 0ns);
  r = t->run({"cat", "/proc/sys/net/ipv4/tcp_sack"});
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.out, "0\n");  // the namespace's own sysctl: we really are on host a
  r = t->run({"sh", "-c", "kill -KILL $$"});
  EXPECT_EQ(r.signal, "KILL");
  EXPECT_EQ(r.exit_status, -1);
  r = t->run({"labgate-no-such-command"});
  EXPECT_EQ(r.exit_status, 127);
}

TEST_P(SshOnLab, ArgumentsArriveByteForByte) {
  auto t = connect();
  const std::vector<std::string> hostile{
      "a b", "it's", "$(touch /tmp/labgate-pwned)", "`id`", "new\nline", "\"q\"", "*", "~", ";", "|",
      "",    "\\"};
  std::vector<std::string> argv{"printf", "%s\\0"};
  argv.insert(argv.end(), hostile.begin(), hostile.end());
  auto r = t->run(argv);
  ASSERT_TRUE(r.ok()) << r.err;
  std::vector<std::string> back;
  std::string cur;
  for (char c : r.out) {
    if (c == '\0') {
      back.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  EXPECT_EQ(back, hostile);
  EXPECT_FALSE(t->lstat("/tmp/labgate-pwned"));
}

TEST_P(SshOnLab, OutputToEofEvenWhenItComesAfterTheExitStatus) {
  // A grandchild keeps writing after the command itself has exited: OpenSSH
  // sends exit-status first, the output follows; all of it must be captured.
  auto t = connect();
  auto r = t->run({"sh", "-c", "(sleep 0.5; echo late) & echo early; exit 5"});
  EXPECT_EQ(r.exit_status, 5);
  EXPECT_EQ(r.out, "early\nlate\n");
}

TEST_P(SshOnLab, UploadsFiveMebibytesAndVerifiesThem) {
  auto t = connect();
  std::string data(5u << 20, '\0');
  std::mt19937_64 rng(GetParam().port);
  for (auto& c : data) c = static_cast<char>(rng());
  const std::string path = "/tmp/labgate-labtest-upload-" + deploy::random_token(6);
  t->upload_data(data, path, 0640);
  auto info = t->lstat(path);
  ASSERT_TRUE(info);
  EXPECT_EQ(info->size, data.size());
  EXPECT_EQ(info->mode, 0640u);
  EXPECT_EQ(t->read_file(path, 6u << 20), data);
  auto sum = t->run({"sha256sum", path});
  EXPECT_EQ(sum.out.substr(0, 64), deploy::sha256_hex(data));
  EXPECT_THROW(t->upload_data("x", path, 0600), Failure);  // never overwritten
  t->run({"rm", "-f", path});
}

// Into a private directory a file is written in place (issue 23: no part file,
// chmod and rename, two round trips fewer), still never over an existing name
// or through a planted symlink, and whole (past one 192 KiB SFTP write).
TEST_P(SshOnLab, UploadsIntoAPrivateDirectoryInPlace) {
  auto t = connect();
  const std::string dir = "/tmp/labgate-labtest-private-" + deploy::random_token(6);
  ASSERT_TRUE(t->run({"mkdir", "-m", "0700", dir}).ok());
  std::string data(300 * 1024, '\0');
  std::mt19937_64 rng(GetParam().port + 1);
  for (auto& c : data) c = static_cast<char>(rng());
  const std::string path = dir + "/probe";
  t->upload_data_to_private_dir(data, path, 0700);
  EXPECT_EQ(t->run({"ls", "-A", dir}).out, "probe\n") << "a temporary name was used or left";
  auto info = t->lstat(path);
  ASSERT_TRUE(info);
  EXPECT_EQ(info->size, data.size());
  EXPECT_EQ(info->mode, 0700u);  // asked at its creation (the lab sshd's umask 022 keeps it)
  EXPECT_EQ(t->run({"sha256sum", path}).out.substr(0, 64), deploy::sha256_hex(data));
  const std::string msg = could_not_run([&] { t->upload_data_to_private_dir("x", path, 0700); });
  EXPECT_NE(msg.find(path + " already exists (never overwritten)"), std::string::npos) << msg;
  const std::string target = dir + "/target", link = dir + "/planted";
  ASSERT_TRUE(t->run({"sh", "-c", "echo keep > \"$1\" && ln -s \"$1\" \"$2\"", "sh", target, link}).ok());
  EXPECT_THROW(t->upload_data_to_private_dir("x", link, 0700), Failure);
  EXPECT_EQ(t->read_file(target), "keep\n") << "written through a planted symlink";
  t->run({"rm", "-rf", dir});
}

TEST_P(SshOnLab, OneSessionServesEveryCommand) {
  auto t = connect("b");
  const std::string log = state_dir() + "/sshd-b-" + std::to_string(GetParam().port) + ".log";
  // Logins counted by client port: OpenSSH 4.3p2 with privilege separation logs
  // "Accepted publickey ... port P" twice for one login (monitor and child).
  auto accepted = [&] {
    std::ifstream f(log);
    std::set<std::string> logins;
    for (std::string line; std::getline(f, line);)
      if (auto at = line.find("Accepted publickey"); at != std::string::npos) logins.insert(line.substr(at));
    return static_cast<int>(logins.size());
  };
  const int before = accepted();
  for (int i = 0; i < 20; ++i) ASSERT_TRUE(t->run({"true"}).ok());
  t->upload_data("x", "/tmp/labgate-labtest-one-" + deploy::random_token(6), 0600);
  EXPECT_EQ(accepted() - before, 1) << "each command logged in again (" << log << ")";
  t->run(transport::sh_argv("rm -f /tmp/labgate-labtest-one-*"));
}

// The run's one connection also carries the lease's heartbeat: a short command
// from another thread runs while a long one waits, on the same session (both
// against OpenSSH 4.3's legacy algorithms too), and neither logs in again.
TEST_P(SshOnLab, AShortCommandRunsBesideALongOneOnTheSameConnection) {
  auto t = connect("b");
  ASSERT_TRUE(t->run({"true"}).ok());  // connected
  std::atomic<bool> long_done{false};
  std::thread long_one([&] {
    EXPECT_TRUE(t->run({"sleep", "2"}).ok());
    long_done = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the sleep is running
  const auto r = t->run({"echo", "beat"});
  const bool overtook = !long_done;
  long_one.join();
  EXPECT_TRUE(r.ok()) << r.describe() << r.err;
  EXPECT_EQ(r.out, "beat\n");
  EXPECT_TRUE(overtook) << "the short command waited for the long one to end";
}

INSTANTIATE_TEST_SUITE_P(Servers, SshOnLab, ::testing::Values(Server{22, false}, Server{2222, true}),
                         [](const auto& info) { return info.param.port == 22 ? "modern" : "legacy"; });

class LegacyServer : public LabTest {};

TEST_F(LegacyServer, WithoutLegacyAlgorithmsTheErrorSaysWhatToSet) {
  auto t = transport::make_transport(host("a", 2222, false));
  const std::string msg = could_not_run([&] { t->run({"true"}); });
  EXPECT_NE(msg.find("host a (root@" + address("a") + ":2222)"), std::string::npos) << msg;
  EXPECT_NE(msg.find("key exchange (KexAlgorithms)"), std::string::npos) << msg;
  EXPECT_NE(msg.find("diffie-hellman-group1-sha1"), std::string::npos) << msg;
  EXPECT_NE(msg.find("legacy_algorithms = true"), std::string::npos) << msg;
}

TEST_F(LegacyServer, LegacyAlgorithmsStillTalkToAModernServer) {
  auto t = transport::make_transport(host("a", 22, true));
  EXPECT_TRUE(t->run({"true"}).ok());
}

}  // namespace
}  // namespace labgate::lab

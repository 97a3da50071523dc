// The probe on a hostile recorded root: a FIFO where a file should be, a
// symlink loop, a 3 MiB file, binary garbage, absolute symlinks pointing out of
// the root, odd process names. It must finish, print valid JSON and say what
// was wrong where, never hang, crash or read outside the root.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "probe_runner.h"

namespace labgate::facts_fixture {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

void put(const fs::path& p, const std::string& content) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << content;
}

class HostileRoot : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::path(::testing::TempDir()) / ("hostile-" + std::to_string(getpid()));
    fs::remove_all(root_);
    fs::create_directories(root_ / "proc/sys/kernel");
    ASSERT_EQ(mkfifo((root_ / "proc/cmdline").c_str(), 0600), 0);  // would block a plain read
    fs::create_symlink("loop2", root_ / "proc/sys/kernel/loop1");
    fs::create_symlink("loop1", root_ / "proc/sys/kernel/loop2");
    fs::create_symlink("loop1", root_ / "proc/sys/kernel/osrelease");
    // An absolute link must resolve inside the root, not to this machine's file.
    put(root_ / "etc/real-release", "Recorded Linux release 1\n");
    fs::create_symlink("/etc/real-release", root_ / "etc/redhat-release");
    fs::create_symlink("/etc/hostname", root_ / "proc/sys/kernel/hostname");  // absent inside the root
    put(root_ / "proc/sys/kernel/version", std::string("\xff\xfe\x00\x01 binary \x80 version", 22));
    put(root_ / "boot/grub/grub.conf",
        "default=7\ntitle only one\nkernel /vmlinuz ro\n" + std::string(3 << 20, 'x'));
    fs::create_directories(root_ / "proc/sys/net/ipv4/tcp_sack");  // a directory, not a file
    put(root_ / "proc/cpuinfo", "processor : 0\nphysical id : banana\ncore id\n\n\n:::\n");
    put(root_ / "proc/4242/stat", "4242 (evil) name) with (parens)) S 1");
    put(root_ / "proc/4242/cmdline", std::string("/bin/\x01\"quoted\"\\\n", 17));
    put(root_ / "etc/modprobe.conf", "options tg3 \"unterminated\noptions\noptions tg3 a=1 b c=\"x y\"\n");
    put(root_ / ".labgate-ioctl/eth1.conf", "mtu=lots\nflags=UP\n=\n");
  }
  void TearDown() override { fs::remove_all(root_); }
  fs::path root_;
};

TEST_F(HostileRoot, FinishesWithValidJsonAndNamesEveryProblem) {
  const ProbeRun run = run_probe({"--root", root_.string(), "--sysctl", "net.ipv4.tcp_sack", "--sysctl",
                                  "kernel.loop1", "--module", "tg3", "--iface", "eth1", "--service", "x"},
                                 "timeout 20");
  ASSERT_EQ(run.exit_code, 0) << run.out.substr(0, 2000);
  const facts::Facts f = facts::parse_facts(run.out, "hostile root");  // throws on invalid JSON or UTF-8
  EXPECT_EQ(f.kernel.cmdline.error, "not a regular file");
  EXPECT_EQ(f.kernel.release.error, "Symbolic link loop");
  EXPECT_EQ(*f.os.redhat_release.value, "Recorded Linux release 1");
  EXPECT_TRUE(f.hostname.missing) << "read " << f.hostname.value.value_or("") << " from outside the root";
  EXPECT_THAT(*f.kernel.version.value, HasSubstr("\xef\xbf\xbd"));  // bytes that are not UTF-8 became U+FFFD
  EXPECT_EQ(f.sysctl.at("net.ipv4.tcp_sack").error, "Is a directory");
  EXPECT_EQ(f.sysctl.at("kernel.loop1").error, "Symbolic link loop");
  EXPECT_EQ(f.boot.kernel_args.note, "the default entry does not exist");  // default=7, one title
  EXPECT_FALSE(f.cpu.sockets.value);
  EXPECT_EQ(f.modules.at("tg3").configured.at("c").value, "x y");
  EXPECT_FALSE(f.interfaces.at("eth1").mtu.value);
  EXPECT_EQ(f.interfaces.at("eth1").mtu.note, "not a number");
  bool evil = false;
  for (const auto& p : f.processes) evil |= p.comm == "evil) name) with (parens)";
  EXPECT_TRUE(evil);
}

TEST_F(HostileRoot, BadArgumentsAreUsageErrorsNamingTheArgument) {
  EXPECT_EQ(run_probe({"--root", root_.string(), "--sysctl", "../../etc/shadow"}).exit_code, 2);
  EXPECT_EQ(run_probe({"--root", root_.string(), "--iface", "../x"}).exit_code, 2);
  EXPECT_EQ(run_probe({"--root", (root_ / "nonexistent").string()}).exit_code, 2);
  EXPECT_EQ(run_probe({"--sections", "os,bogus"}).exit_code, 2);
  EXPECT_EQ(run_probe({"--frobnicate"}).exit_code, 2);
}

}  // namespace
}  // namespace labgate::facts_fixture

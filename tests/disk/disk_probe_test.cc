// The real static disk probe on this machine's disk: a read, write and mixed
// run through the profile's command line and the Measurement parser, the paths
// it refuses, its cleanup on SIGTERM, O_DIRECT refused (ramfs, as root), and the
// same run under the RHEL 5 system-call filter.
#include "labgate/storage/disk_probe.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sched.h>
#include <sys/mount.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <thread>

#include "labgate/transport/transport.h"

namespace labgate::storage {
namespace {

namespace fs = std::filesystem;
using std::chrono::milliseconds;
using std::chrono::seconds;
using ::testing::HasSubstr;

const std::string kProbe = std::string(LABGATE_PROBE_DIR) + "/disk";

class DiskProbe : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ =
        fs::path(LABGATE_DISK_TEST_DIR) / ("run." + std::to_string(getpid()) + "." +
                                           ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    profile::Host here;
    here.name = "here";
    here.address = "local";
    host_ = transport::make_transport(here);
  }
  void TearDown() override { fs::remove_all(dir_); }

  profile::TestSpec spec(profile::TestKind kind) const {
    profile::TestSpec s;
    s.name = "disk";
    s.kind = kind;
    s.duration = milliseconds(1500);
    s.warmup = milliseconds(200);
    s.interval = milliseconds(500);
    s.disk.dir = dir_.string();
    s.disk.path = (dir_ / "labgate-disk.dat").string();
    s.disk.file_size = 16u << 20;
    return s;
  }
  transport::RunResult run(const std::vector<std::string>& argv) {
    transport::RunOptions o;
    o.timeout = seconds(60);
    return host_->run(argv, o);
  }

  fs::path dir_;
  std::unique_ptr<transport::Transport> host_;
};

TEST_F(DiskProbe, RandomReadWithODirectMeasuresAndRemovesItsFile) {
  const DiskInvocation inv = disk_probe_command(spec(profile::TestKind::kDiskRandomRead), kProbe);
  const transport::RunResult r = run(inv.argv);
  ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
  const measure::Measurement m = parse_disk_probe(r.out, "here");
  EXPECT_EQ(m.kind, "disk_random_read");
  EXPECT_EQ(m.parameters.at("direct"), "true");
  EXPECT_EQ(m.parameters.at("writes"), "0");
  EXPECT_GT(m.reported.at("iops"), 50.0);
  EXPECT_EQ(m.histogram.count(), std::stoull(m.parameters.at("reads")));
  EXPECT_NEAR(*m.throughput_bps, m.reported.at("iops") * 16384 * 8, *m.throughput_bps * 1e-6);
  EXPECT_GE(m.series.size(), 3u);
  EXPECT_TRUE(m.stat("p99").has_value());
  EXPECT_FALSE(fs::exists(dir_ / "labgate-disk.dat"));
  std::printf("disk_random_read, 16 KiB O_DIRECT, 1 thread: %.0f IOPS, p50 %.1f us, p99 %.1f us\n",
              m.reported.at("iops"), *m.stat("p50") / 1e3, *m.stat("p99") / 1e3);
}

TEST_F(DiskProbe, MixedRunWithTwoWorkersReadsAndWrites) {
  profile::TestSpec s = spec(profile::TestKind::kDiskRandomRw);
  s.disk.threads = 2;
  s.disk.read_mix = 0.5;
  s.disk.block_size = 4096;
  const transport::RunResult r = run(disk_probe_command(s, kProbe).argv);
  ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
  const measure::Measurement m = parse_disk_probe(r.out, "here");
  const double reads = std::stod(m.parameters.at("reads")), writes = std::stod(m.parameters.at("writes"));
  EXPECT_GT(reads, 0);
  EXPECT_GT(writes, 0);
  EXPECT_NEAR(reads / (reads + writes), 0.5, 0.1);
  EXPECT_EQ(m.parameters.at("threads"), "2");
  EXPECT_THAT(m.warnings, ::testing::Contains(HasSubstr("slowest thread")));
}

TEST_F(DiskProbe, RefusesPathsOutsideTheDirectoryOrAlreadyThere) {
  fs::create_directories(dir_ / "other");
  fs::create_symlink(dir_ / "other", dir_ / "inside");
  std::ofstream(dir_ / "taken.dat") << "a user's file";
  const std::string base = kProbe;
  auto refused = [&](const std::string& dir, const std::string& file) {
    const transport::RunResult r = run(
        {base, "--dir", dir, "--file", file, "--mode", "read", "--file-size", "1MiB", "--duration", "1s"});
    EXPECT_EQ(r.exit_status, 2) << file;
    return r.err;
  };
  const std::string sub = (dir_ / "sub").string();
  fs::create_directories(sub);
  EXPECT_THAT(refused(sub, (dir_ / "x.dat").string()), HasSubstr("is not below --dir"));
  EXPECT_THAT(refused(sub, sub + "/../x.dat"), HasSubstr("is not below --dir"));
  EXPECT_THAT(refused(sub, (dir_ / "inside" / "x.dat").string()), HasSubstr("after resolving links"));
  EXPECT_THAT(refused(dir_.string(), (dir_ / "taken.dat").string()), HasSubstr("it already exists"));
  EXPECT_THAT(refused(dir_.string(), (dir_ / "nodir" / "x.dat").string()), HasSubstr("No such file"));
  std::ifstream kept(dir_ / "taken.dat");
  std::string text;
  std::getline(kept, text);
  EXPECT_EQ(text, "a user's file");
}

TEST_F(DiskProbe, SigtermMidRunStillRemovesTheFile) {
  profile::TestSpec s = spec(profile::TestKind::kDiskRandomWrite);
  s.duration = seconds(30);
  std::unique_ptr<transport::Process> p = host_->start(disk_probe_command(s, kProbe).argv);
  const fs::path file = dir_ / "labgate-disk.dat";
  for (int i = 0; i < 100 && !fs::exists(file); ++i) std::this_thread::sleep_for(milliseconds(20));
  ASSERT_TRUE(fs::exists(file));
  std::this_thread::sleep_for(milliseconds(400));
  const transport::RunResult r = p->stop(seconds(5));
  EXPECT_FALSE(fs::exists(file));
  EXPECT_THAT(r.out, HasSubstr("stopped by a signal"));
  try {
    parse_disk_probe(r.out, "here");
    FAIL() << "a stopped run is not a measurement";
  } catch (const measure::ProbeOutputError& e) {
    EXPECT_TRUE(e.probe_failed());
  }
}

TEST_F(DiskProbe, ODirectRefusedIsSaidWithTheFix) {
  if (geteuid() != 0) GTEST_SKIP() << "mounting ramfs (a filesystem without O_DIRECT) needs root";
  // A private mount namespace: the ramfs vanishes with this process, whatever happens.
  ASSERT_EQ(unshare(CLONE_NEWNS), 0) << std::strerror(errno);
  ASSERT_EQ(mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr), 0) << std::strerror(errno);
  const fs::path mnt = dir_ / "ramfs";
  fs::create_directories(mnt);
  ASSERT_EQ(mount("none", mnt.c_str(), "ramfs", 0, "size=8m"), 0) << std::strerror(errno);
  profile::TestSpec s = spec(profile::TestKind::kDiskRandomRead);
  s.disk.dir = mnt.string();
  s.disk.path = (mnt / "f.dat").string();
  s.disk.file_size = 1u << 20;
  const transport::RunResult r = run(disk_probe_command(s, kProbe).argv);
  EXPECT_EQ(r.exit_status, 3);
  EXPECT_THAT(r.err, HasSubstr("refuses O_DIRECT"));
  EXPECT_THAT(r.err, HasSubstr("set direct = false"));
  EXPECT_FALSE(fs::exists(mnt / "f.dat"));
  s.disk.direct = false;
  const transport::RunResult cached = run(disk_probe_command(s, kProbe).argv);
  EXPECT_TRUE(cached.ok()) << cached.err;
  EXPECT_THAT(parse_disk_probe(cached.out, "here").warnings, ::testing::Contains(HasSubstr("page cache")));
  umount(mnt.c_str());
}

TEST_F(DiskProbe, RunsUnderTheRhel5SystemCallFilter) {
  std::vector<std::string> argv = disk_probe_command(spec(profile::TestKind::kDiskRandomRw), kProbe).argv;
  argv.insert(argv.begin(), LABGATE_RHEL5_EXEC);
  const transport::RunResult r = run(argv);
  ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
  EXPECT_GT(parse_disk_probe(r.out, "here").reported.at("iops"), 0.0);
  EXPECT_FALSE(fs::exists(dir_ / "labgate-disk.dat"));
}

}  // namespace
}  // namespace labgate::storage

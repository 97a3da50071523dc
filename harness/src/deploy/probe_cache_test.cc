// The host's probe cache (issue 23): a probe an earlier run verified on a host
// is not sent again; its round trips counted on a scripted host, its safety
// (stale, cut short, not ours) shown with the real scripts on this machine.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "labgate/deploy/digest.h"
#include "labgate/deploy/host_deployment.h"
#include "labgate/transport/fake_transport.h"
#include "deploy/local_host_test_util.h"
#include "remote_scripts.h"
#include "transport/dir_safe_test_util.h"

namespace labgate::deploy {
namespace {

using transport::FakeTransport;

std::string cache_test_probe() { return testing::echo_probe_path(); }

// This machine, counting what crosses the boundary: a request (run) or an
// upload is at least one round trip to a far host.
class CountingTransport : public transport::Transport {
 public:
  explicit CountingTransport(transport::Transport& t) : t_(t) {}
  int runs = 0, uploads = 0;
  const std::string& host_name() const override { return t_.host_name(); }
  std::string describe() const override { return t_.describe(); }
  transport::RunResult run(const std::vector<std::string>& argv, const transport::RunOptions& o = {}) override {
    ++runs;
    return t_.run(argv, o);
  }
  std::unique_ptr<transport::Process> start(const std::vector<std::string>& argv,
                                            const transport::StartOptions& o = {}) override {
    return t_.start(argv, o);
  }
  void upload_data(std::string_view data, const std::string& path, int mode) override {
    ++uploads;
    t_.upload_data(data, path, mode);
  }
  void upload_data_to_private_dir(std::string_view data, const std::string& path, int mode) override {
    ++uploads;
    t_.upload_data_to_private_dir(data, path, mode);
  }
  std::string read_file(const std::string& p, std::size_t limit) override { return t_.read_file(p, limit); }
  std::optional<FileInfo> lstat(const std::string& p) override { return t_.lstat(p); }
  std::vector<std::optional<FileInfo>> lstat_each(const std::vector<std::string>& p) override {
    return t_.lstat_each(p);
  }
  std::string host_identity() override { return t_.host_identity(); }

 private:
  transport::Transport& t_;
};

class ProbeCache : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(std::filesystem::exists(cache_test_probe())) << "build probe_echo first";
    host_ = testing::local_host_with_new_probe_dir("/tmp/labgate-cache-XXXXXX");
    ASSERT_FALSE(host_.ssh.probe_dir.empty());
    local_ = transport::make_transport(host_);
    t_ = std::make_unique<CountingTransport>(*local_);
    digest_ = sha256_file_hex(cache_test_probe());
    cache_ = probe_cache_dir(host_.ssh.probe_dir, "local-host", static_cast<long>(getuid()));
  }
  void TearDown() override { local_->run({"rm", "-rf", host_.ssh.probe_dir}); }

  // install() on a new run directory: its round trips (requests, uploads).
  std::pair<int, int> install_counted() {
    HostDeployment d(*t_, host_, "lab1", "test");
    const int runs = t_->runs, uploads = t_->uploads;
    const std::string probe = d.install(cache_test_probe());
    const std::pair<int, int> counted{t_->runs - runs, t_->uploads - uploads};
    EXPECT_EQ(d.run({probe, "hi"}).out, "hi\n");
    return counted;
  }
  void write(const std::string& path, const std::string& data) {
    std::ofstream(path, std::ios::binary) << data;
  }

  profile::Host host_;
  std::unique_ptr<transport::Transport> local_;
  std::unique_ptr<CountingTransport> t_;
  std::string digest_, cache_;
};

TEST_F(ProbeCache, TheSecondRunOnAHostSendsNothingAndMakesOneRequest) {
  EXPECT_EQ(install_counted(), std::make_pair(2, 1));  // look-up, upload, verify (and keep)
  struct stat st{};
  ASSERT_EQ(lstat(cache_.c_str(), &st), 0) << cache_;
  EXPECT_EQ(st.st_mode & 07777, 0700u);
  ASSERT_TRUE(std::filesystem::exists(cache_ + "/echo." + digest_));
  EXPECT_EQ(install_counted(), std::make_pair(1, 0));  // the copy, verified, in one request
  // Nothing but the cached copy is left between runs (no part file).
  int entries = 0;
  for (const auto& e : std::filesystem::directory_iterator(cache_)) entries += !e.path().empty();
  EXPECT_EQ(entries, 1);
}

TEST_F(ProbeCache, ACachedCopyWhoseBytesAreNotItsDigestIsNeverRunAndIsReplaced) {
  install_counted();
  const std::string cached = cache_ + "/echo." + digest_;
  const std::string ran = host_.ssh.probe_dir + "/ran";
  // Cut short or changed by hand: a script that would leave a mark if run.
  write(cached, "#!/bin/sh\ntouch " + ran + "\necho " + digest_ + "\n");
  ASSERT_EQ(chmod(cached.c_str(), 0700), 0);
  EXPECT_EQ(install_counted(), std::make_pair(2, 1));  // sent again
  EXPECT_FALSE(std::filesystem::exists(ran)) << "a cached file that is not the probe was run";
  EXPECT_EQ(sha256_file_hex(cached), digest_) << "the bad copy was not replaced";
  EXPECT_EQ(install_counted(), std::make_pair(1, 0));
}

TEST_F(ProbeCache, AnotherVersionOfTheProbeIsReplacedNotKeptBeside) {
  ASSERT_EQ(mkdir(cache_.c_str(), 0700), 0);
  const std::string older = cache_ + "/echo." + std::string(64, 'a');
  write(older, "an older probe");
  write(cache_ + "/other." + std::string(64, 'b'), "another probe");
  EXPECT_EQ(install_counted(), std::make_pair(2, 1));
  EXPECT_FALSE(std::filesystem::exists(older));
  EXPECT_TRUE(std::filesystem::exists(cache_ + "/echo." + digest_));
  EXPECT_TRUE(std::filesystem::exists(cache_ + "/other." + std::string(64, 'b'))) << "another probe's copy went";
}

TEST_F(ProbeCache, ACacheOthersMayWriteIsNeitherUsedNorWritten) {
  install_counted();
  ASSERT_EQ(chmod(cache_.c_str(), 0755), 0);
  std::filesystem::remove(cache_ + "/echo." + digest_);
  EXPECT_EQ(install_counted(), std::make_pair(2, 1));
  EXPECT_FALSE(std::filesystem::exists(cache_ + "/echo." + digest_)) << "written into a cache others may read";
  ASSERT_EQ(chmod(cache_.c_str(), 0700), 0);
  write(cache_ + "/echo." + digest_, "");
  std::filesystem::remove_all(cache_);
  ASSERT_EQ(symlink(host_.ssh.probe_dir.c_str(), cache_.c_str()), 0);  // not a directory of ours
  EXPECT_EQ(install_counted(), std::make_pair(2, 1));
  EXPECT_FALSE(std::filesystem::exists(host_.ssh.probe_dir + "/echo." + digest_)) << "written through a symlink";
}

// On a scripted host: the round trips of install() (a request, an upload each
// count one), so a round trip put back fails here.
struct CacheHost : FakeTransport {
  using FakeTransport::FakeTransport;
  transport::RunResult run(const std::vector<std::string>& argv, const transport::RunOptions& o = {}) override {
    transport::RunResult r = FakeTransport::run(argv, o);
    if (argv.size() > 2 && argv[2].find("mkdir -m 0700") != std::string::npos)
      r.out = transport::testing::dir_safe_reply("/tmp") +
              "uid 1000\nstat 41c0 1000 4096\nowner written\n";  // a directory, 0700, ours
    return r;
  }
};

TEST(ProbeCacheRoundTrips, ACachedProbeIsOneRequestAndAMissThreeRoundTrips) {
  profile::Host h;
  h.name = "a";
  h.address = "10.0.0.1";
  h.ssh.probe_dir = "/tmp";
  const std::string digest = sha256_file_hex(cache_test_probe());
  CacheHost fake("a");
  fake.identity = "hk-0011223344556677";
  fake.on({"/bin/sh", "-c"}, FakeTransport::ok());
  HostDeployment d(fake, h, "lab1", "x");
  const std::size_t made = fake.calls().size();
  fake.once({"/bin/sh", "-c"}, FakeTransport::ok("cached " + digest + "\n"));
  EXPECT_EQ(d.install(cache_test_probe()), d.dir() + "/echo");
  ASSERT_EQ(fake.calls().size(), made + 1);
  EXPECT_TRUE(fake.uploads().empty());
  const auto& lookup = fake.calls().back().argv;
  EXPECT_EQ(lookup.at(6), "/tmp/labgate-probe-cache.hk-0011223344556677-u1000");
  EXPECT_EQ(lookup.at(8), digest);

  HostDeployment e(fake, h, "lab1", "y");
  const std::size_t before = fake.calls().size();
  fake.once({"/bin/sh", "-c"}, FakeTransport::ok("absent\n"));
  fake.once({"env"}, FakeTransport::ok(digest + "\n"));
  EXPECT_EQ(e.install(cache_test_probe()), e.dir() + "/echo");
  EXPECT_EQ(fake.calls().size(), before + 2);  // the look-up, the verify that keeps a copy
  EXPECT_EQ(fake.uploads().size(), 1u);
}

}  // namespace
}  // namespace labgate::deploy

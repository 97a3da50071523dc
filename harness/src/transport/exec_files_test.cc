// File operations through /bin/sh (the fallback when a login shell corrupts
// SFTP) on this machine's real shell and coreutils, and the diagnosis of a write
// that fails on a full filesystem.
#include "exec_files.h"

#include <gtest/gtest.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>

#include "labgate/util/exit_code.h"
#include "local_transport.h"
#include "util/failure_test_util.h"

namespace labgate::transport {
namespace {

class ExecFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/labgate-execfiles-XXXXXX";
    ASSERT_TRUE(mkdtemp(tmpl));
    dir_ = tmpl;
    profile::Host h;
    h.name = "l";
    h.address = "local";
    t_ = std::make_unique<LocalTransport>(h);
  }
  void TearDown() override {
    umount(dir_.c_str());
    t_->run({"rm", "-rf", dir_});
  }
  std::string dir_;
  std::unique_ptr<LocalTransport> t_;
};

// Several paths in one command (a directory's components, issue 23): one
// answer per path, in order, a symlink never followed, an absent one said.
TEST_F(ExecFiles, StatsSeveralPathsInOneCommandInOrder) {
  ASSERT_EQ(symlink("/etc", (dir_ + "/etclink").c_str()), 0);
  const auto infos = exec_lstat_each(*t_, {"/", dir_, dir_ + "/absent", dir_ + "/etclink", dir_ + "/a b"});
  ASSERT_EQ(infos.size(), 5u);
  ASSERT_TRUE(infos[0] && infos[1]);
  EXPECT_TRUE(infos[0]->is_dir);
  EXPECT_TRUE(infos[1]->is_dir);
  EXPECT_EQ(infos[1]->mode, 0700u);  // mkdtemp's
  EXPECT_FALSE(infos[2]);
  ASSERT_TRUE(infos[3]);
  EXPECT_TRUE(infos[3]->is_symlink);
  EXPECT_FALSE(infos[4]);
  EXPECT_EQ(exec_lstat(*t_, dir_)->mode, infos[1]->mode);  // the one-path form is the same command
}

TEST_F(ExecFiles, UploadReadAndStatAnyBytes) {
  std::string data;
  for (int i = 0; i < 70000; ++i) data += static_cast<char>(i * 7);  // NULs and all
  const std::string path = dir_ + "/probe $(x)";
  exec_upload(*t_, data, path, 0700);
  EXPECT_EQ(exec_read(*t_, path, 1 << 20), data);
  const auto info = exec_lstat(*t_, path);
  ASSERT_TRUE(info);
  EXPECT_EQ(info->mode, 0700u);
  EXPECT_EQ(info->size, data.size());
  EXPECT_EQ(info->uid, static_cast<long>(geteuid()));
  EXPECT_FALSE(info->is_dir);
  EXPECT_TRUE(exec_lstat(*t_, dir_)->is_dir);
  EXPECT_FALSE(exec_lstat(*t_, dir_ + "/absent"));
  ASSERT_EQ(symlink("/etc/passwd", (dir_ + "/link").c_str()), 0);
  EXPECT_TRUE(exec_lstat(*t_, dir_ + "/link")->is_symlink);  // never followed
  EXPECT_NE(labgate::failure_test_util::could_not_run_message([&] {
              exec_read(*t_, path, 100);
            }).find("larger than 100 bytes"),
            std::string::npos);
}

TEST_F(ExecFiles, NeverWritesOverAFileOrThroughASymlink) {
  const std::string file = dir_ + "/owner", link = dir_ + "/planted";
  exec_upload(*t_, "first\n", file, 0600);
  EXPECT_NE(labgate::failure_test_util::could_not_run_message([&] {
              exec_upload(*t_, "second\n", file, 0600);
            }).find("already exists (never overwritten)"),
            std::string::npos);
  EXPECT_EQ(exec_read(*t_, file, 100), "first\n");
  const std::string victim = dir_ + "/victim";
  exec_upload(*t_, "victim\n", victim, 0600);
  ASSERT_EQ(symlink(victim.c_str(), link.c_str()), 0);
  EXPECT_NE(labgate::failure_test_util::could_not_run_message([&] {
              exec_upload(*t_, "evil\n", link, 0600);
            }).find("already exists"),
            std::string::npos);
  EXPECT_EQ(exec_read(*t_, victim, 100), "victim\n");
  // Nothing half-written is left beside them.
  EXPECT_EQ(t_->run({"sh", "-c", "ls -A \"$1\" | grep -c part", "sh", dir_}).out, "0\n");
}

// A full disk is named as one, with what is left: never "failure" or ": ok".
TEST_F(ExecFiles, AFullFilesystemIsNamedWithTheBytesFree) {
  ASSERT_EQ(geteuid(), 0u) << "mounting a small tmpfs needs root (CI runs as root)";
  ASSERT_EQ(mount("labgate-full", dir_.c_str(), "tmpfs", 0, "size=64k"), 0) << strerror(errno);
  std::ofstream(dir_ + "/filler") << std::string(64 * 1024, 'x');
  const std::string msg = labgate::failure_test_util::could_not_run_message(
      [&] { exec_upload(*t_, std::string(200000, 'p'), dir_ + "/facts", 0700); });
  EXPECT_NE(msg.find("No space left on device"), std::string::npos) << msg;
  EXPECT_NE(msg.find("bytes free on " + dir_), std::string::npos) << msg;
  const std::string why = describe_write_failure(*t_, dir_);
  EXPECT_NE(why.find("No space left on device; 0 bytes free on " + dir_), std::string::npos) << why;
  EXPECT_EQ(t_->run({"sh", "-c", "ls -A \"$1\" | grep -c part", "sh", dir_}).out, "0\n") << "part file left";
  // Room for a test write but not for the file: the numbers say so.
  t_->run({"rm", "-f", dir_ + "/filler"});
  const std::string small = describe_write_failure(*t_, dir_, 1u << 20);
  EXPECT_NE(small.find("no space left for it: 1048576 bytes needed, "), std::string::npos) << small;
}

TEST_F(ExecFiles, AReadOnlyFilesystemIsNamed) {
  ASSERT_EQ(geteuid(), 0u) << "mounting a read-only tmpfs needs root (CI runs as root)";
  ASSERT_EQ(mount("labgate-ro", dir_.c_str(), "tmpfs", MS_RDONLY, "size=64k"), 0) << strerror(errno);
  EXPECT_NE(describe_write_failure(*t_, dir_).find("Read-only file system"), std::string::npos);
}

}  // namespace
}  // namespace labgate::transport

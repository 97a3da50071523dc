// mount_for on /proc/mounts text as RHEL 5 and Debian 12 print it.
#include "labgate/deploy/mounts.h"

#include <gtest/gtest.h>

namespace labgate::deploy {
namespace {

const char* kMounts =
    "rootfs / rootfs rw 0 0\n"
    "/dev/root / ext3 rw,data=ordered 0 0\n"
    "tmpfs /tmp tmpfs rw,nosuid,nodev,noexec,relatime 0 0\n"
    "tmpfs /tmp/lab\\040dir tmpfs rw,relatime 0 0\n"
    "/dev/sda3 /var ext3 rw 0 0\n"
    "tmpfs /tmpx tmpfs rw 0 0\n";

TEST(MountFor, LongestPrefixWinsAndComponentsMustMatch) {
  auto m = mount_for("/tmp/labgate-lab.1234", kMounts);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->mount_point, "/tmp");
  EXPECT_TRUE(m->has_option("noexec"));
  EXPECT_FALSE(m->has_option("exec"));
  m = mount_for("/tmpx/y", kMounts);
  EXPECT_EQ(m->mount_point, "/tmpx");
  m = mount_for("/root/probes", kMounts);
  EXPECT_EQ(m->mount_point, "/");
  EXPECT_EQ(m->fstype, "ext3");  // the later of the two "/" lines, as the kernel stacks them
}

TEST(MountFor, DecodesOctalEscapes) {
  auto m = mount_for("/tmp/lab dir/x", kMounts);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->mount_point, "/tmp/lab dir");
  EXPECT_FALSE(m->has_option("noexec"));
}

TEST(MountFor, GarbageAndEmptyInput) {
  EXPECT_FALSE(mount_for("/tmp", ""));
  EXPECT_FALSE(mount_for("/tmp", "nonsense\n\n"));
  EXPECT_FALSE(mount_for("relative", kMounts));
}

}  // namespace
}  // namespace labgate::deploy

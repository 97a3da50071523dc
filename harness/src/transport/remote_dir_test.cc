// A remote directory is resolved component by component: a symlink, a missing
// or non-directory component, or a world-writable one without the sticky bit
// anywhere on the path is refused naming it; owners other than root or the
// login user are named.
#include "labgate/transport/remote_dir.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "labgate/transport/fake_transport.h"
#include "labgate/util/exit_code.h"

namespace labgate::transport {
namespace {

using ::testing::HasSubstr;

Transport::FileInfo dir(unsigned mode, long uid = 0) {
  Transport::FileInfo i;
  i.is_dir = true;
  i.mode = mode;
  i.uid = uid;
  return i;
}

std::string refusal(FakeTransport& t, const std::string& d) {
  try {
    resolve_remote_dir(t, d, "host a", "probe_dir");
  } catch (const Failure& f) {
    EXPECT_EQ(f.code(), ExitCode::kCouldNotRun);
    return f.what();
  }
  return "";
}

TEST(RemoteDir, EveryComponentIsLookedAtInOrder) {
  FakeTransport t("a");
  t.stats["/tmp"] = dir(01777);
  t.stats["/tmp/lg"] = dir(0700, 1000);
  std::vector<std::string> seen;
  t.on_step = [&](const std::string& what) { seen.push_back(what); };
  const auto c = resolve_remote_dir(t, "/tmp/lg", "host a", "probe_dir");
  EXPECT_THAT(seen, ::testing::ElementsAre("lstat /tmp", "lstat /tmp/lg"));
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c[1].info.uid, 1000);
  EXPECT_EQ(resolve_remote_dir(t, "/", "host a", "probe_dir").size(), 1u);
}

TEST(RemoteDir, ASymlinkAnywhereIsRefusedNamingWhatItResolvesTo) {
  FakeTransport t("a");
  t.stats["/tmp"] = dir(01777);
  Transport::FileInfo link;
  link.is_symlink = true;
  t.stats["/tmp/etclink"] = link;
  t.stats["/tmp/etclink/default"] = dir(0755);  // what lstat through the link would see
  t.on({"readlink", "-f", "--", "/tmp/etclink/default"}, FakeTransport::ok("/etc/default\n"));
  EXPECT_EQ(
      refusal(t, "/tmp/etclink/default"),
      "host a: probe_dir /tmp/etclink/default: /tmp/etclink is a symlink; a run only goes where the "
      "profile says, so name the real directory (probe_dir = \"/etc/default\" if that is the one meant)");
  // The last component too, and without readlink the hint is left out.
  t.stats["/tmp/last"] = link;
  EXPECT_EQ(
      refusal(t, "/tmp/last"),
      "host a: probe_dir /tmp/last: is a symlink; a run only goes where the profile says, so name the real "
      "directory");
}

TEST(RemoteDir, MissingPlainFilesAndOpenDirectoriesAreNamed) {
  FakeTransport t("a");
  t.stats["/srv"] = dir(0777);
  t.stats["/srv/x"] = dir(0755);
  EXPECT_THAT(
      refusal(t, "/srv/x"),
      HasSubstr("/srv is world-writable without the sticky bit (mode 0777); any user could replace what "
                "follows it on the path"));
  EXPECT_THAT(refusal(t, "/nope/x"), HasSubstr("probe_dir /nope/x: /nope does not exist"));
  t.files["/srv2/file"] = "x";
  EXPECT_THAT(refusal(t, "/srv2/file/x"), HasSubstr("/srv2/file is not a directory"));
}

TEST(RemoteDir, ForeignOwnersAreNamedRootAndTheLoginUserAreNot) {
  std::vector<DirComponent> c{{"/u01", dir(0755, 54321)}, {"/u01/lg", dir(0700, 1000)}};
  EXPECT_THAT(foreign_owner(c, 1000, "host a", "probe_dir", "/u01/lg"),
              HasSubstr("host a: probe_dir /u01/lg: /u01 is owned by uid 54321, neither root nor the login "
                        "user (uid 1000)"));
  c[0].info.uid = 0;
  EXPECT_EQ(foreign_owner(c, 1000, "host a", "probe_dir", "/u01/lg"), "");
  c[1].info.uid = 7;
  EXPECT_THAT(foreign_owner(c, 1000, "host a", "probe_dir", "/u01/lg"),
              HasSubstr("/u01/lg is owned by uid 7"));
  EXPECT_EQ(foreign_owner(c, -1, "host a", "probe_dir", "/u01/lg"), "") << "the transport cannot tell";
}

}  // namespace
}  // namespace labgate::transport

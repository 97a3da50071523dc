// A remote directory is resolved component by component: a symlink, a missing
// or non-directory component, or a world-writable one without the sticky bit
// anywhere on the path is refused naming it; owners other than root or the
// login user are named.
#include "labgate/transport/remote_dir.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "labgate/transport/fake_transport.h"
#include "labgate/transport/shell_quote.h"
#include "labgate/util/exit_code.h"
#include "util/failure_test_util.h"

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


// dir_safe_shell, run for real, agrees with check_remote_dir: it reports every
// path of a good directory and stops at the first one refused, which the C++
// checks then name as resolve_remote_dir would (issue 23: the lease's take
// resolves its root in the same request).
TEST(RemoteDir, TheShellsCheckStopsWhereResolveRefuses) {
  char tmpl[] = "/tmp/labgate-dirsafe-XXXXXX";
  ASSERT_TRUE(mkdtemp(tmpl));
  const std::string base = tmpl;
  profile::Host h;
  h.name = "local";
  h.address = "local";
  auto t = make_transport(h);
  ASSERT_TRUE(t->run({"sh", "-c",
                      "mkdir -p \"$1/ok/in\" \"$1/open/in\" \"$1/sticky/in\" && chmod 0777 \"$1/open\" && "
                      "chmod 01777 \"$1/sticky\" && ln -s ok \"$1/link\" && : > \"$1/file\"",
                      "sh", base})
                  .ok());
  // Runs dir_safe on `d`'s paths: its exit, its lines as infos, and what the C++ checks say of them.
  const auto shell = [&](const std::string& d, std::size_t* lines = nullptr) {
    auto r = t->run(sh_argv(dir_safe_shell() + "dir_safe \"$@\"", remote_dir_paths(d)));
    const auto infos = parse_dir_safe(r.out);
    if (lines) *lines = infos.size();
    std::string why;
    try {
      check_remote_dir(*t, d, infos, "host a", "lease_dir");
    } catch (const Failure& f) {
      why = f.what();
    }
    return std::make_pair(r.exit_status, why);
  };
  std::size_t n = 0;
  for (const std::string& d : {base + "/ok/in", base + "/sticky/in"}) {
    EXPECT_EQ(shell(d, &n), std::make_pair(0, std::string())) << d;
    EXPECT_EQ(n, remote_dir_paths(d).size()) << d;
  }
  auto r = shell(base + "/link/in", &n);
  EXPECT_EQ(r.first, 1);
  EXPECT_THAT(r.second, HasSubstr(base + "/link is a symlink"));
  EXPECT_EQ(n, remote_dir_paths(base + "/link").size()) << "it went on past the symlink";
  r = shell(base + "/open/in");
  EXPECT_EQ(r.first, 1);
  EXPECT_THAT(r.second, HasSubstr(base + "/open is world-writable without the sticky bit (mode 0777)"));
  r = shell(base + "/file/in");
  EXPECT_EQ(r.first, 1);
  EXPECT_THAT(r.second, HasSubstr(base + "/file is not a directory"));
  r = shell(base + "/absent");
  EXPECT_EQ(r.first, 1);
  EXPECT_THAT(r.second, HasSubstr("lease_dir " + base + "/absent: does not exist"));
  // A script that broke before reporting a path: that path is named, never passed.
  EXPECT_THAT(failure_test_util::could_not_run_message([&] { check_remote_dir(*t, base + "/ok/in", {}, "host a", "lease_dir"); }),
              HasSubstr("was not reported"));
  t->run({"rm", "-rf", base});
}

}  // namespace
}  // namespace labgate::transport

// The remote wrapper: pgid announcement, its removal from stderr, group kill.
#include "remote_command.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <functional>
#include <thread>

#include "labgate/profile/profile.h"
#include "labgate/transport/shell_quote.h"
#include "local_transport.h"
#include "transport/proc_watch_test_util.h"

namespace labgate::transport {
namespace {

LocalTransport local() {
  profile::Host h;
  h.name = "local";
  h.address = "local";
  return LocalTransport(h);
}

TEST(PgidMarkerFilter, StripsTheMarkerAndKeepsTheId) {
  PgidMarkerFilter f;
  EXPECT_EQ(f.feed("\037labgate-pgid 4321\nreal error\n"), "real error\n");
  EXPECT_EQ(f.pgid(), 4321);
  EXPECT_EQ(f.feed("more\n"), "more\n");
}

TEST(PgidMarkerFilter, MarkerSplitAcrossChunksAndNoiseBeforeIt) {
  const std::string all = "bashrc says hi\n\037labgate-pgid 77\npartial";
  for (std::size_t cut = 0; cut <= all.size(); ++cut) {
    PgidMarkerFilter f;
    std::string out = f.feed(all.substr(0, cut));
    out += f.feed(all.substr(cut));
    out += f.finish();
    EXPECT_EQ(out, "bashrc says hi\npartial") << "cut at " << cut;
    EXPECT_EQ(f.pgid(), 77) << "cut at " << cut;
  }
}

TEST(PgidMarkerFilter, WithoutMarkerEverythingPassesThrough) {
  PgidMarkerFilter f;
  std::string out = f.feed("no marker\nat all");
  out += f.finish();
  EXPECT_EQ(out, "no marker\nat all");
  EXPECT_FALSE(f.pgid());
}

TEST(PgidMarkerFilter, ABogusIdIsIgnored) {
  PgidMarkerFilter f;
  EXPECT_EQ(f.feed("\037labgate-pgid 1\n"), "");  // pid 1 would be every process
  EXPECT_FALSE(f.pgid());
}

// The wrapper run as sshd runs it: by a login shell that leads its own session.
TEST(WrapRemoteCommand, AnnouncesTheProgramsProcessGroup) {
  auto t = local();
  const std::string line = wrap_remote_command({"sh", "-c", "cut -d' ' -f5 /proc/self/stat"});
  RunResult r = t.run({"setsid", "-w", "bash", "-c", line}, {});
  ASSERT_EQ(r.exit_status, 0) << r.err;
  PgidMarkerFilter f;
  EXPECT_EQ(f.feed(r.err), "");
  ASSERT_TRUE(f.pgid());
  StdoutFrameFilter frame;
  EXPECT_EQ(std::to_string(*f.pgid()) + "\n", frame.feed(r.out));
}

// Runs what `line_for(file)` and `input_for(file)` give as a session leader
// would, with `file` a pgid file whose name needs quoting; checks the group id
// it announced is the one recorded there.
void expect_group_recorded(const std::function<std::string(const std::string&)>& line_for,
                           const std::function<std::string(const std::string&)>& input_for) {
  auto t = local();
  char tmpl[] = "/tmp/labgate-wrap-XXXXXX";
  ASSERT_TRUE(mkdtemp(tmpl));
  const std::string file = std::string(tmpl) + "/pg ids $(x)";
  RunOptions o;
  o.input = input_for(file);
  RunResult r = t.run({"setsid", "-w", "bash", "-c", line_for(file)}, o);
  ASSERT_EQ(r.exit_status, 0) << r.err;
  PgidMarkerFilter f;
  f.feed(r.err);
  ASSERT_TRUE(f.pgid());
  EXPECT_EQ(t.read_file(file), std::to_string(*f.pgid()) + "\n");
  t.run({"rm", "-rf", tmpl}, {});
}

TEST(WrapRemoteCommand, RecordsTheGroupInAFileAndQuotesIt) {
  expect_group_recorded([](const std::string& file) { return wrap_remote_command({"true"}, file); },
                        [](const std::string&) { return std::string(); });
}

TEST(WrapRemoteCommand, RefusesToStartWhenTheGroupCannotBeRecorded) {
  auto t = local();
  RunResult r = t.run(
      {"setsid", "-w", "bash", "-c", wrap_remote_command({"echo", "ran"}, "/nonexistent/dir/pgids")}, {});
  EXPECT_EQ(r.exit_status, 125);
  EXPECT_EQ(r.out, "");
}

TEST(StdoutFrameFilter, ABannerBeforeTheFrameIsSetAsideEvenWithoutALineEnd) {
  const std::string all = "*** Authorized use only ***\nno newline\037labgate-out\nTAKEN\n";
  for (std::size_t cut = 0; cut <= all.size(); ++cut) {
    StdoutFrameFilter f;
    std::string out = f.feed(all.substr(0, cut));
    out += f.feed(all.substr(cut));
    out += f.finish();
    EXPECT_EQ(out, "TAKEN\n") << "cut at " << cut;
    EXPECT_TRUE(f.framed());
    EXPECT_EQ(f.noise(), "*** Authorized use only ***\nno newline");
  }
}

TEST(StdoutFrameFilter, WithoutTheFrameWhatCameIsKeptForTheMessage) {
  StdoutFrameFilter f;
  std::string out = f.feed("csh: Unmatched '.\n");
  out += f.finish();
  EXPECT_EQ(out, "csh: Unmatched '.\n");
  EXPECT_FALSE(f.framed());
}

// Runs `line` as sshd would under login shell `shell`, which first prints a
// banner on stdout and stderr (a noisy ~/.bashrc or ~/.cshrc); returns the
// program's own stdout, stderr and status after the filters.
RunResult as_login_shell(const std::string& shell, const std::string& line, const std::string& input = "") {
  auto t = local();
  const std::string noisy = shell.find("csh") != std::string::npos
                                ? "echo '*** Authorized use only ***'; echo 'stderr noise' > /dev/stderr; "
                                : "echo '*** Authorized use only ***'; echo 'stderr noise' >&2; ";
  RunOptions o;
  o.input = input;
  RunResult r = t.run({"setsid", "-w", shell, "-c", noisy + line}, o);
  StdoutFrameFilter out;
  PgidMarkerFilter err;
  std::string program_out = out.feed(r.out);
  program_out += out.finish();
  std::string program_err = err.feed(r.err);
  program_err += err.finish();
  r.out = program_out;
  r.err = program_err;
  EXPECT_TRUE(out.framed()) << shell << ": " << r.out << r.err;
  EXPECT_EQ(out.noise(), "*** Authorized use only ***\n") << shell;
  EXPECT_TRUE(err.pgid()) << shell;
  return r;
}

// What every remote command can hold: quotes, newlines, '!', '$', backslashes, '%'.
const std::vector<std::string> kHardArgv = {
    "/bin/sh",
    "-c",
    "printf '%s|' \"$1\" \"$2\"\nif [ -n \"$3\" ]; then echo \"!bang ok\"; fi\necho \"$LC_ALL\"",
    "labgate-sh",
    "it's \\n \"q\" $HOME %d",
    "two\nlines",
    "x"};

TEST(WrapRemoteCommand, AnyLoginShellRunsTheSameScriptAndItsBannerIsNotOutput) {
  for (const std::string shell : {"/bin/sh", "/bin/bash", "/bin/tcsh", "/bin/csh", "/bin/ksh"}) {
    if (access(shell.c_str(), X_OK) != 0) {
      ADD_FAILURE() << shell << " is not installed (ci/bootstrap installs tcsh, csh and ksh)";
      continue;
    }
    const RunResult r = as_login_shell(shell, wrap_remote_command(kHardArgv));
    EXPECT_EQ(r.exit_status, 0) << shell << ": " << r.err;
    EXPECT_EQ(r.out, "it's \\n \"q\" $HOME %d|two\nlines|!bang ok\nC\n") << shell;
    EXPECT_EQ(r.err, "stderr noise\n") << shell;
  }
}

TEST(WrapRemoteCommand, TheLocaleIsFixedWhateverTheLoginShellSet) {
  const RunResult r =
      as_login_shell("/bin/bash", "export LANG=de_DE.UTF-8 LC_ALL=de_DE.UTF-8; " +
                                      wrap_remote_command({"sh", "-c", "echo $LC_ALL $LANG"}));
  EXPECT_EQ(r.out, "C C\n");
}

// A spare channel (ssh_spare.h): the login shell runs the launcher, which is
// then handed the request line; the program must come out as the wrapper's would.
TEST(LauncherRemoteCommand, AnyLoginShellRunsTheRequestAsTheWrapperWould) {
  for (const std::string shell : {"/bin/sh", "/bin/bash", "/bin/tcsh", "/bin/csh", "/bin/ksh"}) {
    if (access(shell.c_str(), X_OK) != 0) {
      ADD_FAILURE() << shell << " is not installed (ci/bootstrap installs tcsh, csh and ksh)";
      continue;
    }
    const RunResult r = as_login_shell(shell, launcher_remote_command(), launcher_request(kHardArgv));
    EXPECT_EQ(r.exit_status, 0) << shell << ": " << r.err;
    EXPECT_EQ(r.out, "it's \\n \"q\" $HOME %d|two\nlines|!bang ok\nC\n") << shell;
    EXPECT_EQ(r.err, "stderr noise\n") << shell;
  }
}

TEST(LauncherRemoteCommand, TheProgramLeadsTheGroupAndReadsTheStdinAfterTheRequest) {
  auto t = local();
  RunOptions o;
  o.input = launcher_request({"sh", "-c", "cut -d' ' -f5 /proc/self/stat; cat"}) + "rest of stdin\nno end";
  RunResult r = t.run({"setsid", "-w", "bash", "-c", launcher_remote_command()}, o);
  ASSERT_EQ(r.exit_status, 0) << r.err;
  PgidMarkerFilter f;
  EXPECT_EQ(f.feed(r.err), "");
  ASSERT_TRUE(f.pgid());
  StdoutFrameFilter frame;
  std::string out = frame.feed(r.out);
  out += frame.finish();
  EXPECT_EQ(out, std::to_string(*f.pgid()) + "\nrest of stdin\nno end");
}

TEST(LauncherRemoteCommand, RecordsTheGroupInAFileAndEndsOnEofWithoutARequest) {
  expect_group_recorded([](const std::string&) { return launcher_remote_command(); },
                        [](const std::string& file) { return launcher_request({"true"}, file); });
  auto t = local();
  // A spare closed unused (its channel's stdin at EOF) ends without running anything.
  RunResult idle = t.run({"setsid", "-w", "bash", "-c", launcher_remote_command()}, {});
  EXPECT_EQ(idle.exit_status, 125);
  EXPECT_EQ(idle.out, "");
}

TEST(KillGroupArgv, KillsEveryMemberIncludingOnesThatIgnoreTerm) {
  auto t = local();
  // A group leader with two children, one of which ignores SIGTERM.
  // setsid forks when already a group leader, so the session leader reports its own id.
  auto p =
      t.start({"setsid", "sh", "-c", "sleep 317 & (trap '' TERM; sleep 317) & echo \"sid $$\"; wait"}, {});
  ASSERT_TRUE(p->wait_for_output("\n", std::chrono::seconds(5)));
  const std::string out = p->stdout_so_far();
  ASSERT_EQ(out.rfind("sid ", 0), 0u) << out;
  const long sid = std::stol(out.substr(4));
  ASSERT_TRUE(testing::group_running(sid));
  RunResult k = t.run(kill_group_argv(sid, std::chrono::milliseconds(300)), {});
  EXPECT_EQ(k.exit_status, 0) << k.err;
  EXPECT_TRUE(testing::gone_within([&] { return testing::group_running(sid); }))
      << "group " << sid << " still has members";
}

TEST(KillGroupArgv, AMissingGroupIsNotAnError) {
  auto t = local();
  EXPECT_EQ(t.run(kill_group_argv(999999, std::chrono::milliseconds(100)), {}).exit_status, 0);
}

}  // namespace
}  // namespace labgate::transport

// sudo -n for the steps that need root, on a scripted host: what each sudo
// refusal becomes, the sudoers lines suggested, and that nothing ever waits
// for a password.
#include "labgate/deploy/become.h"

#include <gtest/gtest.h>

#include "labgate/transport/fake_transport.h"
#include "labgate/util/exit_code.h"
#include "util/failure_test_util.h"

namespace labgate::deploy {
namespace {

using transport::FakeTransport;

profile::Host perfops() {
  profile::Host h;
  h.name = "a";
  h.address = "10.0.0.1";
  h.ssh.user = "perfops";
  h.ssh.become = "sudo";
  h.ssh.probe_dir = "/var/tmp/lg";
  return h;
}

const std::string kProbe = "/var/tmp/lg/labgate-lab1.hk-0011223344556677.0123456789abcdef/facts";

TEST(RootAccess, LoginSudoOrNone) {
  profile::Host h = perfops();
  EXPECT_EQ(root_access(h.ssh), RootAccess::kSudo);
  h.ssh.become.reset();
  EXPECT_EQ(root_access(h.ssh), RootAccess::kNone);
  h.ssh.user = "root";
  EXPECT_EQ(root_access(h.ssh), RootAccess::kLogin);
}

TEST(SudoersLines, AProbeIsAllowedInAnyRunDirectoryButNowhereElse) {
  EXPECT_EQ(
      sudoers_lines("perfops", kProbe, "/var/tmp/lg/"),
      "  perfops ALL=(root) NOPASSWD: /var/tmp/lg/labgate-*/facts\n"
      "  Defaults:perfops !requiretty    # RHEL 5/6 ship `Defaults requiretty`; labgate has no terminal");
  EXPECT_EQ(sudoers_lines("perfops", "/bin/ping", "/var/tmp/lg").substr(0, 44),
            "  perfops ALL=(root) NOPASSWD: /bin/ping\n  D");
}

TEST(ClassifySudoRefusal, EveryVersionsWords) {
  EXPECT_EQ(classify_sudo_refusal(1, "sudo: a password is required\n", false), SudoRefusal::kPassword);
  EXPECT_EQ(classify_sudo_refusal(1, "sudo: sorry, a password is required to run sudo\n", false),
            SudoRefusal::kPassword);
  EXPECT_EQ(classify_sudo_refusal(1, "sudo: sorry, you must have a tty to run sudo\n", false),
            SudoRefusal::kRequiretty);
  EXPECT_EQ(classify_sudo_refusal(1, "sudo: a terminal is required to read the password\n", false),
            SudoRefusal::kRequiretty);
  EXPECT_EQ(
      classify_sudo_refusal(1, "Sorry, user perfops is not allowed to execute '/x' as root on a.\n", false),
      SudoRefusal::kNotAllowed);
  EXPECT_EQ(classify_sudo_refusal(127, "sh: 1: sudo: not found\n", false), SudoRefusal::kNoSudo);
  // The program's own failure is not sudo's.
  EXPECT_EQ(classify_sudo_refusal(1, "facts: cannot read /etc/x\n", false), SudoRefusal::kNone);
  EXPECT_EQ(classify_sudo_refusal(1, "", true), SudoRefusal::kNotAllowed);  // -l: "no"
}

TEST(SudoRunner, AllowedProgramsRunThroughSudoNonInteractivelyAndAreCheckedOnce) {
  FakeTransport t("a");
  t.on({"sudo", "-n", "-l", "--", kProbe}, FakeTransport::ok(kProbe + "\n"));
  SudoRunner s(t, perfops());
  const std::vector<std::string> want{"sudo", "-n", "--", kProbe, "--sections", "sysctl"};
  EXPECT_EQ(s.wrap({kProbe, "--sections", "sysctl"}), want);
  EXPECT_EQ(s.wrap({kProbe, "--sections", "sysctl"}), want);
  EXPECT_EQ(t.calls().size(), 1u);
}

TEST(SudoRunner, APasswordRequiringSudoIsRefusedWithTheSudoersLines) {
  FakeTransport t("a");
  t.on({"sudo", "-n", "-l"}, FakeTransport::exit_with(1, "sudo: a password is required\n"));
  SudoRunner s(t, perfops());
  const std::string msg = labgate::failure_test_util::could_not_run_message([&] { s.wrap({kProbe}); });
  EXPECT_NE(msg.find("host a: `" + kProbe + "` needs root (become = \"sudo\"), but sudo wants a password"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("labgate never types one"), std::string::npos) << msg;
  EXPECT_NE(msg.find("perfops ALL=(root) NOPASSWD: /var/tmp/lg/labgate-*/facts"), std::string::npos) << msg;
  EXPECT_NE(msg.find("Defaults:perfops !requiretty"), std::string::npos) << msg;
  EXPECT_NE(msg.find("docs/security.md"), std::string::npos) << msg;
}

TEST(SudoRunner, ANameIsResolvedToTheFullPathForTheSudoersLine) {
  FakeTransport t("a");
  t.on({"sudo", "-n", "-l"}, FakeTransport::exit_with(1, ""));
  t.on({"/bin/sh", "-c"}, FakeTransport::ok("/usr/bin/ping\n"));
  SudoRunner s(t, perfops());
  const std::string msg = labgate::failure_test_util::could_not_run_message([&] {
    s.wrap({"ping", "-f", "198.19.1.2"});
  });
  EXPECT_NE(msg.find("sudo does not let perfops run it as root"), std::string::npos) << msg;
  EXPECT_NE(msg.find("perfops ALL=(root) NOPASSWD: /usr/bin/ping\n"), std::string::npos) << msg;
}

TEST(SudoRunner, RequirettyShowsOnlyWhenItRunsAndIsNamed) {
  FakeTransport t("a");
  SudoRunner s(t, perfops());
  transport::RunResult r = FakeTransport::exit_with(1, "sudo: sorry, you must have a tty to run sudo\n");
  const std::string msg = labgate::failure_test_util::could_not_run_message([&] { s.check({kProbe}, r); });
  EXPECT_NE(msg.find("sudoers has `Defaults requiretty`"), std::string::npos) << msg;
  EXPECT_NE(msg.find("Defaults:perfops !requiretty"), std::string::npos) << msg;
  EXPECT_NO_THROW(s.check({kProbe}, FakeTransport::exit_with(1, "facts: bad argument\n")));
}

}  // namespace
}  // namespace labgate::deploy

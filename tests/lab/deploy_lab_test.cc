// Probe deployment on the lab hosts over SSH: private directory, verified
// upload (also through the legacy server's SFTP), noexec detection, cleanup.
#include <gtest/gtest.h>

#include <filesystem>

#include "lab_env.h"
#include "labgate/deploy/digest.h"
#include "labgate/deploy/host_deployment.h"
#include "labgate/transport/shell_quote.h"

namespace labgate::lab {
namespace {

using namespace std::chrono_literals;
const std::string kEcho = std::string(LABGATE_PROBE_DIR) + "/echo";

class DeployOnLab : public LabTest {};

TEST_F(DeployOnLab, InstallsVerifiesRunsAndCleansUpOnBothServers) {
  for (const int port : {22, 2222}) {
    SCOPED_TRACE("port " + std::to_string(port));
    profile::Host h = host("b", port, port == 2222);
    auto t = transport::make_transport(h);
    std::string dir;
    {
      deploy::HostDeployment d(*t, h, "labtest", "lab test run");
      dir = d.dir();
      auto info = t->lstat(dir);
      ASSERT_TRUE(info);
      EXPECT_EQ(info->mode, 0700u);
      EXPECT_TRUE(info->is_dir);
      EXPECT_EQ(info->uid, 0);
      const std::string probe = d.install(kEcho);
      EXPECT_EQ(d.run({probe, "x y"}).out, "x y\n");
      auto server = d.start({"sh", "-c", "sleep 300 & sleep 300 & echo up; wait"});
      ASSERT_TRUE(server->wait_for_output("up", 10s));
      EXPECT_GE(pids_matching("b", "sleep 300").size(), 2u);
      // In b's own /tmp, not a's: the lab's hosts are separate machines.
      EXPECT_TRUE(std::filesystem::is_directory(host_tmp("b") + dir.substr(4)));
      EXPECT_FALSE(std::filesystem::exists(host_tmp("a") + dir.substr(4)));
      // Left running on purpose: cleanup must stop what the run started.
    }
    EXPECT_FALSE(t->lstat(dir)) << dir << " left on host b";
    EXPECT_FALSE(std::filesystem::exists(host_tmp("b") + dir.substr(4)));
    EXPECT_TRUE(pids_matching("b", "sleep 300").empty()) << "processes left on host b";
  }
}

TEST_F(DeployOnLab, NoexecProbeDirIsDetectedAndNamed) {
  profile::Host h = host("a");
  auto t = transport::make_transport(h);
  // Mounted from inside the host's sshd (its own mount namespace), as a
  // server's /tmp would be.
  const std::string mnt = "/tmp/labgate-labtest-noexec-" + deploy::random_token(4);
  ASSERT_TRUE(t->run({"mkdir", mnt}).ok());
  auto m = t->run({"mount", "-t", "tmpfs", "-o", "noexec,nosuid,size=16m,mode=1777", "tmpfs", mnt});
  ASSERT_TRUE(m.ok()) << m.err;
  h.ssh.probe_dir = mnt;
  std::string msg;
  {
    deploy::HostDeployment d(*t, h, "labtest", "noexec test");
    msg = could_not_run([&] { d.install(kEcho); });
  }
  t->run({"umount", mnt});
  t->run({"rmdir", mnt});
  EXPECT_NE(msg.find("cannot execute probes in " + mnt + "/labgate-labtest."), std::string::npos) << msg;
  EXPECT_NE(msg.find("Permission denied"), std::string::npos) << msg;
  EXPECT_NE(msg.find(mnt + " (tmpfs), mounted with `noexec`"), std::string::npos) << msg;
}

}  // namespace
}  // namespace labgate::lab

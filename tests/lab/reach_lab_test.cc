// Reaching hosts as in a data centre, on lab pair 12 brought up with --bastion
// (the hosts' sshds reachable from here only through the bastion's sshd): jump
// hosts (1 and 2 hops) verified like targets, ssh_config aliases, @revoked keys,
// `labgate keyscan` against the legacy (OpenSSH 4.3 algorithms) port 2222,
// -vv's libssh log, every failing host named, and the blackhole route.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "lab_env.h"
#include "labgate/transport/transport.h"
#include "labgate/util/exit_code.h"

namespace labgate::lab {
namespace {

std::string bastion() { return "198.18.1." + std::to_string(pair() * 4 - 2); }

std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// The key blob of host h's key of `type` ("ed25519", "rsa"), from ci/lab's state.
std::string host_key(const std::string& h, const std::string& type) {
  std::ifstream f(state_dir() + "/host-" + h + "-" + type + ".pub");
  std::string t, blob;
  f >> t >> blob;
  return t + " " + blob;
}

class ReachOnLab : public LabTest {
 protected:
  profile::Host via_bastion(const std::string& name, int port = 22, bool legacy = false) {
    profile::Host h = host(name, port, legacy);
    h.ssh.proxy_jump = "root@" + bastion();
    h.ssh.origin["proxy_jump"] = "hosts." + name;
    return h;
  }
  std::string write(const std::string& tag, const std::string& text) {
    const std::string path = temp_dir(tag) + "/file";
    std::ofstream(path) << text;
    return path;
  }
  std::string hostname_of(const profile::Host& h) {
    const auto r = transport::make_transport(h)->run({"cat", "/proc/sys/kernel/hostname"});
    EXPECT_TRUE(r.ok()) << r.err;
    return r.out;
  }
  // A profile for hosts a (port 22) and b (port 2222, legacy) behind the bastion.
  std::string profile(const std::string& known_hosts, const std::string& extra = "") {
    std::ostringstream p;
    p << "[lab]\nname = \"reach-lab\"\n[defaults.ssh]\nuser = \"root\"\nidentity = \"" << state_dir()
      << "/id_rsa\"\nknown_hosts = \"" << known_hosts << "\"\nproxy_jump = \"root@" << bastion()
      << ":22\"\nconnect_timeout = \"5s\"\n"
      << extra << "[hosts.a]\naddress = \"" << address("a") << "\"\n[hosts.b]\naddress = \"" << address("b")
      << "\"\nport = 2222\nlegacy_algorithms = true\n";
    return write("profile", p.str());
  }
};

TEST_F(ReachOnLab, HostsAreReachableOnlyThroughTheBastion) {
  profile::Host direct = host("a");
  direct.ssh.connect_timeout = std::chrono::seconds(2);
  const std::string msg = could_not_run([&] { transport::make_transport(direct)->run({"true"}); });
  EXPECT_NE(msg.find("cannot connect"), std::string::npos) << msg;
  EXPECT_FALSE(hostname_of(via_bastion("a")).empty());
  // The legacy sshd (OpenSSH 4.3's algorithms only) through the modern bastion.
  EXPECT_FALSE(hostname_of(via_bastion("b", 2222, true)).empty());
}

TEST_F(ReachOnLab, UnownedLabAddressIsBlackholedNotRouted) {
  // ci/lab up routes 198.18.0.0/15 to a blackhole: no packet to an address no lab
  // host owns leaves through the default route.
  const auto r = run_local({"ip", "-4", "route", "show", "198.18.0.0/15"});
  EXPECT_NE(r.out.find("blackhole 198.18.0.0/15"), std::string::npos) << r.out;
  const auto get = run_local({"ip", "route", "get", "198.18.0.250"});
  EXPECT_NE(get.exit_status, 0) << "198.18.0.250 is routed: " << get.out;
  EXPECT_EQ(get.out.find("via"), std::string::npos) << get.out;
  profile::Host h = host("a");
  h.address = "198.18.0.250";
  const std::string msg = could_not_run([&] { transport::make_transport(h)->run({"true"}); });
  EXPECT_NE(msg.find("cannot connect"), std::string::npos) << msg;
}

TEST_F(ReachOnLab, TwoHops) {
  profile::Host h = via_bastion("a");
  h.ssh.proxy_jump = "root@" + bastion() + ",root@" + bastion() + ":22";  // the bastion forwards to itself
  EXPECT_FALSE(hostname_of(h).empty());
  // A second hop that does not answer is named by the hop that could not reach it.
  h.ssh.proxy_jump = "root@" + bastion() + ",root@" + bastion() + ":2299";
  const std::string msg = could_not_run([&] { transport::make_transport(h)->run({"true"}); });
  EXPECT_NE(msg.find("jump host 1 of 2 for host a (root@" + bastion() +
                     ":22): cannot open a forwarded connection "
                     "(direct-tcpip) to " +
                     bastion() + ":2299"),
            std::string::npos)
      << msg;
}

TEST_F(ReachOnLab, EachHopHasItsConnectTimeout) {
  // A listener that completes TCP handshakes (the kernel's backlog) and never
  // speaks SSH, on the root side of the bastion's veth: reachable directly (as a
  // first hop) and from the bastion (as a second hop).
  const std::string stall = "198.18.1." + std::to_string(pair() * 4 - 3);
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in sa{};
  sa.sin_family = AF_INET;
  sa.sin_port = htons(2299);
  inet_pton(AF_INET, stall.c_str(), &sa.sin_addr);
  ASSERT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&sa), sizeof sa), 0) << std::strerror(errno);
  ASSERT_EQ(listen(fd, 8), 0);
  profile::Host h = via_bastion("a");
  h.ssh.connect_timeout = std::chrono::seconds(2);
  for (const auto& [chain, hop] :
       {std::pair{"root@" + stall + ":2299", "jump host 1 of 1"},
        std::pair{"root@" + bastion() + ",root@" + stall + ":2299", "jump host 2 of 2"}}) {
    h.ssh.proxy_jump = chain;
    const auto t0 = std::chrono::steady_clock::now();
    const std::string msg = could_not_run([&] { transport::make_transport(h)->run({"true"}); });
    const auto took = std::chrono::steady_clock::now() - t0;
    EXPECT_NE(msg.find(std::string(hop) + " for host a (root@" + stall + ":2299): cannot connect"),
              std::string::npos)
        << msg;
    EXPECT_LT(took, std::chrono::seconds(8)) << chain;
  }
  close(fd);
}

TEST_F(ReachOnLab, BastionWithUnknownOrChangedKeyIsRefusedNamingTheHop) {
  profile::Host h = via_bastion("a");
  // Only the target's keys are known, not the bastion's.
  h.ssh.known_hosts = write("kh", address("a") + " " + host_key("a", "ed25519") + "\n");
  std::string msg = could_not_run([&] { transport::make_transport(h)->run({"true"}); });
  EXPECT_NE(msg.find("jump host 1 of 1 for host a (root@" + bastion() + ":22): unknown host key"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("labgate keyscan"), std::string::npos) << msg;
  // The bastion's ed25519 entry holds another key: changed, refused, file untouched.
  std::string text = bastion() + " " + host_key("a", "ed25519") + "\n";
  std::istringstream lab(slurp(state_dir() + "/known_hosts"));
  for (std::string line; std::getline(lab, line);)
    if (line.rfind(bastion() + " ", 0) != 0) text += line + "\n";  // none of its real keys
  h.ssh.known_hosts = write("kh", text);
  h.ssh.accept_new_host_keys = true;
  msg = could_not_run([&] { transport::make_transport(h)->run({"true"}); });
  EXPECT_NE(msg.find("jump host 1 of 1 for host a (root@" + bastion() + ":22): HOST KEY CHANGED"),
            std::string::npos)
      << msg;
  EXPECT_EQ(slurp(h.ssh.known_hosts), text);
}

TEST_F(ReachOnLab, SshConfigAliasesResolveHostAndBastion) {
  const std::string cfg = write("cfg", "Host lab-a\n  HostName " + address("a") +
                                           "\n  User root\n  ProxyJump jump\nHost jump\n  HostName " +
                                           bastion() + "\n  User root\n");
  profile::Host h = host("a");
  h.address = "lab-a";
  h.ssh.ssh_config = cfg;
  EXPECT_FALSE(hostname_of(h).empty());
  // validate -v shows what the alias became and where each value came from.
  const std::string p =
      write("p", "[lab]\nname = \"x\"\n[defaults.ssh]\nssh_config = \"" + cfg + "\"\nidentity = \"" +
                     state_dir() + "/id_rsa\"\n[hosts.a]\naddress = \"lab-a\"\n");
  const auto r = run_local({LABGATE_BIN, "validate", "-v", p});
  EXPECT_EQ(r.exit_status, 0) << r.out << r.err;
  EXPECT_NE(
      r.out.find("address      " + address("a") + " (ssh_config " + cfg + ":2 (HostName for \"lab-a\"))"),
      std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("jump chain   root@" + bastion() + ":22 -> root@" + address("a") + ":22 (ssh_config " +
                       cfg + ":4)"),
            std::string::npos)
      << r.out;
}

TEST_F(ReachOnLab, RevokedKeyIsRefusedAndNeverWritten) {
  const std::string revoked = "@revoked * " + host_key("a", "ed25519") + "\n";
  profile::Host h = via_bastion("a");
  h.ssh.known_hosts = write("kh", slurp(state_dir() + "/known_hosts") + revoked);
  std::string msg = could_not_run([&] { transport::make_transport(h)->run({"true"}); });
  EXPECT_NE(msg.find("host a (root@" + address("a") + ":22 via root@" + bastion() + ":22): REVOKED HOST KEY"),
            std::string::npos)
      << msg;
  // accept_new_host_keys with only the bastion's keys and the @revoked line: still refused, nothing written.
  const std::string only = bastion() + " " + host_key("j", "ed25519") + "\n" + revoked;
  h.ssh.known_hosts = write("kh", only);
  h.ssh.accept_new_host_keys = true;
  msg = could_not_run([&] { transport::make_transport(h)->run({"true"}); });
  EXPECT_NE(msg.find("REVOKED HOST KEY"), std::string::npos) << msg;
  EXPECT_EQ(slurp(h.ssh.known_hosts), only);
}

TEST_F(ReachOnLab, CertAuthorityOnlyIsNamedAsNotSupported) {
  profile::Host h = via_bastion("a");
  // The bastion's own keys, and for host a only a CA line (any key: labgate cannot use it).
  const std::string text = bastion() + " " + host_key("j", "ed25519") + "\n@cert-authority " + address("a") +
                           " " + host_key("b", "ed25519") + "\n";
  h.ssh.known_hosts = write("kh", text);
  h.ssh.accept_new_host_keys = true;
  const std::string msg = could_not_run([&] { transport::make_transport(h)->run({"true"}); });
  EXPECT_NE(msg.find("only the @cert-authority line " + h.ssh.known_hosts + ":2 vouches for this host"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("not supported"), std::string::npos) << msg;
  EXPECT_EQ(slurp(h.ssh.known_hosts), text);
}

TEST_F(ReachOnLab, KeyscanHopByHopIncludingTheLegacyServer) {
  const std::string kh = temp_dir("kh") + "/known_hosts";
  const std::string p = profile(kh);
  // Nothing known: the bastion's key is shown, nothing is sent past it, nothing written.
  auto r = run_local({LABGATE_BIN, "keyscan", p});
  EXPECT_EQ(r.exit_status, 3) << r.out << r.err;
  EXPECT_NE(r.out.find("jump host 1 of 1 for host a (root@" + bastion() + ":22): ssh-ed25519 SHA256:"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("    " + bastion() + " " + host_key("j", "ed25519") + "\n"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("not logged in to"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("nothing written"), std::string::npos) << r.out;
  EXPECT_FALSE(std::ifstream(kh).good());
  // --write records the bastion; the next --write reaches and records the hosts,
  // the legacy port 2222 one (ssh-rsa, SHA-1 key exchange) included.
  r = run_local({LABGATE_BIN, "keyscan", p, "--write"});
  EXPECT_EQ(slurp(kh), bastion() + " " + host_key("j", "ed25519") + "\n");
  r = run_local({LABGATE_BIN, "keyscan", p, "--write"});
  EXPECT_EQ(r.exit_status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("host b (root@" + address("b") + ":2222): ssh-rsa SHA256:"), std::string::npos)
      << r.out;
  const std::string written = slurp(kh);
  EXPECT_NE(written.find("[" + address("b") + "]:2222 " + host_key("b", "rsa") + "\n"), std::string::npos)
      << written;
  EXPECT_NE(written.find(address("a") + " " + host_key("a", "ed25519") + "\n"), std::string::npos) << written;
  // What keyscan wrote is what a run trusts.
  profile::Host b = via_bastion("b", 2222, true);
  b.ssh.known_hosts = kh;
  EXPECT_FALSE(hostname_of(b).empty());
  r = run_local({LABGATE_BIN, "keyscan", p});
  EXPECT_EQ(r.exit_status, 0) << r.out << r.err;
  EXPECT_EQ(slurp(kh), written);
}

TEST_F(ReachOnLab, EveryFailingHostNamedOnceAndVerboseVerboseLogsLibssh) {
  const std::string empty = write("kh", "");
  auto r = run_local({LABGATE_BIN, "facts", profile(empty)});
  EXPECT_EQ(r.exit_status, 3) << r.out << r.err;
  EXPECT_NE(r.err.find("2 hosts cannot be reached:\n- jump host 1 of 1 for host a"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("\n- jump host 1 of 1 for host b"), std::string::npos) << r.err;
  std::size_t count = 0;
  for (std::size_t at = 0; (at = r.err.find("for host a (", at)) != std::string::npos; ++at) ++count;
  EXPECT_EQ(count, 1u) << r.err;
  EXPECT_EQ(r.err.find("could not remove a lease"), std::string::npos) << r.err;
  // -vv against the legacy sshd: libssh's own log, and its kex named (not a null string).
  r = run_local({LABGATE_BIN, "-vv", "facts", profile(state_dir() + "/known_hosts")});
  EXPECT_EQ(r.exit_status, 0) << r.out << r.err;
  EXPECT_NE(r.err.find("libssh["), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("LOG ERROR"), std::string::npos) << r.err;
  // In `labgate -vv run` the suites' SSH work lands in the run's labgate.log.
  const std::string results = temp_dir("results");
  const auto run =
      run_local({LABGATE_BIN, "-vv", "run", profile(state_dir() + "/known_hosts"), "--results", results});
  EXPECT_EQ(run.exit_status, 0) << run.out << run.err;
  const auto log = run_local({"sh", "-c", "cat \"$1\"/*/labgate.log", "sh", results});
  EXPECT_NE(log.out.find("libssh[2]: ssh_connect: libssh 0.10"), std::string::npos) << log.out;
  // libssh 0.10's ssh_get_kex_algo returns NULL for the group exchange the legacy sshd uses.
  EXPECT_NE(r.err.find("host b (root@" + address("b") + ":2222 via root@" + bastion() +
                       ":22): connected (kex diffie-hellman-group-exchange"),
            std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace labgate::lab

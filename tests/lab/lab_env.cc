// Lab test support (see lab_env.h).
#include "lab_env.h"

#include <dirent.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>
#include <vector>

#include "labgate/util/exit_code.h"

namespace labgate::lab {

namespace {

profile::Host local_host(std::optional<std::string> ns = std::nullopt) {
  profile::Host h;
  h.name = ns ? *ns : "local";
  h.address = "local";
  h.netns = std::move(ns);
  h.ssh.command_timeout = std::chrono::seconds(120);
  return h;
}

std::string cmdline_of(long pid) {
  std::ifstream f("/proc/" + std::to_string(pid) + "/cmdline", std::ios::binary);
  std::string s((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  for (char& c : s) {
    if (c == '\0') c = ' ';
  }
  return s;
}

// /proc/PID/stat after the command name ("S 1234 ..."), empty for a pid gone.
std::string stat_after_comm(long pid) {
  std::ifstream f("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  std::getline(f, line);
  const auto close = line.rfind(')');
  return close == std::string::npos || close + 2 >= line.size() ? std::string() : line.substr(close + 2);
}

bool zombie(long pid) {
  const std::string rest = stat_after_comm(pid);
  return rest.empty() || rest[0] == 'Z';
}

}  // namespace

int pair() {
  const char* p = std::getenv("LABGATE_LAB_PAIR");
  return p ? std::atoi(p) : 1;
}

std::string netns(const std::string& host) {
  return (pair() == 1 ? std::string("lg") : "lg" + std::to_string(pair())) + "-" + host;
}

std::string address(const std::string& host) {
  const int base = (pair() - 1) * 8;
  return "198.18.0." + std::to_string(base + (host == "a" ? 2 : 6));
}

std::string state_dir() { return std::string(LABGATE_SOURCE_DIR) + "/.lab/pair" + std::to_string(pair()); }

std::string host_tmp(const std::string& host) { return state_dir() + "/tmp-" + host; }

profile::Host host(const std::string& name, int port, bool legacy) {
  profile::Host h;
  h.name = name;
  h.address = address(name);
  h.ssh.user = "root";
  h.ssh.port = port;
  h.ssh.identity = state_dir() + "/id_rsa";
  h.ssh.known_hosts = state_dir() + "/known_hosts";
  h.ssh.legacy_algorithms = legacy;
  h.ssh.connect_timeout = std::chrono::seconds(5);
  h.ssh.command_timeout = std::chrono::seconds(60);
  h.ssh.probe_dir = "/tmp";
  return h;
}

transport::RunResult run_local(const std::vector<std::string>& argv, std::chrono::seconds timeout) {
  auto t = transport::make_transport(local_host());
  transport::RunOptions o;
  o.timeout = timeout;
  o.during_interrupt = true;
  return t->run(argv, o);
}

std::vector<long> pids_matching(const std::string& host, const std::string& needle) {
  const auto r = run_local({"ip", "netns", "pids", netns(host)});
  std::vector<long> out;
  std::istringstream in(r.out);
  for (long pid; in >> pid;) {
    if (pid != getpid() && !zombie(pid) && cmdline_of(pid).find(needle) != std::string::npos)
      out.push_back(pid);
  }
  return out;
}

namespace {

std::string comm_of(long pid) {
  std::ifstream comm("/proc/" + std::to_string(pid) + "/comm");
  std::string name;
  std::getline(comm, name);
  return name;
}

long parent_of(long pid) {
  std::istringstream rest(stat_after_comm(pid));
  std::string state;
  long ppid = 0;
  rest >> state >> ppid;
  return ppid;
}

std::vector<long> sshds_in(const std::string& host) {
  const auto r = run_local({"ip", "netns", "pids", netns(host)});
  std::istringstream in(r.out);
  std::vector<long> out;
  for (long pid; in >> pid;) {
    if (!zombie(pid) && comm_of(pid) == "sshd") out.push_back(pid);
  }
  return out;
}

}  // namespace

void kill_sshd(const std::string& host) {
  // The listeners first, and only once they are gone the sessions: killed in pid
  // order, a session can die before its listener (pids wrap), and labgate's
  // reconnect then reaches the listener that is still up, so the "crashed server"
  // is not one. A listener is an sshd whose parent is not an sshd.
  const auto all = sshds_in(host);
  std::vector<long> listeners;
  for (long pid : all) {
    if (comm_of(parent_of(pid)) != "sshd") listeners.push_back(pid);
  }
  for (long pid : listeners) ::kill(static_cast<pid_t>(pid), SIGKILL);
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  for (bool alive = true; alive && std::chrono::steady_clock::now() < until;) {
    alive = false;
    for (long pid : listeners) alive = alive || (::kill(static_cast<pid_t>(pid), 0) == 0 && !zombie(pid));
    if (alive) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  for (long pid : sshds_in(host)) ::kill(static_cast<pid_t>(pid), SIGKILL);
}

void restore_lab() {
  const auto r =
      run_local({std::string(LABGATE_SOURCE_DIR) + "/ci/lab", "up", "--pair", std::to_string(pair())});
  ASSERT_EQ(r.exit_status, 0) << "ci/lab up failed: " << r.out << r.err;
}

std::string could_not_run(const std::function<void()>& f) {
  try {
    f();
  } catch (const Failure& e) {
    EXPECT_EQ(e.code(), ExitCode::kCouldNotRun) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "expected a Failure (exit 3), got none";
  return "";
}

void LabTest::SetUp() {
  static std::once_flag once;
  static std::string problem;
  std::call_once(once, [] {
    if (geteuid() != 0) {
      problem = "the lab tests need root (they drive network namespaces and sshd)";
      return;
    }
    const auto r =
        run_local({std::string(LABGATE_SOURCE_DIR) + "/ci/lab", "status", "--pair", std::to_string(pair())});
    if (r.exit_status != 0) {
      problem = "the built-in lab pair " + std::to_string(pair()) +
                " is not up; run `sudo ci/lab up --pair " + std::to_string(pair()) + "` first.\n" + r.out +
                r.err;
    }
  });
  if (problem.empty()) {
    lab_ok_ = true;
    return;
  }
  if (const char* skip = std::getenv("LABGATE_SKIP_LAB"); skip && std::string(skip) == "1") {
    GTEST_SKIP() << "LABGATE_SKIP_LAB=1: " << problem;
  }
  FAIL() << problem << "\n(set LABGATE_SKIP_LAB=1 to skip the lab tests on purpose)";
}

std::string LabTest::temp_dir(const std::string& tag) {
  std::string tmpl = "/tmp/labgate-labtest-" + tag + "-XXXXXX";
  if (!mkdtemp(tmpl.data())) ADD_FAILURE() << "mkdtemp " << tmpl;
  scratch_.push_back(tmpl);
  return tmpl;
}

void LabTest::TearDown() {
  for (const auto& d : scratch_) run_local({"rm", "-rf", d});
}

}  // namespace labgate::lab

// Test helpers for the gate layer on fakes: scripted hosts (FakeTransport) that a
// real HostDeployment can live on, a fake lease, SessionBoundaries that hand the
// hosts to a GateSession while the test keeps them, a profile written to a real
// file and a real results folder in a temporary directory.
#pragma once

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "../../src/deploy/remote_scripts.h"
#include "labgate/counters/snapshot.h"
#include "labgate/deploy/digest.h"
#include "labgate/gate/case_runner.h"
#include "labgate/gate/counter_bracket.h"
#include "labgate/gate/run_book.h"
#include "labgate/gate/session.h"
#include "labgate/gate/test_cases.h"
#include "labgate/profile/load.h"
#include "labgate/transport/fake_transport.h"
#include "labgate/util/exit_code.h"
#include "transport/dir_safe_test_util.h"

namespace labgate::gate::testing {

namespace fs = std::filesystem;

/// The tcp_rr test of the recorded pingpong outputs (measure/testdata): 0.3 s
/// measured after 0.1 s of warm-up, p50 ~48 us; a budget line may follow.
inline const std::string kRecordedRr =
    "[[test]]\nname = \"rr\"\nkind = \"tcp_rr\"\nfrom = \"a\"\nto = \"b\"\nduration = \"300ms\"\n"
    "warmup = \"100ms\"\ninterval = \"100ms\"\n";

/// What a run directory is called once the host's commands are normalised.
inline constexpr const char* kRunDir = "$RUN";

/// What /bin/sh prints for a bracketed_argv() command: cat's answer, the
/// program's stdout, cat's answer again (`after` unset: killed before it).
inline std::string bracketed_output(const transport::RunResult& before, const std::string& body,
                                    const std::optional<transport::RunResult>& after) {
  std::string out =
      before.out + before.err + std::string(kBeforeMarker) + std::to_string(before.exit_status) + "\n" + body;
  if (after)
    out += std::string(kAfterMarker) + after->out + after->err + std::string(kEndMarker) +
           std::to_string(after->exit_status) + "\n";
  return out;
}

/// A started bracketed_argv() command on a fake host, as the real shell and
/// probe behave: a server given --once has ended by the time it is waited for
/// (its after-snapshot read then); any other keeps running until stopped, and
/// a stop kills it before the after-snapshot (counted in `kills`).
class BracketedProcess : public transport::Process {
 public:
  BracketedProcess(std::unique_ptr<transport::Process> inner, transport::RunResult before, bool once,
                   std::function<transport::RunResult()> after, int& kills)
      : inner_(std::move(inner)),
        before_(std::move(before)),
        once_(once),
        after_(std::move(after)),
        kills_(kills) {}
  ~BracketedProcess() override { stop(transport::Nanos(0)); }
  std::optional<transport::RunResult> wait(transport::Nanos) override {
    if (result_) return result_;
    if (!once_) return std::nullopt;
    transport::RunResult r = *inner_->wait(transport::Nanos(0));
    r.out = bracketed_output(before_, r.out, after_());
    result_ = r;
    return result_;
  }
  bool wait_for_output(std::string_view needle, transport::Nanos) override {
    return stdout_so_far().find(needle) != std::string::npos;
  }
  transport::RunResult stop(transport::Nanos grace) override {
    if (result_) return *result_;
    ++kills_;
    transport::RunResult r = inner_->stop(grace);
    r.out = bracketed_output(before_, r.out, std::nullopt);
    r.signal = "TERM";
    result_ = r;
    return r;
  }
  std::string stdout_so_far() override {
    return result_ ? result_->out : bracketed_output(before_, inner_->stdout_so_far(), std::nullopt);
  }
  long pgid() const override { return inner_->pgid(); }
  const std::string& command() const override { return inner_->command(); }

 private:
  std::unique_ptr<transport::Process> inner_;
  transport::RunResult before_;
  bool once_;
  std::function<transport::RunResult()> after_;
  int& kills_;
  std::optional<transport::RunResult> result_;
};

/// A scripted host with probe_dir /tmp. The run's commands reach the rules
/// without the run marker (`env LABGATE_RUN=<dir>`) and with the run's random
/// directory written "$RUN", so a test scripts {"$RUN/pingpong", "client"}. A
/// probe asked for --self-digest answers the SHA-256 of what was uploaded (an
/// honest host); the deployment's own scripts succeed.
class FakeHost : public transport::FakeTransport {
 public:
  FakeHost(const std::string& name, const std::string& lab) : FakeTransport(name) {
    // The deployment's scripts: the run directory's mkdir reports our uid, the
    // directory (ours, 0700) and the owner note written; and the clean-up.
    on({"/bin/sh", "-c"}, ok("uid 0\nstat 41c0 0 4096\nowner written\n"));
    on(deploy::sweep_leftovers_argv("/tmp", "labgate-" + lab + "." + name + ".", ""), ok(""));
  }

  /// Called before every command is answered (argv normalised; a bracketed one's
  /// program): a test's way to
  /// act in the middle of a case (a signal arriving while it measures).
  std::function<void(const std::vector<std::string>&)> before_run;
  /// Answers a command by looking at all of it (a ping's size, sysbench's last
  /// word) before the prefix rules; nullopt leaves it to them.
  std::function<std::optional<transport::RunResult>(const std::vector<std::string>&)> respond;

  /// Every channel the host was asked for, in order: each command run or started
  /// (normalised), a bracketed_argv() one as "[counters]" and its program, not
  /// the pieces the fake answers it from.
  std::vector<std::vector<std::string>> channels;
  /// Every command as it was sent (normalised), a bracketed one whole: its
  /// shell line and what rides on it (the noise watch) included.
  std::vector<std::vector<std::string>> sent;
  /// Started processes stopped while still running (each a second channel on
  /// a real host: the kill).
  int kills = 0;
  /// false: a server given --once still never ends by itself (a UDP client's
  /// end-of-run datagrams all lost, a hung server).
  bool ends_by_itself = true;

  /// Every command run or started, normalised, in order.
  std::vector<std::vector<std::string>> commands() const {
    std::vector<std::vector<std::string>> out;
    for (const auto& c : calls()) out.push_back(c.argv);
    return out;
  }
  /// How many commands begin with `prefix`.
  int count(const std::vector<std::string>& prefix) const {
    int n = 0;
    for (const auto& c : calls())
      n += c.argv.size() >= prefix.size() && std::equal(prefix.begin(), prefix.end(), c.argv.begin());
    return n;
  }

  transport::RunResult run(const std::vector<std::string>& argv,
                           const transport::RunOptions& o = {}) override {
    const auto n = normalise(argv);
    sent.push_back(n);
    // A bracketed command is seen as its program (the shell around it is the fake's).
    if (before_run) before_run(bracketed_program(n).value_or(n));
    if (!argv.empty() && argv.back() == "--self-digest" && argv.size() >= 2) {
      digest_checks.push_back(n);
      auto it = files.find(argv[argv.size() - 2]);
      return it == files.end() ? exit_with(127, "no such file") : ok(deploy::sha256_hex(it->second) + "\n");
    }
    if (auto program = bracketed_program(n)) {
      note_channel(*program, true);
      const transport::RunResult before = counters_answer();
      transport::RunResult r = answer_run(*program, o);
      r.out = bracketed_output(before, r.out, counters_answer());
      return r;
    }
    note_channel(n, false);
    transport::RunResult r = answer_run(n, o);
    // The run directory's script resolves probe_dir ($2) first: its "path"
    // lines as this host's lstat sees them (stats a test scripted).
    if (n.size() > 5 && n[0] == "/bin/sh" && n[2].find("dir_safe \"$@\" || exit 0") != std::string::npos &&
        n[2].find("mkdir -m 0700 \"$rd\"") != std::string::npos)
      r.out = transport::testing::dir_safe_reply_from(*this, n[5]) + r.out;
    return r;
  }
  std::unique_ptr<transport::Process> start(const std::vector<std::string>& argv,
                                            const transport::StartOptions& o = {}) override {
    const auto n = normalise(argv);
    sent.push_back(n);
    // A bracketed command is seen as its program (the shell around it is the fake's).
    if (before_run) before_run(bracketed_program(n).value_or(n));
    if (auto program = bracketed_program(n)) {
      note_channel(*program, true);
      transport::RunResult before = counters_answer();
      const bool once =
          ends_by_itself && std::find(program->begin(), program->end(), "--once") != program->end();
      return std::make_unique<BracketedProcess>(
          FakeTransport::start(*program, o), std::move(before), once, [this] { return counters_answer(); },
          kills);
    }
    note_channel(n, false);
    return FakeTransport::start(n, o);
  }
  std::optional<FileInfo> lstat(const std::string& p) override {
    FileInfo dir;
    dir.is_dir = true;
    dir.uid = 0;
    if (p == "/tmp") {
      dir.mode = 01777;
      return dir;
    }
    if (p.rfind("/tmp/labgate-", 0) == 0 && p.find('/', 5) == std::string::npos) {
      dir.mode = 0700;
      return dir;
    }
    // A run directory in another probe_dir a test scripted (stats): ours, 0700.
    const std::string base = p.substr(0, p.rfind('/'));
    if (p.compare(base.size(), 9, "/labgate-") == 0 && stats.count(base)) {
      dir.mode = 0700;
      return dir;
    }
    return FakeTransport::lstat(p);
  }

  /// The probes' self-digest checks (not in calls(): they are the deployment's business).
  std::vector<std::vector<std::string>> digest_checks;

 private:
  transport::RunResult answer_run(const std::vector<std::string>& n, const transport::RunOptions& o) {
    if (respond)
      if (auto r = respond(n)) once(n, *r);
    return FakeTransport::run(n, o);
  }
  /// What the shell's own `cat` printed: the scripted answer, a failure as cat's error.
  transport::RunResult counters_answer() {
    try {
      return FakeTransport::run(counters::snapshot_command());
    } catch (const std::exception& e) {
      return exit_with(1, std::string("cat: ") + e.what() + "\n");
    }
  }
  void note_channel(const std::vector<std::string>& argv, bool bracketed) {
    std::lock_guard<std::mutex> lock(channels_mutex_);
    std::vector<std::string> c;
    if (bracketed) c.push_back("[counters]");
    c.insert(c.end(), argv.begin(), argv.end());
    channels.push_back(std::move(c));
  }
  std::mutex channels_mutex_;

  std::vector<std::string> normalise(const std::vector<std::string>& argv) const {
    std::vector<std::string> out(argv);
    std::string dir;
    if (out.size() >= 2 && out[0] == "env" && out[1].rfind("LABGATE_RUN=", 0) == 0) {
      dir = out[1].substr(12);
      out.erase(out.begin(), out.begin() + 2);
    }
    if (!dir.empty())
      for (auto& a : out)
        for (auto at = a.find(dir); at != std::string::npos; at = a.find(dir, at + 4))
          a.replace(at, dir.size(), kRunDir);
    return out;
  }
};

/// The lease as a test sees it: who asked for it, whether it was released.
struct FakeLeaseState {
  std::vector<std::string> taken_on;  ///< host names, in the order asked
  int released = 0;
  bool lost = false;
  std::string refuse;  ///< non-empty: take_lease throws Failure(kCouldNotRun) with this
  std::string says;    ///< non-empty: take_lease tells it (info) as a real lease tells its wait
};

class FakeLease : public LeaseHold {
 public:
  explicit FakeLease(FakeLeaseState& s) : s_(s) {}
  void release() override { ++s_.released; }
  bool lost() const override { return s_.lost; }
  std::string holder() const override { return "labgate test run by tester"; }

 private:
  FakeLeaseState& s_;
};

/// A Transport the session owns that forwards to a FakeHost the test owns, so the
/// test can read what was run after the session has closed.
class Borrowed : public transport::Transport {
 public:
  explicit Borrowed(FakeHost& h) : h_(h) {}
  const std::string& host_name() const override { return h_.host_name(); }
  std::string describe() const override { return h_.describe(); }
  void connect() override { h_.connect(); }
  transport::RunResult run(const std::vector<std::string>& argv, const transport::RunOptions& o) override {
    return h_.run(argv, o);
  }
  std::unique_ptr<transport::Process> start(const std::vector<std::string>& argv,
                                            const transport::StartOptions& o) override {
    return h_.start(argv, o);
  }
  void upload_data(std::string_view data, const std::string& path, int mode) override {
    h_.upload_data(data, path, mode);
  }
  std::string read_file(const std::string& path, std::size_t limit) override {
    return h_.read_file(path, limit);
  }
  std::optional<FileInfo> lstat(const std::string& path) override { return h_.lstat(path); }
  std::string host_identity() override { return h_.host_identity(); }
  void prepare_processes() override { h_.prepare_processes(); }

 private:
  FakeHost& h_;
};

/// Hosts a..z of one lab on fakes, the lease, and the boundaries a GateSession
/// or GateRun takes. `unreachable` hosts fail to connect with `why`.
struct FakeLab {
  explicit FakeLab(std::string lab_name) : lab(std::move(lab_name)) {}
  std::string lab;
  std::map<std::string, std::unique_ptr<FakeHost>> hosts;
  std::map<std::string, std::string> unreachable;
  FakeLeaseState lease;

  /// The host `name`, made on first use (the session reaches hosts in parallel).
  FakeHost& host(const std::string& name) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto& h = hosts[name];
    if (!h) h = std::make_unique<FakeHost>(name, lab);
    return *h;
  }

  SessionBoundaries boundaries() {
    SessionBoundaries b;
    b.connect = [this](const profile::Host& h) -> std::unique_ptr<transport::Transport> {
      if (auto it = unreachable.find(h.name); it != unreachable.end())
        throw Failure(ExitCode::kCouldNotRun, "host " + h.name + ": " + it->second);
      return std::make_unique<Borrowed>(host(h.name));
    };
    b.take_lease = [this](const profile::Profile&, std::vector<lease::LeaseTarget> targets, const std::string&,
                          util::Messages& messages) -> std::unique_ptr<LeaseHold> {
      for (const auto& t : targets) lease.taken_on.push_back(t.host.name);
      if (!lease.says.empty()) messages.info(lease.says);
      if (!lease.refuse.empty()) throw Failure(ExitCode::kCouldNotRun, lease.refuse);
      return std::make_unique<FakeLease>(lease);
    };
    return b;
  }

 private:
  std::mutex mutex_;
};

/// A temporary directory, removed at the end; it holds the profile file (RunBook
/// copies it), small stand-ins for the probes (LABGATE_PROBE_DIR) and results/.
class TempDir {
 public:
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "labgate-gate-test-XXXXXX").string();
    if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
    path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

/// Writes `text` to <dir>/profile.toml and loads it (throws on an invalid profile).
inline profile::Profile write_profile(const fs::path& dir, const std::string& text) {
  const fs::path file = dir / "profile.toml";
  std::ofstream(file) << text;
  auto r = profile::load_from_string(text, file.string());
  if (!r.profile) throw std::runtime_error(r.errors.empty() ? "no profile" : r.errors[0].str());
  return *r.profile;
}

/// Executable stand-ins for every probe in <dir>/probes, and LABGATE_PROBE_DIR set
/// to it: the session uploads them to the fake host and checks their digest.
inline void fake_probes(const fs::path& dir) {
  const fs::path probes = dir / "probes";
  fs::create_directories(probes);
  for (const char* p : {"pingpong", "stream", "jitter", "cmdrun", "disk", "facts", "watch"}) {
    std::ofstream(probes / p) << "#!/bin/false\n# stand-in for the " << p << " probe\n";
    ::chmod((probes / p).c_str(), 0755);
  }
  ::setenv("LABGATE_PROBE_DIR", probes.c_str(), 1);
}

/// A recorded file from a concept's testdata (the probes' real outputs).
inline std::string testdata(const std::string& relative) {
  std::ifstream in(fs::path(LABGATE_SOURCE_DIR) / relative, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + relative);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

/// A recorded /proc/net file of a real host (tests/fixtures/seeds-extra/proc).
inline std::string proc(const std::string& file) { return testdata("tests/fixtures/seeds-extra/proc/" + file); }
/// What the counter snapshot of one host reads: /proc/net/snmp, netstat and dev.
inline std::string counters() { return proc("snmp.txt") + proc("netstat.txt") + proc("dev.txt"); }

/// Two hosts a and b (root logins, address 10.0.0.x, test_address 192.168.1.x)
/// in lab "fakelab"; `tests` is appended.
inline std::string two_hosts(const std::string& tests = "") {
  return "[lab]\nname = \"fakelab\"\n[defaults.ssh]\nuser = \"root\"\nprobe_dir = \"/tmp\"\n"
         "[hosts.a]\naddress = \"10.0.0.1\"\ntest_address = \"192.168.1.1\"\n"
         "[hosts.b]\naddress = \"10.0.0.2\"\ntest_address = \"192.168.1.2\"\n" +
         tests;
}

/// How often `what` occurs in `text` (an error named once, not twice).
inline int occurrences(const std::string& text, const std::string& what) {
  int n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

/// The facts probe's answer with the one sysctl net.ipv4.tcp_sack at `value`.
inline std::string facts_with_sack(const std::string& value) {
  return R"({"schema": "labgate.facts/1", "probe": "facts", "root": "/", "sysctl": {"net.ipv4.tcp_sack": {"value": ")" +
         value + R"(", "source": "/proc/sys/net/ipv4/tcp_sack"}}})";
}

/// A whole run on hosts a and b: the facts probe says tcp_sack is 0, pingpong
/// answers with the recorded outputs (kRecordedRr), the counters are not scripted.
inline void script_recorded_run(FakeLab& lab) {
  for (const char* h : {"a", "b"}) {
    auto& f = lab.host(h);
    f.on({"$RUN/facts"}, transport::FakeTransport::ok(facts_with_sack("0")));
    f.on({"$RUN/pingpong", "server"},
         transport::FakeTransport::ok(testdata("harness/src/measure/testdata/pingpong-server-tcp.txt")));
    f.on({"$RUN/pingpong", "client"},
         transport::FakeTransport::ok(testdata("harness/src/measure/testdata/pingpong-tcp.json")));
    f.fail_on({"cat", "/proc/net/snmp"}, "counters not scripted");
  }
}

/// A test on the fake pair a, b: stand-in probes, a profile of two_hosts(tests),
/// its cases, and on demand a results folder and a session.
class FakeLabTest : public ::testing::Test {
 protected:
  void SetUp() override {
    fake_probes(tmp_.path());
    lab_.host("a");
    lab_.host("b");
  }
  /// Loads two_hosts(tests) and expands its cases.
  void load(const std::string& tests) {
    profile_ = write_profile(tmp_.path(), two_hosts(tests));
    cases_ = expand_cases(profile_);
  }
  /// A new results folder for the loaded profile.
  void open_book() {
    book_.emplace(results::RunDir::create(tmp_.path() / "results", "", results::Clock::now()), profile_);
  }
  GateSession& open_session(const std::vector<std::string>& hosts = {"a", "b"}) {
    session_ = std::make_unique<GateSession>(profile_, hosts, "run1", lab_.boundaries());
    return *session_;
  }
  /// Loads a profile with the one test `test` and opens a session on `hosts`: its one case.
  TestCase open_case(const std::string& test, const std::vector<std::string>& hosts) {
    load(test);
    EXPECT_EQ(cases_.size(), 1u);
    open_session(hosts);
    return cases_.at(0);
  }
  /// A file of the results folder, "" when absent.
  std::string read(const std::string& relative) {
    std::ifstream in(book_->dir().path() / relative);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
  /// Runs `c` on the session, which must throw Failure(kCouldNotRun): its message.
  std::string could_not_run(const TestCase& c, CaseRun* run = nullptr) {
    try {
      run_case(*session_, c, run);
    } catch (const Failure& f) {
      EXPECT_EQ(f.code(), ExitCode::kCouldNotRun);
      return f.what();
    }
    return "(it ran)";
  }

  TempDir tmp_;
  FakeLab lab_{"fakelab"};
  profile::Profile profile_;
  std::vector<TestCase> cases_;
  std::optional<RunBook> book_;
  std::unique_ptr<GateSession> session_;
};

}  // namespace labgate::gate::testing

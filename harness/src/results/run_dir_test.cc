// Tests of the results folder: naming and uniqueness, layout, atomic writes,
// and a clear error naming the file when the disk is full.
#include "labgate/results/run_dir.h"

#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sched.h>
#include <sys/mount.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>

#include "labgate/results/atomic_file.h"
#include "labgate/util/exit_code.h"
#include "results/temp_dir.h"

namespace labgate::results {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::MatchesRegex;
using testing::TempDir;

std::string slurp(const fs::path& p) { return read_file(p); }

ExitCode code_of(const std::function<void()>& fn, std::string* message = nullptr) {
  try {
    fn();
  } catch (const Failure& f) {
    if (message) *message = f.what();
    return f.code();
  }
  return ExitCode::kPassed;
}

TEST(SafeComponent, KeepsNamesReadableAndHarmless) {
  EXPECT_EQ(safe_component("a->b"), "a-to-b");
  EXPECT_EQ(safe_component("a/cpu2"), "a_cpu2");
  EXPECT_EQ(safe_component("tcp_rr_64"), "tcp_rr_64");
  EXPECT_EQ(safe_component("x y\"<&"), "x_y___");
  EXPECT_EQ(safe_component(".."), "_..");
  EXPECT_EQ(safe_component(""), "_");
}

TEST(RunDir, NamesTheFolderByLocalStartTimeAndSuffix) {
  TempDir tmp;
  const auto start = Clock::now();
  const RunDir d = RunDir::create(tmp.path() / "results", "nightly", start);
  EXPECT_THAT(d.id(), MatchesRegex("[0-9]{8}-[0-9]{6}-nightly"));
  EXPECT_TRUE(fs::is_directory(d.path()));
  const RunDir bare = RunDir::create(tmp.path() / "results", "", start);
  EXPECT_THAT(bare.id(), MatchesRegex("[0-9]{8}-[0-9]{6}"));
}

TEST(RunDir, NeverReusesAnExistingRunFolder) {
  TempDir tmp;
  const auto start = Clock::now();
  const RunDir first = RunDir::create(tmp.path(), "x", start);
  first.write_text("run.json", "{\"mine\":1}\n");
  const RunDir second = RunDir::create(tmp.path(), "x", start);
  const RunDir third = RunDir::create(tmp.path(), "x", start);
  EXPECT_EQ(second.id(), first.id() + "-2");
  EXPECT_EQ(third.id(), first.id() + "-3");
  EXPECT_EQ(slurp(first.path() / "run.json"), "{\"mine\":1}\n");
}

TEST(RunDir, RejectsASuffixThatIsNotAPlainName) {
  TempDir tmp;
  for (const std::string& bad :
       std::vector<std::string>{"../up", "a b", "x/y", ".hidden", std::string(65, 'a')}) {
    std::string msg;
    EXPECT_EQ(code_of([&] { RunDir::create(tmp.path(), bad, Clock::now()); }, &msg), ExitCode::kUsageError)
        << bad;
    EXPECT_THAT(msg, HasSubstr("--suffix"));
  }
  EXPECT_TRUE(fs::is_empty(tmp.path()));
}

TEST(RunDir, WritesTheDocumentedLayout) {
  TempDir tmp;
  const fs::path profile = tmp.path() / "lab.toml";
  std::ofstream(profile) << "[lab]\nname = \"lab\"\n";
  const RunDir d = RunDir::create(tmp.path() / "results", "s", Clock::now());
  d.copy_profile(profile);
  d.write_facts("a", {{"kernel", {{"release", "2.6.18-308.el5"}}}});
  const std::string raw = d.write_test_file("tcp_rr_64", "a->b", "client.out", "raw tool output\n");
  const std::string meas = d.write_measurement("tcp_rr_64", "a->b", {{"kind", "tcp_rr"}});
  d.write_checks({{"b", "sysctl/x", "0", "1", "/proc/sys/x", CheckVerdict::kFail, "m", "f"}});
  RunResult run;
  run.run_id = d.id();
  run.start_time = Clock::now();
  d.write_run(run);

  EXPECT_EQ(slurp(d.path() / "profile.toml"), "[lab]\nname = \"lab\"\n");
  EXPECT_EQ(nlohmann::json::parse(slurp(d.path() / "facts/a.json"))["kernel"]["release"], "2.6.18-308.el5");
  EXPECT_EQ(raw, "tests/tcp_rr_64/a-to-b/client.out");
  EXPECT_EQ(meas, "tests/tcp_rr_64/a-to-b/measurement.json");
  EXPECT_EQ(slurp(d.path() / raw), "raw tool output\n");
  EXPECT_EQ(nlohmann::json::parse(slurp(d.path() / "checks.json"))[0]["rule"], "sysctl/x");
  EXPECT_EQ(RunDir::open(d.path()).load_run().run_id, d.id());
  EXPECT_EQ(d.log_file(), d.path() / "labgate.log");
  for (const auto& e : fs::recursive_directory_iterator(d.path()))
    EXPECT_THAT(e.path().filename().string(), ::testing::Not(HasSubstr(".tmp."))) << "temp file left behind";
}

// Issue 22: the parent of the results folder replaced by a symlink mid-run once
// split the run into two folders. Every file goes through the folder's handle.
TEST(RunDir, APathReplacedMidRunCannotSplitTheRunAndIsReported) {
  TempDir tmp;
  const RunDir d = RunDir::create(tmp.path() / "results", "s", Clock::now());
  const std::string log = d.log_sink_path();
  d.write_facts("a", {{"k", 1}});
  EXPECT_EQ(d.replaced_path(), "");
  EXPECT_EQ(d.where(), d.path());
  // The parent moves away and a symlink to another folder takes its place.
  fs::rename(tmp.path() / "results", tmp.path() / "results.old");
  fs::create_directories(tmp.path() / "elsewhere" / d.id());
  fs::create_directory_symlink(tmp.path() / "elsewhere", tmp.path() / "results");
  d.write_facts("b", {{"k", 2}});
  d.write_measurement("tcp_rr_64", "a->b", {{"kind", "tcp_rr"}});
  RunResult run;
  run.run_id = d.id();
  run.start_time = Clock::now();
  d.write_run(run);
  d.write_text("junit.xml", "<testsuites/>\n");
  std::FILE* f = std::fopen(log.c_str(), "ab");  // what the log sink does with the path
  ASSERT_NE(f, nullptr);
  std::fputs("a line\n", f);
  std::fclose(f);

  const fs::path old = tmp.path() / "results.old" / d.id();
  for (const char* file : {"facts/a.json", "facts/b.json", "tests/tcp_rr_64/a-to-b/measurement.json",
                           "run.json", "junit.xml", "labgate.log"})
    EXPECT_TRUE(fs::is_regular_file(old / file)) << file << " is not in the folder the run began";
  EXPECT_TRUE(fs::is_empty(tmp.path() / "elsewhere" / d.id())) << "the run was split";
  EXPECT_EQ(slurp(old / "labgate.log"), "a line\n");
  EXPECT_TRUE(d.has("run.json"));
  EXPECT_EQ(d.load_run().run_id, d.id());
  EXPECT_EQ(fs::canonical(d.where()), fs::canonical(old));
  EXPECT_THAT(d.replaced_path(), ::testing::AllOf(HasSubstr(d.path().string() + " no longer leads"),
                                                  HasSubstr("now at " + d.where().string())));
}

TEST(RunDir, OpenAndLoadExplainWhatIsWrong) {
  TempDir tmp;
  std::string msg;
  EXPECT_EQ(code_of([&] { RunDir::open(tmp.path() / "nope"); }, &msg), ExitCode::kUsageError);
  EXPECT_THAT(msg, HasSubstr("is not a directory"));
  EXPECT_EQ(code_of([&] { RunDir::open(tmp.path()); }, &msg), ExitCode::kUsageError);
  EXPECT_THAT(msg, HasSubstr("no run.json"));

  std::ofstream(tmp.path() / "run.json") << "{\"format\": \"labgate-run-1\", \"run_id\": ";
  EXPECT_EQ(code_of([&] { RunDir::open(tmp.path()).load_run(); }, &msg), ExitCode::kUsageError);
  EXPECT_THAT(msg, HasSubstr((tmp.path() / "run.json").string() + ": not valid JSON"));

  std::ofstream(tmp.path() / "run.json") << R"({"format": "labgate-run-1", "run_id": 5})";
  EXPECT_EQ(code_of([&] { RunDir::open(tmp.path()).load_run(); }, &msg), ExitCode::kUsageError);
  EXPECT_THAT(msg, HasSubstr("run.json: run_id: expected a string, got number"));
}

TEST(AtomicFile, ReplacesWholeFilesOnly) {
  TempDir tmp;
  const fs::path f = tmp.path() / "run.json";
  write_file_atomic(f, "first");
  write_file_atomic(f, "second, longer");
  EXPECT_EQ(slurp(f), "second, longer");
  std::string msg;
  EXPECT_EQ(code_of([&] { write_file_atomic(tmp.path() / "missing-dir" / "x.json", "x"); }, &msg),
            ExitCode::kCouldNotRun);
  EXPECT_THAT(msg, HasSubstr("missing-dir/x.json"));
}

TEST(AtomicFile, AFullDeviceIsReportedNamingTheFile) {
  const int fd = ::open("/dev/full", O_WRONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0) << "/dev/full is missing";
  std::string msg;
  EXPECT_EQ(code_of([&] { write_all(fd, "data", "results/x/junit.xml"); }, &msg), ExitCode::kCouldNotRun);
  ::close(fd);
  EXPECT_EQ(msg, "cannot write results file results/x/junit.xml: No space left on device");
}

// A real small filesystem: a 64 KiB tmpfs in a private mount namespace, so
// nothing outside this test process ever sees the mount.
TEST(RunDir, DiskFullKeepsWhatWasWrittenAndNamesTheFile) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to mount a small tmpfs";
  ASSERT_EQ(::unshare(CLONE_NEWNS), 0) << std::strerror(errno);
  ASSERT_EQ(::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr), 0) << std::strerror(errno);
  TempDir tmp;
  ASSERT_EQ(::mount("tmpfs", tmp.path().c_str(), "tmpfs", 0, "size=64k"), 0) << std::strerror(errno);
  const RunDir d = RunDir::create(tmp.path(), "full", Clock::now());
  RunResult run;
  run.run_id = d.id();
  run.start_time = Clock::now();
  d.write_run(run);
  const std::string before = slurp(d.path() / "run.json");

  std::string msg;
  EXPECT_EQ(code_of([&] { d.write_text("run.json", std::string(256 * 1024, 'x')); }, &msg),
            ExitCode::kCouldNotRun);
  EXPECT_EQ(msg,
            "cannot write results file " + (d.path() / "run.json").string() + ": No space left on device");
  EXPECT_EQ(slurp(d.path() / "run.json"), before) << "a failed write must leave the previous file intact";
  for (const auto& e : fs::directory_iterator(d.path()))
    EXPECT_THAT(e.path().filename().string(), ::testing::Not(HasSubstr(".tmp."))) << "temp file left behind";
  ::umount2(tmp.path().c_str(), MNT_DETACH);
}

}  // namespace
}  // namespace labgate::results

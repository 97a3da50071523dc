// Tests of `labgate import`: saved netperf/sockperf/iperf3 runs from the seeds and
// the lab become Measurement JSON, are judged by a profile test (exit 0 within, 1
// over), and bad files or arguments exit 2 naming file:line, through the real CLI.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "cli/cli_test_util.h"
#include "results/temp_dir.h"

namespace labgate::cli {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

const std::string kTools = std::string(LABGATE_SOURCE_DIR) + "/tests/fixtures/tools/";
const std::string kProfile = kTools + "import-profile.toml";

using test_util::Outcome;

Outcome import(std::vector<std::string> args) {
  args.insert(args.begin(), "import");
  return test_util::run_cli(std::move(args));
}

class TempPath {
 public:
  TempPath() : path_("/tmp/labgate-import-" + std::to_string(getpid()) + "-" + std::to_string(++n_)) {}
  ~TempPath() { std::remove(path_.c_str()); }
  const std::string& str() const { return path_; }

 private:
  static inline int n_ = 0;
  std::string path_;
};

TEST(ImportCommand, NetperfRunBecomesMeasurementJson) {
  const Outcome o = import({"--tool", "netperf", kTools + "netperf/000-01.txt"});
  ASSERT_EQ(o.rc, 0) << o.err;
  const nlohmann::json j = nlohmann::json::parse(o.out);
  EXPECT_EQ(j.at("format"), "labgate-measurement-1");
  EXPECT_EQ(j.at("source"), "netperf");
  EXPECT_EQ(j.at("kind"), "tcp_rr");
  EXPECT_EQ(j.at("metric"), "round_trip");
  EXPECT_EQ(j.at("reported").at("p99"), 136000.0);
  EXPECT_EQ(j.at("reported").at("max"), 1096000.0);
  EXPECT_EQ(j.at("histogram").at("total"), 1314524);
  EXPECT_THAT(o.err, HasSubstr("decade-bucket resolution"));  // said, not hidden
}

TEST(ImportCommand, OutWritesTheFile) {
  TempPath out;
  const Outcome o = import({"--tool", "iperf3", kTools + "iperf3/iperf312-udp.json", "--out", out.str()});
  ASSERT_EQ(o.rc, 0) << o.err;
  // The JSON goes to the file, so stdout has room for the verdict: the sample accounting alone.
  EXPECT_THAT(o.out, ::testing::StartsWith("test iperf3_udp_stream ("));
  EXPECT_THAT(o.out, HasSubstr("): samples accounted for, no budget\n"));
  std::ifstream in(out.str());
  const nlohmann::json j = nlohmann::json::parse(in);
  EXPECT_EQ(j.at("kind"), "udp_stream");
  EXPECT_EQ(j.at("sent"), 73238);
}

TEST(ImportCommand, SeedRunWithinTodaysBudgetExits0) {
  TempPath out;
  const Outcome o = import({"--tool", "netperf", kTools + "netperf/000-01.txt", "--test", "tcp_rr_64_netperf",
                            "--profile", kProfile, "--out", out.str()});
  EXPECT_EQ(o.rc, 0) << o.err;
  EXPECT_THAT(o.out, HasSubstr("test tcp_rr_64_netperf (" + kProfile + ":22:1): within budget"));
  EXPECT_THAT(o.out, HasSubstr("ok    p99  136us <= 140us"));
}

TEST(ImportCommand, AvahiSpikeInSeedRunExits1) {
  // Seed 000's fourth TCP_STREAM run: a 12 ms send stall, gone once avahi-daemon was off.
  const Outcome o = import(
      {"--tool", "netperf", kTools + "netperf/000-04.txt", "--test", "tcp_stream_64", "--profile", kProfile});
  EXPECT_EQ(o.rc, 1) << o.err;
  EXPECT_EQ(nlohmann::json::parse(o.out).at("kind"), "tcp_stream");  // stdout stays pure JSON
  EXPECT_THAT(o.err, HasSubstr("FAILED"));
  EXPECT_THAT(o.err, HasSubstr("FAIL  max  12.129ms <= 500us"));
  EXPECT_THAT(o.err, HasSubstr("runs builtin today; this netperf output was judged by its budget"));
}

TEST(ImportCommand, SockperfHalfRttIsJudgedAsRoundTrip) {
  TempPath out;
  // Seed 000's sockperf 2.5 UDP run: avg-lat 38.495 us is a 76.99 us round trip.
  const Outcome o = import({"--tool", "sockperf", kTools + "sockperf/000-02-udp.txt", "--test", "udp_rr_64",
                            "--profile", kProfile, "--out", out.str()});
  EXPECT_EQ(o.rc, 0) << o.out << o.err;
  EXPECT_THAT(o.out, HasSubstr("ok    p50  76.756us <= 90us"));
  EXPECT_THAT(o.out, HasSubstr("ok    p99_9  254.012us <= 300us"));
  const Outcome tcp = import({"--tool", "sockperf", kTools + "sockperf/000-03-tcp.txt", "--kind", "tcp_rr"});
  EXPECT_EQ(tcp.rc, 0) << tcp.err;
}

TEST(ImportCommand, SfntPingpongIsToldByItsOutputAndJudgedAsRoundTrips) {
  // Lab pair 21's udp run at its default 1/2 RTT: its "%ile" 12313 ns is a 24.626 us round trip.
  const Outcome o = import({kTools + "sfnt/udp-half.txt", "--test", "udp_rr_64_sfnt", "--profile", kProfile});
  ASSERT_EQ(o.rc, 0) << o.out << o.err;
  const nlohmann::json j = nlohmann::json::parse(o.out);
  EXPECT_EQ(j.at("source"), "sfnt-pingpong");
  EXPECT_EQ(j.at("kind"), "udp_rr");
  EXPECT_EQ(j.at("reported").at("p99"), 24626.0);
  EXPECT_EQ(j.at("reported").at("p50"), 15712.0);
  EXPECT_THAT(o.err, HasSubstr("ok    p99  24.626us <= 200us"));
  // Its max, a 6.02 ms round trip on the loaded VM, is over a 5 ms budget: exit 1, by the same judge.
  TempPath profile;
  {
    std::ifstream in(kProfile);
    std::stringstream text;
    text << in.rdbuf();
    std::string p = text.str();
    p.replace(p.find("max = \"50ms\" }"), 14, "max = \"5ms\" }");
    std::ofstream(profile.str()) << p;
  }
  const Outcome over = import({"--tool", "sfnt-pingpong", kTools + "sfnt/udp-half.txt", "--test",
                               "udp_rr_64_sfnt", "--profile", profile.str()});
  EXPECT_EQ(over.rc, 1) << over.out << over.err;
  // A sweep of sizes is not one test: exit 2 naming the file and line.
  const Outcome sweep = import({"--tool", "sfnt-pingpong", kTools + "sfnt/udp-sizes.txt"});
  EXPECT_EQ(sweep.rc, 2);
  EXPECT_THAT(sweep.err, HasSubstr("sfnt/udp-sizes.txt:"));
  EXPECT_THAT(sweep.err, HasSubstr("3 message sizes (1, 64, 1024)"));
}

TEST(ImportCommand, OneJudgeWithAndWithoutResults) {
  results::testing::TempDir root("labgate-import-cli");
  // A real sockperf under-load run (1 in 10 answered) passes both ways; a
  // ping-pong loop that stalled (netperf's replies dropped from 1 s on) fails
  // both ways: `import` and `import --results` use the one judge.
  for (const char* f : {"sockperf/sockperf310-udp-ul.txt", "sockperf/sockperf37-udp-ul.txt"}) {
    SCOPED_TRACE(f);
    const Outcome json = import({kTools + f});
    EXPECT_EQ(json.rc, 0) << json.err;
    EXPECT_THAT(json.err, Not(HasSubstr("stalled")));
    const Outcome results = import({kTools + f, "--results", root.path().string()});
    EXPECT_EQ(results.rc, 0) << results.out << results.err;
  }
  const std::string stalled = kTools + "netperf/real-271-udp-rr-stalled.txt";
  const Outcome json = import({stalled});
  EXPECT_EQ(json.rc, 1) << json.err;
  EXPECT_THAT(json.err, HasSubstr("replies were lost"));
  EXPECT_EQ(import({stalled, "--results", root.path().string()}).rc, 1);
}

TEST(ImportCommand, BadFilesExit2NamingFileAndLine) {
  const std::string f = kTools + "netperf/000-03.txt";
  Outcome o = import({"--tool", "netperf", f, "--test", "tcp_rr_64_netperf", "--profile", kProfile});
  EXPECT_EQ(o.rc, 2);
  EXPECT_THAT(o.err, HasSubstr(f + ":2: this is a tcp_stream run, not the tcp_rr that was asked for"));

  o = import({"--tool", "iperf3", kTools + "netperf/000-01.txt"});
  EXPECT_EQ(o.rc, 2);
  EXPECT_THAT(o.err, HasSubstr("000-01.txt:1: not iperf3 -J output"));

  o = import({"--tool", "sockperf", kTools + "sockperf/sockperf37-tcp-refused.txt"});
  EXPECT_EQ(o.rc, 2);
  EXPECT_THAT(o.err, HasSubstr("sockperf37-tcp-refused.txt:2: sockperf reported a failure"));

  TempPath junk;
  {
    std::ofstream out(junk.str(), std::ios::binary);
    std::mt19937 rng(1);
    for (int i = 0; i < (4 << 20); ++i) out.put(static_cast<char>(rng()));
  }
  o = import({"--tool", "netperf", junk.str()});
  EXPECT_EQ(o.rc, 2);
  EXPECT_THAT(o.err, HasSubstr(junk.str() + ":1: not netperf output"));

  o = import({"--tool", "netperf", "/nonexistent/run.txt"});
  EXPECT_EQ(o.rc, 2);
  EXPECT_THAT(o.err, HasSubstr("/nonexistent/run.txt: cannot read"));
}

TEST(ImportCommand, BadArgumentsExit2) {
  const std::string f = kTools + "netperf/000-01.txt";
  EXPECT_THAT(import({"--tool", "ping", f}).err,
              HasSubstr("--tool must be netperf, sockperf, iperf3 or sfnt-pingpong, not 'ping'"));
  EXPECT_EQ(import({"--tool", "netperf", f, "--test", "x"}).rc, 2);
  EXPECT_THAT(import({"--tool", "netperf", f, "--kind", "jitter"}).err, HasSubstr("--kind must be tcp_rr"));
  const Outcome unknown = import({"--tool", "netperf", f, "--test", "nope", "--profile", kProfile});
  EXPECT_EQ(unknown.rc, 2);
  EXPECT_THAT(unknown.err, HasSubstr("has no test 'nope' (its tests: tcp_rr_64_netperf, tcp_stream_64, "
                                     "udp_rr_64, udp_rr_64_netperf, udp_rr_64_sfnt)"));
  const Outcome differ = import(
      {"--tool", "netperf", f, "--kind", "udp_rr", "--test", "tcp_rr_64_netperf", "--profile", kProfile});
  EXPECT_THAT(differ.err, HasSubstr("--kind udp_rr differs from test 'tcp_rr_64_netperf', which is tcp_rr"));
  EXPECT_EQ(import({"--tool", "netperf"}).rc, 2);
}

// A sockperf ul run's --reply-every comes from its command line (sockperf does not
// print it): given, its samples are held against it in every form of import.
TEST(ImportCommand, SockperfUlIsHeldAgainstTheReplyEveryGiven) {
  const std::string f = kTools + "sockperf/sockperf37-udp-ul-e20-loaded.txt";
  const Outcome told = import({f});
  EXPECT_EQ(told.rc, 1) << "told from its counts (1 in 19), it reads 5 % short";
  EXPECT_THAT(told.err, HasSubstr("import it again with --reply-every N"));
  const Outcome given = import({f, "--reply-every", "20"});
  EXPECT_EQ(given.rc, 0) << given.err;
  EXPECT_EQ(nlohmann::json::parse(given.out).at("parameters").at("sockperf.reply_every"),
            "20 (told from --reply-every 20, as given)");
  results::testing::TempDir root("labgate-import-cli");
  EXPECT_EQ(import({f, "--reply-every", "20", "--results", root.path().string()}).rc, 0);

  const Outcome wrong = import({f, "--reply-every", "100"});
  EXPECT_EQ(wrong.rc, 2);
  EXPECT_THAT(wrong.err, HasSubstr("sockperf37-udp-ul-e20-loaded.txt:11"));
  EXPECT_THAT(wrong.err, HasSubstr("--reply-every 100 does not match this run"));
  EXPECT_THAT(import({f, "--reply-every", "0"}).err, HasSubstr("--reply-every must be 1 or more"));
  EXPECT_THAT(
      import({kTools + "netperf/000-01.txt", "--reply-every", "20"}).err,
      HasSubstr("--reply-every is sockperf ul's, and " + kTools + "netperf/000-01.txt is netperf output"));
}

TEST(ImportCommand, ResultsWritesOneFolderPerFileAndExitsWithTheWorst) {
  results::testing::TempDir root("labgate-import-cli");
  const Outcome o = import({kTools + "netperf/000-03.txt", kTools + "netperf/000-04.txt", "--profile", kProfile,
                            "--test", "tcp_stream_64", "--results", root.path().string(), "--suffix", "seed000"});
  EXPECT_EQ(o.rc, 1) << o.err;  // 000-04's 12 ms stall is over the 500 us max
  EXPECT_THAT(o.out, HasSubstr("000-03.txt -> " + root.path().string()));
  EXPECT_THAT(o.out, HasSubstr("-seed000 (passed, started "));
  EXPECT_THAT(o.out, HasSubstr("-seed000-2 (failed, started "));
  EXPECT_THAT(o.out, HasSubstr("from the file's modification time"));
  int folders = 0;
  for (const auto& e : std::filesystem::directory_iterator(root.path()))
    folders += std::filesystem::is_regular_file(e.path() / "run.json");
  EXPECT_EQ(folders, 2);
}

// A real netperf 2.7.1 UDP_RR whose replies were dropped from 1 s into its 3 s:
// its own figures (p99 6 us) are within any budget, only the sample accounting
// sees the stall. Every form of import fails it, exit 1, with the same verdict.
TEST(ImportCommand, StalledNetperfFailsInEveryFormWithTheSameMessage) {
  const std::string f = kTools + "netperf/real-271-udp-rr-stalled.txt";
  const std::vector<std::string> test{"--test", "udp_rr_64_netperf", "--profile", kProfile};
  results::testing::TempDir root("labgate-import-cli");
  const std::string dir = root.path().string();
  // What --results prints after "FILE -> DIR (...)": the verdict block.
  const auto verdict_of = [](const Outcome& o) { return o.out.substr(o.out.find('\n') + 1); };

  for (const bool with_test : {false, true}) {
    std::vector<std::string> json{f}, folder{f, "--results", dir};
    if (with_test) {
      json.insert(json.end(), test.begin(), test.end());
      folder.insert(folder.end(), test.begin(), test.end());
    }
    const Outcome to_json = import(json), to_folder = import(folder);
    SCOPED_TRACE(with_test ? "with --test/--profile" : "without --test");
    EXPECT_EQ(to_json.rc, 1) << to_json.err;
    EXPECT_EQ(to_folder.rc, 1) << to_folder.err;
    EXPECT_EQ(nlohmann::json::parse(to_json.out).at("kind"), "udp_rr");  // stdout stays pure JSON
    const std::string verdict = verdict_of(to_folder);
    EXPECT_THAT(verdict, HasSubstr(": FAILED\n"));
    EXPECT_THAT(verdict, HasSubstr("replies were lost"));
    EXPECT_THAT(verdict, HasSubstr(with_test ? "udp_rr_64_netperf (" + kProfile : "netperf_udp_rr (" + f));
    if (with_test) {
      EXPECT_THAT(verdict, HasSubstr("  ok    p99  6us <= 130us\n"));
    }
    EXPECT_THAT(to_json.err, HasSubstr(verdict)) << "the same judge, the same words";
  }
}

TEST(ImportCommand, ResultsOptionsAreChecked) {
  results::testing::TempDir root("labgate-import-cli");
  const std::string f = kTools + "netperf/000-01.txt", dir = root.path().string();
  EXPECT_THAT(import({f, f}).err, HasSubstr("several files need --results DIR"));
  EXPECT_THAT(import({f, "--started", "2019-03-12T10:15:00Z"}).err, HasSubstr("add --results DIR"));
  EXPECT_THAT(import({f, f, "--results", dir, "--started", "2019-03-12T10:15:00Z"}).err,
              HasSubstr("--started is one file's start time"));
  EXPECT_THAT(import({f, "--results", dir, "--started", "last tuesday"}).err,
              HasSubstr("--started: 'last tuesday' is not an ISO 8601 UTC time"));
  EXPECT_THAT(import({f, "--results", dir, "--out", dir + "/x.json"}).err, HasSubstr("choose one"));
  EXPECT_THAT(import({f, "--results", dir, "--suffix", "a/b"}).err, HasSubstr("--suffix 'a/b' may only hold"));
  EXPECT_TRUE(std::filesystem::is_empty(root.path()));
  const Outcome ok = import({f, "--results", dir, "--started", "2019-03-12T10:15:00Z"});
  EXPECT_EQ(ok.rc, 0) << ok.err;
  EXPECT_THAT(ok.out, HasSubstr("(passed, started 2019-03-12T10:15:00.000Z from --started)"));
}

}  // namespace
}  // namespace labgate::cli

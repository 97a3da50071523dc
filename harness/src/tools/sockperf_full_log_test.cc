// sockperf's per-sample log: the host's pass run for real under each awk a host
// may have (gawk as on RHEL, Debian's mawk, busybox), on a log in sockperf's
// own format, and the reading of what it prints.
#include "labgate/tools/sockperf_full_log.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>

#include "labgate/transport/shell_quote.h"

namespace labgate::tools {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

// The lines dumpFullLog() of sockperf 3.10 writes (client.cpp), rtts in us.
std::string sockperf_log(const std::vector<std::pair<std::uint64_t, std::uint64_t>>& tx_rx_ns) {
  std::string s = "------------------------------\npacket, txTime(sec), rxTime(sec), rtt(usec)\n";
  char buf[160];
  for (std::size_t i = 0; i < tx_rx_ns.size(); ++i) {
    const auto [tx, rx] = tx_rx_ns[i];
    std::snprintf(buf, sizeof buf, "%zu, %llu.%09llu, %llu.%09llu, %.3f\n", i,
                  static_cast<unsigned long long>(tx / 1000000000), static_cast<unsigned long long>(tx % 1000000000),
                  static_cast<unsigned long long>(rx / 1000000000), static_cast<unsigned long long>(rx % 1000000000),
                  static_cast<double>(rx - tx) / 1000.0);
    s += buf;
  }
  return s + "------------------------------\n";
}

struct Pass {
  std::string out;
  int status = -1;
};

// Runs the argv through /bin/sh with `awk` being `awk_program`.
Pass run_pass(const std::vector<std::string>& argv, const std::string& awk_program, const fs::path& dir) {
  const fs::path bin = dir / "bin";
  fs::create_directories(bin);
  fs::remove(bin / "awk");
  if (awk_program.find("busybox") != std::string::npos) {
    std::ofstream(bin / "awk") << "#!/bin/sh\nexec " << awk_program << " awk \"$@\"\n";
    fs::permissions(bin / "awk", fs::perms::owner_all);
  } else {
    fs::create_symlink(awk_program, bin / "awk");
  }
  const std::string cmd = "PATH=" + bin.string() + ":/usr/bin:/bin " + transport::shell_join(argv);
  Pass p;
  FILE* f = popen(cmd.c_str(), "r");
  char buf[4096];
  std::size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) p.out.append(buf, n);
  p.status = pclose(f);
  return p;
}

std::vector<std::string> awks() {
  std::vector<std::string> found;
  for (const char* a : {"/usr/bin/gawk", "/usr/bin/mawk", "/bin/busybox"})
    if (access(a, X_OK) == 0) found.push_back(a);
  return found;
}

class FullLogPass : public ::testing::Test {
 protected:
  fs::path dir = fs::temp_directory_path() / ("lg-fulllog-" + std::to_string(getpid()));
  void SetUp() override { fs::create_directories(dir); }
  void TearDown() override { fs::remove_all(dir); }
};

TEST_F(FullLogPass, EveryAwkKeepsTheWorstAndRemovesTheLog) {
  // 20,000 round trips of 10-20 us on a monotonic clock past 10^6 s (so the
  // awk's doubles would blur nanoseconds: the times must be read from the text),
  // with 5 stalls planted among them.
  std::mt19937_64 rng(7);
  std::vector<std::pair<std::uint64_t, std::uint64_t>> s;
  std::uint64_t t = 1234567ull * 1000000000ull + 123456789ull;
  for (int i = 0; i < 20000; ++i) {
    std::uint64_t rtt = 10000 + rng() % 10000;
    if (i == 17 || i == 4000 || i == 9999 || i == 15000 || i == 19999) rtt = 200000 + static_cast<std::uint64_t>(i);
    s.push_back({t, t + rtt});
    t += rtt + 1000;
  }
  const std::vector<std::string> all = awks();
  ASSERT_FALSE(all.empty()) << "no awk to run the pass with";
  for (const std::string& awk : all) {
    SCOPED_TRACE(awk);
    const fs::path log = dir / "full.log";
    std::ofstream(log) << sockperf_log(s);
    const Pass p = run_pass(full_log_worst_argv(log.string(), 8), awk, dir);
    ASSERT_EQ(p.status, 0) << p.out;
    EXPECT_FALSE(fs::exists(log)) << "the log was left on the host";
    const FullLogWorst w = parse_full_log_worst(p.out);
    EXPECT_EQ(w.samples, 20000u);
    EXPECT_EQ(w.first_tx_ns, s.front().first);
    EXPECT_EQ(w.last_rx_ns, s.back().second);
    ASSERT_EQ(w.worst.size(), 8u);
    const std::vector<std::uint64_t> planted{19999, 15000, 9999, 4000, 17};
    for (std::size_t i = 0; i < planted.size(); ++i) {
      EXPECT_EQ(w.worst[i].index, planted[i]);
      EXPECT_EQ(w.worst[i].tx_ns, s[planted[i]].first);  // exact to the ns
      EXPECT_EQ(w.worst[i].rtt_ns(), 200000 + planted[i]);
    }
    for (std::size_t i = 5; i < 8; ++i) EXPECT_LT(w.worst[i].rtt_ns(), 20000u);
  }
}

TEST_F(FullLogPass, AMissingLogFailsThePassAndFewerSamplesThanKeptAreAllKept) {
  for (const std::string& awk : awks()) {
    SCOPED_TRACE(awk);
    EXPECT_NE(run_pass(full_log_worst_argv((dir / "none.log").string(), 8), awk, dir).status, 0);
    const fs::path log = dir / "short.log";
    std::ofstream(log) << sockperf_log({{5000000000ull, 5000012000ull}, {5000020000ull, 5000090000ull}});
    const Pass p = run_pass(full_log_worst_argv(log.string(), 8), awk, dir);
    ASSERT_EQ(p.status, 0);
    const FullLogWorst w = parse_full_log_worst(p.out);
    EXPECT_EQ(w.samples, 2u);
    ASSERT_EQ(w.worst.size(), 2u);
    EXPECT_EQ(w.worst[0].index, 1u);
    EXPECT_EQ(w.worst[0].rtt_ns(), 70000u);
  }
}

TEST(FullLogParse, TimesAreReadExactlyAndBadTextIsNamed) {
  EXPECT_EQ(decimal_seconds_to_ns("1234567.000000001"), 1234567000000001ull);
  EXPECT_EQ(decimal_seconds_to_ns("3.5"), 3500000000ull);
  EXPECT_EQ(decimal_seconds_to_ns("42"), 42000000000ull);
  EXPECT_THROW(decimal_seconds_to_ns("1.0000000001"), std::invalid_argument);
  EXPECT_THROW(decimal_seconds_to_ns("-1.0"), std::invalid_argument);
  EXPECT_THROW(decimal_seconds_to_ns("1e3"), std::invalid_argument);
  const FullLogWorst none = parse_full_log_worst("samples 0 0 0\n");
  EXPECT_EQ(none.samples, 0u);
  EXPECT_TRUE(none.worst.empty());
  try {
    parse_full_log_worst("");
    FAIL() << "empty output accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr("sockperf full log: the pass printed nothing"));
  }
  EXPECT_THROW(parse_full_log_worst("samples 1 1.0 2.0\n0, 1.0, 2.0\n"), std::invalid_argument);  // 3 fields
  EXPECT_THROW(parse_full_log_worst("samples 1 1.0 2.0\n0, 1.0, 2.0, 1.0\n1, 3.0, 4.0, 1.0\n"),
               std::invalid_argument);  // more kept than read
}

}  // namespace
}  // namespace labgate::tools

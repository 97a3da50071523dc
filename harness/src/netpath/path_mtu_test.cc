// Tests of the path MTU search against simulated paths (a narrower hop, a lossy
// path, a broken one), the DF probe reading on real iputils outputs recorded on
// a veth pair with MTUs 1500 and 1400, and the verdict's wording.
#include "labgate/netpath/path_mtu.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "util/source_file.h"

namespace labgate::netpath {
namespace {

using ::testing::HasSubstr;

// A recorded output of the DF probe (its stderr is often empty).
std::string df_probe_file(const std::string& name) {
  return test_files::source_file_may_be_empty("tests/fixtures/seeds-extra/ping/" + name);
}

DfResult recorded(const std::string& stem, std::string* detail) {
  return read_df_probe(std::stoi(df_probe_file(stem + ".rc")), df_probe_file(stem + ".out"),
                       df_probe_file(stem + ".err"), detail);
}

// A path whose narrowest hop is `mtu`; counts the probes.
struct Path {
  int mtu;
  int probes = 0;
  DfResult operator()(int size, std::string* detail) {
    ++probes;
    if (size <= mtu) return DfResult::kPasses;
    *detail = "no reply within 1s";
    return DfResult::kNoReply;
  }
};

TEST(DfProbe, CommandSendsThePayloadThatMakesTheMtu) {
  EXPECT_EQ(
      df_probe_command("198.19.1.2", 1500),
      (std::vector<std::string>{"ping", "-n", "-c", "1", "-W", "1", "-M", "do", "-s", "1472", "198.19.1.2"}));
  // IPv6: ping6 (RHEL 5's ping is IPv4 only) and 40 + 8 header bytes.
  EXPECT_EQ(df_probe_command("fd4c:6762:0:19::2", 1500),
            (std::vector<std::string>{"ping6", "-n", "-c", "1", "-W", "1", "-M", "do", "-s", "1452",
                                      "fd4c:6762:0:19::2"}));
}

TEST(DfProbe, ReadsRealIputilsOutputs) {
  std::string detail;
  EXPECT_EQ(recorded("mtu-1372", &detail), DfResult::kPasses);   // 1400 on a 1500 -> 1400 path
  EXPECT_EQ(recorded("mtu-1472", &detail), DfResult::kNoReply);  // dropped by the 1400 side
  EXPECT_EQ(detail, "no reply within 1s");
  EXPECT_EQ(recorded("mtu-1473", &detail), DfResult::kTooBig);  // over the local MTU
  EXPECT_EQ(detail, "ping: local error: message too long, mtu=1500");
  EXPECT_EQ(recorded("mtu-b-1373", &detail), DfResult::kTooBig);
  EXPECT_THAT(detail, HasSubstr("mtu=1400"));
  EXPECT_EQ(read_df_probe(2, "", "ping: connect: Network is unreachable\n", &detail), DfResult::kError);
  EXPECT_EQ(detail, "ping exited with 2: ping: connect: Network is unreachable");
  EXPECT_EQ(read_df_probe(0, "1 packets transmitted, 0 received", "", &detail), DfResult::kError);
}

TEST(PathMtuSearch, FindsTheNarrowestHopInLogarithmicProbes) {
  for (int mtu : {68, 576, 1400, 1492, 1500, 8999, 9000}) {
    Path path{mtu};
    const MtuSearch s = find_path_mtu(68, 9216, std::ref(path), 1);
    ASSERT_TRUE(s.mtu) << mtu;
    EXPECT_EQ(*s.mtu, mtu);
    EXPECT_LE(path.probes, 2 + 14) << mtu;  // ends, then ceil(log2(9148))
    EXPECT_EQ(s.steps.size(), static_cast<std::size_t>(path.probes));
  }
  Path wide{65535};
  EXPECT_EQ(find_path_mtu(68, 9216, std::ref(wide)).mtu, 9216);
  EXPECT_EQ(wide.probes, 2);
}

TEST(PathMtuSearch, TheExpectedMtuSettlesAHealthyPathInTwoProbes) {
  Path path{1500};
  const MtuSearch s = find_path_mtu(68, 9216, std::ref(path), 2, 1500);
  EXPECT_EQ(s.mtu, 1500);
  EXPECT_EQ(path.probes, 2 + 1);                        // 1500 passes, 1501 gets no reply twice
  for (int mtu : {68, 1400, 1499, 1501, 9000, 9216}) {  // a wrong hint still finds the truth
    Path other{mtu};
    EXPECT_EQ(find_path_mtu(68, 9216, std::ref(other), 1, 1500).mtu, mtu);
  }
  Path wide{65535};
  EXPECT_EQ(find_path_mtu(68, 9216, std::ref(wide), 1, 9216).mtu, 9216);
  EXPECT_EQ(wide.probes, 1);
}

TEST(PathMtuSearch, ARefusedSizeIsNotRetried) {
  int calls = 0;
  auto refusing = [&](int size, std::string* d) {
    ++calls;
    *d = "ping: local error: message too long, mtu=1500";
    return size <= 1500 ? DfResult::kPasses : DfResult::kTooBig;
  };
  const MtuSearch s = find_path_mtu(68, 9216, refusing, 2);
  EXPECT_EQ(s.mtu, 1500);
  EXPECT_EQ(static_cast<std::size_t>(calls), s.steps.size());
  EXPECT_LE(calls, 16);  // no second try of any size
}

TEST(PathMtuSearch, OneLostEchoDoesNotShrinkTheAnswer) {
  int calls = 0;
  auto lossy = [&](int size, std::string*) {
    ++calls;
    if (calls == 4) return DfResult::kNoReply;  // the first try of one size is lost
    return size <= 1500 ? DfResult::kPasses : DfResult::kTooBig;
  };
  EXPECT_EQ(find_path_mtu(68, 9216, lossy, 2).mtu, 1500);
}

TEST(PathMtuSearch, NothingPassesOrPingCannotRun) {
  auto dead = [](int, std::string* d) {
    *d = "no reply within 1s";
    return DfResult::kNoReply;
  };
  const MtuSearch none = find_path_mtu(68, 9216, dead);
  EXPECT_FALSE(none.mtu);
  EXPECT_TRUE(none.error.empty());
  EXPECT_EQ(none.steps.size(), 2u);  // the smallest size, tried twice
  auto broken = [](int, std::string* d) {
    *d = "ping exited with 2: ping: connect: Network is unreachable";
    return DfResult::kError;
  };
  const MtuSearch err = find_path_mtu(68, 9216, broken);
  EXPECT_THAT(err.error, HasSubstr("Network is unreachable"));
  EXPECT_EQ(err.steps.size(), 1u);
  EXPECT_FALSE(find_path_mtu(9000, 1500, broken).error.empty());
  EXPECT_EQ(search_range(1500), (std::pair<int, int>{68, 9216}));
  EXPECT_EQ(search_range(9216), (std::pair<int, int>{68, 9217}));
  EXPECT_EQ(search_range(1500, /*ipv6=*/true), (std::pair<int, int>{1280, 9216}));
}

TEST(PathMtuVerdict, NamesBothDirectionsAndTheExpectation) {
  MtuSearch ok, narrow, failed;
  ok.mtu = 1500;
  narrow.mtu = 1400;
  failed.error = "ping exited with 2: ping: connect: Network is unreachable";
  const MtuVerdict pass = judge_path_mtu(1500, "a", "b", ok, ok);
  EXPECT_TRUE(pass.pass);
  EXPECT_EQ(pass.message, "a->b carries 1500 bytes and b->a carries 1500 bytes; expected 1500 (mtu = 1500)");
  const MtuVerdict fail = judge_path_mtu(1500, "a", "b", narrow, ok);
  EXPECT_FALSE(fail.pass);
  EXPECT_THAT(fail.message, HasSubstr("a->b carries 1400 bytes and b->a carries 1500 bytes; expected 1500"));
  EXPECT_THAT(fail.message, HasSubstr("narrower than the profile expects"));
  EXPECT_THAT(judge_path_mtu(1500, "a", "b", ok, failed).message, HasSubstr("b->a could not be measured"));
  EXPECT_THAT(judge_path_mtu(1400, "a", "b", ok, ok).message,
              HasSubstr("carries more than the profile expects"));
}

}  // namespace
}  // namespace labgate::netpath

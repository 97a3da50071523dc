// Tests of MeshRounds on a fake measurement: a round's pairs are in flight
// together, no host is in two at once, rounds never overlap, one pair's failure
// is only its own result, and each case gets back its own measurement.
#include "labgate/gate/mesh_rounds.h"

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <set>

#include "labgate/profile/load.h"

namespace labgate::gate {
namespace {

profile::Profile six_hosts() {
  std::string text = "[lab]\nname = \"rac\"\n";
  for (int i = 1; i <= 6; ++i)
    text += "[hosts.n" + std::to_string(i) + "]\naddress = \"10.0.0." + std::to_string(i) +
            "\"\ntest_address = \"192.168.1." + std::to_string(i) + "\"\n";
  text +=
      "[[test]]\nname = \"rr\"\nkind = \"tcp_rr\"\npairs = \"mesh\"\nmesh_schedule = \"disjoint\"\n"
      "budget = { p99 = \"1ms\" }\n";
  auto r = profile::load_from_string(text, "rac.toml");
  if (!r.profile) throw std::runtime_error(r.errors.at(0).str());
  return *r.profile;
}

// A measurement that waits until every pair of its round is in flight (so a
// round measured one pair after another is seen, not hung on: it gives up after
// 20 s), and notes any host in two pairs at once and any round overlapping another.
struct FakeLab {
  std::mutex m;
  std::condition_variable cv;
  std::map<int, int> arrived;  // round -> pairs that have started (never goes down)
  std::map<int, int> left;     // round -> pairs that have finished
  std::set<std::string> busy;
  std::set<int> rounds_in_flight;
  std::vector<std::string> faults;
  std::string failing_pair;

  MeasuredCase measure(const TestCase& c, std::size_t round_size) {
    std::unique_lock lock(m);
    for (const std::string& h : {c.client, c.server})
      if (!busy.insert(h).second) faults.push_back("host " + h + " in two pairs at once (" + c.pair + ")");
    rounds_in_flight.insert(c.round);
    if (rounds_in_flight.size() > 1) faults.push_back("two rounds at once at " + c.pair);
    ++arrived[c.round];
    cv.notify_all();
    if (!cv.wait_for(lock, std::chrono::seconds(20), [&] { return arrived[c.round] == static_cast<int>(round_size); }))
      faults.push_back("round " + std::to_string(c.round) + " was not measured at the same time (" + c.pair + ")");
    MeasuredCase out;
    out.run.raw_files.emplace_back("pair", c.pair);
    if (c.pair == failing_pair) out.error = "host " + c.server + ": probe killed";
    // Leaves only once every pair of the round has arrived: the round is in flight as a whole.
    busy.erase(c.client);
    busy.erase(c.server);
    if (++left[c.round] == arrived[c.round]) rounds_in_flight.erase(c.round);
    return out;
  }
};

TEST(MeshRounds, EachRoundIsMeasuredAtOnceAndEachCaseGetsItsOwnResult) {
  const auto p = six_hosts();
  const auto cases = expand_cases(p);
  ASSERT_EQ(cases.size(), 30u);
  MeshRounds rounds(cases);
  FakeLab lab;
  lab.failing_pair = "n2->n5";
  std::vector<std::string> prepared;
  int measured = 0;
  for (const TestCase& c : cases) {
    const bool first = !rounds.holds(c);
    const MeasuredCase m = rounds.take(
        c,
        [&](const TestCase& x) {
          return lab.measure(x, 3);
        },
        [&](const TestCase& x) { prepared.push_back(x.pair); });
    if (first) ++measured;
    ASSERT_EQ(m.run.raw_files.size(), 1u);
    EXPECT_EQ(m.run.raw_files[0].second, c.pair);  // its own, not a neighbour's
    EXPECT_EQ(m.error.has_value(), c.pair == "n2->n5") << c.pair;
  }
  EXPECT_EQ(measured, 10);  // one start per round: 5 rounds of 3 pairs per direction
  EXPECT_EQ(prepared.size(), 30u);
  EXPECT_TRUE(lab.faults.empty()) << lab.faults.front();
  for (const TestCase& c : cases) EXPECT_FALSE(rounds.holds(c));
}

TEST(MeshRounds, ACaseThatWillNotRunIsNotMeasured) {
  const auto p = six_hosts();
  const auto cases = expand_cases(p);
  MeshRounds rounds(cases);
  FakeLab lab;
  const std::string left_out = cases[1].pair;
  const auto runs = [&](const TestCase& x) { return x.pair != left_out; };
  EXPECT_EQ(rounds.round_of(cases[0], runs).size(), 2u);
  std::set<std::string> seen;
  std::mutex seen_mutex;  // the round's pairs are measured on their own threads
  rounds.take(
      cases[0],
      [&](const TestCase& x) {
        {
          std::lock_guard lock(seen_mutex);
          seen.insert(x.pair);
        }
        return lab.measure(x, 2);
      },
      {}, runs);
  EXPECT_EQ(seen, (std::set<std::string>{cases[0].pair, cases[2].pair}));
  EXPECT_TRUE(rounds.holds(cases[2]));
  EXPECT_FALSE(rounds.holds(cases[1]));
  EXPECT_TRUE(rounds.round_pending(cases[0]));
  rounds.take(cases[2], {});
  EXPECT_FALSE(rounds.round_pending(cases[0]));
}

TEST(MeshRounds, AMeasureThatThrowsIsThatPairsErrorOnly) {
  const auto p = six_hosts();
  const auto cases = expand_cases(p);
  MeshRounds rounds(cases);
  const MeasuredCase first = rounds.take(cases[0], [&](const TestCase& x) -> MeasuredCase {
    if (x.pair == cases[1].pair) throw std::runtime_error("host lost");
    return {};
  });
  EXPECT_FALSE(first.error);
  EXPECT_EQ(rounds.take(cases[1], {}).error.value_or(""), "host lost");
  EXPECT_FALSE(rounds.take(cases[2], {}).error);
}

TEST(MeshRounds, ACaseOutsideAnyRoundIsMeasuredAlone) {
  auto p = six_hosts();
  p.tests[0].mesh->schedule = profile::MeshSchedule::kSequential;
  const auto cases = expand_cases(p);
  MeshRounds rounds(cases);
  int calls = 0;
  rounds.take(cases[0], [&](const TestCase&) {
    ++calls;
    return MeasuredCase{};
  });
  EXPECT_EQ(calls, 1);
  EXPECT_FALSE(rounds.holds(cases[1]));
}

}  // namespace
}  // namespace labgate::gate

// Which cases are watched, and which counter deltas become report warnings.
#include "labgate/gate/counter_watch.h"

#include <gtest/gtest.h>

namespace labgate::gate {
namespace {

using profile::Stat;
using profile::TestKind;

// A budget line of the profile, built member by member: GCC 12 at -O3 warns that
// the string of a brace-built Bound's `{}` position "may be used uninitialized"
// once this file shares a translation unit (the unity build) with the others.
profile::Bound budget_line(Stat stat, double limit, const std::string& as_written) {
  profile::Bound b;
  b.stat = stat;
  b.limit = limit;
  b.as_written = as_written;
  return b;
}

TEST(CounterWatch, WatchesTrafficBetweenThePairOnly) {
  for (TestKind k :
       {TestKind::kTcpRr, TestKind::kUdpRr, TestKind::kTcpStream, TestKind::kUdpStream, TestKind::kPingFlood})
    EXPECT_TRUE(watches_counters(k)) << profile::to_string(k);
  for (TestKind k : {TestKind::kJitter, TestKind::kPathMtu, TestKind::kCommand, TestKind::kDiskRandomRead})
    EXPECT_FALSE(watches_counters(k)) << profile::to_string(k);
}

TEST(CounterWatch, ANonZeroDeltaWithoutABudgetIsAWarning) {
  counters::Delta d;
  d.host = "b";
  d.retransmits = 3;
  d.rx_drops = 2;
  d.udp_rcvbuf_errors = 0;
  profile::TestSpec spec;
  auto w = unbudgeted_trouble(d, spec);
  ASSERT_EQ(w.size(), 2u);
  EXPECT_EQ(w[0], "counters: b: 3 TCP segments retransmitted (Tcp RetransSegs) during the test");
  EXPECT_NE(w[1].find("2 packets dropped on receive"), std::string::npos);

  spec.budget.push_back(budget_line(Stat::kMaxRetransmits, 0, "0"));
  w = unbudgeted_trouble(d, spec);
  ASSERT_EQ(w.size(), 1u) << "the budget judges retransmits; only the drops warn";
  EXPECT_NE(w[0].find("dropped on receive"), std::string::npos);
  spec.budget.push_back(budget_line(Stat::kMaxRxDrops, 5, "5"));
  EXPECT_TRUE(unbudgeted_trouble(d, spec).empty());
}

TEST(CounterWatch, ACleanDeltaSaysNothing) {
  counters::Delta d;
  d.host = "a";
  d.retransmits = 0;
  EXPECT_TRUE(unbudgeted_trouble(d, profile::TestSpec{}).empty());
}

}  // namespace
}  // namespace labgate::gate

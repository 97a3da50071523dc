// buffers_cover_bdp: which cases judge it, the sysctls read back, the verdict.
#include "labgate/gate/bdp_rule.h"

#include <gtest/gtest.h>

#include "labgate/gate/records.h"

namespace labgate::gate {
namespace {

using namespace std::chrono_literals;

TEST(BdpRule, ReadsEachSysctlByItsPathSoAMissingOneStaysUnknown) {
  const auto s = parse_buffer_sysctls(
      "/proc/sys/net/core/rmem_max:212992\n"
      "/proc/sys/net/ipv4/tcp_rmem:4096\t87380\t16777216\n"
      "/proc/sys/net/ipv4/tcp_wmem:4096\t65536\t16777216\n");
  EXPECT_EQ(s.rmem_max, "212992");
  EXPECT_EQ(s.wmem_max, std::nullopt) << "wmem_max was not printed";
  EXPECT_EQ(s.tcp_rmem, "4096\t87380\t16777216");
  EXPECT_EQ(buffer_sysctls_command()[0], "grep");
}

TEST(BdpRule, VerdictCarriesTheArithmeticAndTheSmallestLimit) {
  netpath::BufferSysctls s{"129024", "212992", "4096 87380 16777216", "4096 65536 16777216"};
  // Seed 003: 941 Mbit/s over 1.153 ms needs about 135 KB in flight.
  const auto r = netpath::check_buffers("a", 941.38e6, 1153us, s);
  const RuleVerdict v = bdp_verdict("a", r);
  EXPECT_EQ(v.rule, "buffers_cover_bdp a");
  EXPECT_FALSE(v.pass) << "rmem_max 129024 < BDP";
  EXPECT_EQ(v.observed, 129024);
  EXPECT_NEAR(v.limit, 135678, 2);
  EXPECT_NE(v.message.find("BDP = "), std::string::npos);
  EXPECT_NE(v.message.find("net.core.rmem_max = 129,024 < BDP"), std::string::npos) << v.message;

  s.rmem_max = "16777216";
  const RuleVerdict ok = bdp_verdict("a", netpath::check_buffers("a", 941.38e6, 1153us, s));
  EXPECT_TRUE(ok.pass);
  EXPECT_EQ(ok.observed, 212992);
}

TEST(BdpRule, AFailedRuleFailsTheRecordAndJoinsItsFailure) {
  results::TestRecord r;
  r.verdict = results::TestVerdict::kPass;
  RuleVerdict held{"path_mtu a->b", 1500, 1500, true, "a->b carries 1500 bytes"};
  RuleVerdict broken{"path_mtu b->a", 1400, 1500, false, "b->a carries 1400 bytes; expected 1500"};
  add_rules(r, {held});
  EXPECT_EQ(r.verdict, results::TestVerdict::kPass);
  ASSERT_EQ(r.budget.size(), 1u);
  EXPECT_EQ(r.budget[0].unit, "bytes");
  add_rules(r, {broken});
  EXPECT_EQ(r.verdict, results::TestVerdict::kFail);
  EXPECT_EQ(r.failure, "path_mtu b->a: b->a carries 1400 bytes; expected 1500");
  EXPECT_FALSE(r.budget[1].pass);
  EXPECT_EQ(r.budget[1].observed, 1400);
}

}  // namespace
}  // namespace labgate::gate

// Tests of the bandwidth-delay product against buffer limits (seed 003's pair:
// 100 Mbit/s, 1.153 ms, rmem_max 129024) and of the congestion control lists.
#include "labgate/netpath/bdp.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "labgate/netpath/congestion.h"

namespace labgate::netpath {
namespace {

using std::chrono::microseconds;
using ::testing::HasSubstr;

TEST(Bdp, Seed003PathNeedsFourteenKilobytes) {
  EXPECT_DOUBLE_EQ(bdp_bytes(100e6, microseconds(1153)), 14412.5);
  const BdpResult r = check_buffers("netperfc", 100e6, microseconds(1153),
                                    {"129024", "129024", "4096 87380 1048576", "4096 16384 4194304"});
  EXPECT_TRUE(r.pass);
  ASSERT_EQ(r.arithmetic.size(), 5u);
  EXPECT_EQ(r.arithmetic[0], "BDP = 100.00 Mbit/s x 1.153 ms / 8 = 14,413 bytes (14.1 KiB)");
  EXPECT_EQ(r.arithmetic[3], "netperfc: net.ipv4.tcp_rmem (max) = 1,048,576 >= BDP 14,413: holds");
}

TEST(Bdp, SeedsShrunkenBuffersFailAGigabitPath) {
  // Seed 003 set tcp_rmem to "15113 15113 15113"; on 941 Mbit/s at 1.153 ms that is far too small.
  const BdpResult r = check_buffers("a", 941.38e6, microseconds(1153),
                                    {"15113", "16777216", "15113 15113 15113", "4096 65536 16777216"});
  EXPECT_FALSE(r.pass);
  EXPECT_NEAR(r.bdp_bytes, 135676.4, 0.1);
  EXPECT_FALSE(r.buffers[0].holds);
  EXPECT_TRUE(r.buffers[1].holds);
  EXPECT_EQ(r.buffers[2].bytes, 15113u);
  EXPECT_EQ(r.buffers[2].line,
            "a: net.ipv4.tcp_rmem (max) = 15,113 < BDP 135,677: too small; a single connection "
            "cannot fill the path");
}

TEST(Bdp, UnknownOrUnparsableLimitsFailTheRule) {
  const BdpResult r =
      check_buffers("b", 1e9, microseconds(100), {std::nullopt, "16777216", "4096 87380", "x"});
  EXPECT_FALSE(r.pass);
  EXPECT_FALSE(r.buffers[0].bytes);
  EXPECT_THAT(r.buffers[0].line, HasSubstr("unknown (not reported by the host)"));
  EXPECT_FALSE(r.buffers[2].bytes);  // no third field
  EXPECT_FALSE(r.buffers[3].bytes);
}

TEST(Congestion, ListsFromProcOrFromModuleFileNames) {
  EXPECT_EQ(parse_congestion_list("reno cubic\n"), (std::vector<std::string>{"reno", "cubic"}));
  // RHEL 5: `ls /lib/modules/2.6.18-308.el5/kernel/net/ipv4/` as seed 002 does.
  EXPECT_EQ(parse_congestion_list("ah4.ko tcp_bic.ko tcp_diag.ko tcp_htcp.ko\ntcp_vegas.ko xfrm4_tunnel.ko"),
            (std::vector<std::string>{"bic", "htcp", "vegas"}));
  EXPECT_EQ(congestion_error("a", "cubic", {"reno", "cubic"}), std::nullopt);
  const auto err = congestion_error("a", "htcp", {"reno", "cubic"});
  ASSERT_TRUE(err);
  EXPECT_THAT(*err, HasSubstr("host a has no TCP congestion control \"htcp\"; it has: reno cubic"));
  EXPECT_EQ(congestion_sources().size(), 3u);
}

}  // namespace
}  // namespace labgate::netpath

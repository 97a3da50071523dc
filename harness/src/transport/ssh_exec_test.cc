// What a refused session channel is called: sshd's MaxSessions, not a dead link.
#include "ssh_exec.h"

#include <gtest/gtest.h>

namespace labgate::transport {
namespace {

TEST(ExplainChannelRefusal, MaxSessionsIsNamedAndOtherErrorsAreLeftAlone) {
  const auto why = explain_channel_refusal("Channel opening failure: channel 43 error (1) open failed");
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("MaxSessions"), std::string::npos) << *why;
  EXPECT_NE(why->find("open failed"), std::string::npos) << *why;
  EXPECT_TRUE(explain_channel_refusal(
      "Channel opening failure: channel 44 error (2) open failed"));  // seen on the lab
  EXPECT_FALSE(explain_channel_refusal("Socket error: Connection reset by peer"));
}

}  // namespace
}  // namespace labgate::transport

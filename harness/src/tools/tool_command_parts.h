// What the command builders of src/tools share (private to src/tools): the
// refusal naming the test, whole seconds as the tools take them, and the
// multicast variants of sockperf's and sfnt-pingpong's commands.
#pragma once

#include <chrono>
#include <string>

#include "labgate/tools/tool_commands.h"

namespace labgate::tools::detail {

/// Throws std::invalid_argument naming the test and its line.
[[noreturn]] void refuse(const profile::TestSpec& spec, const std::string& why);

/// Whole seconds, as every tool takes them; a fraction is rounded up and said.
long whole_seconds(const profile::TestSpec& spec, std::chrono::nanoseconds d, const char* what,
                   ToolInvocation& inv);

/// sockperf pp's --mps for the profile's rate, and what its pacing and its own
/// fixed warm-up do not honour, said as warnings.
void sockperf_pace_and_warmup(const profile::TestSpec& spec, ToolInvocation& inv);

/// udp_multicast by sockperf: `sr` joins the group on the subscriber's test
/// address, `pp` on the publisher's sends to it; the subscriber answers to the
/// group (sockperf's default), so the round trip crosses the group both ways.
void sockperf_multicast_command(const profile::TestSpec& spec, const Endpoint& ep, ToolInvocation& inv);

/// udp_multicast by sfnt-pingpong: --mcast GROUP --mcastintf=CLIENT;SERVER, both
/// ends join the group and send to each other's port on it.
void sfnt_multicast_command(const profile::TestSpec& spec, const Endpoint& ep, ToolInvocation& inv);

}  // namespace labgate::tools::detail

// The interconnect's link state on a host, read when a probe heard nothing back:
// "no reply from the server" is often a link that went down, and the message
// should say so rather than leave the reader to guess.
#pragma once

#include <string>
#include <vector>

#include "labgate/gate/session.h"

namespace labgate::gate {

/// One /bin/sh exec (RHEL 5's /sys and iproute): every interface's operstate and
/// carrier, then the IPv4 addresses (`ip -o -4 addr show`).
std::vector<std::string> link_state_argv();

/// From link_state_argv()'s output: "ic0 down (no carrier)" / "ic0 up" for the
/// interface holding `address`; "" when no interface holds it.
std::string link_state_of(const std::string& output, const std::string& address);

/// "; the interconnect now: ic0 on host a up, ic0 on host b down (no carrier)"
/// for the test addresses of `hosts` (names), read within 10 s; "" when none could be read.
std::string interconnect_now(GateSession& session, const std::vector<std::string>& hosts,
                             const std::string& network);

}  // namespace labgate::gate

// Connecting again when sshd turns a connection away before authentication:
// over its MaxStartups (another client, or a scan, holding the unauthenticated
// slots) sshd accepts the TCP connection and closes it at once, and a full
// listen queue drops or resets it. Both pass in moments, so the connection is
// tried again after a growing pause, within connect_timeout; when they persist
// the error says what is the likely cause.
#pragma once

#include <functional>
#include <string>

#include "server_wait.h"

namespace labgate::transport {

/// True for a connect failure that is the server hanging up before the login
/// (reset, closed, disconnected while exchanging banners or keys); false for
/// what another attempt cannot change (refused: nothing listens; no route; a
/// host key or login refused).
bool turned_away_before_login(const std::string& message);

/// Calls `connect_once` (connecting to `who`) until it returns, asking again (after 50 ms, doubling to
/// 1 s) while the Failure it throws is turned_away_before_login, within
/// `wait.limit`. Any other failure is thrown at once; a drop that persists is
/// thrown with the number of attempts, the time and "sshd MaxStartups or a full
/// listen queue is the likely cause" added. Returns the number of attempts.
int connect_retrying_drops(const std::string& who, const std::function<void()>& connect_once,
                           const ServerWait& wait);

}  // namespace labgate::transport

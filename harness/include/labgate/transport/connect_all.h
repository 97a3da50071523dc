// Reaching several hosts at once, so that a run that cannot start names every
// host it cannot reach, each error once, instead of stopping at the first.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "labgate/profile/profile.h"
#include "labgate/transport/transport.h"

namespace labgate::transport {

using Connected = std::map<std::string, std::unique_ptr<Transport>>;
using Maker = std::function<std::unique_ptr<Transport>(const profile::Host&)>;

/// Connects to every host in parallel (make_transport, then connect()). If any
/// fails, throws one Failure listing every failing host's error, in the hosts'
/// order, with the first failure's exit code.
Connected connect_all(const std::vector<profile::Host>& hosts, Maker make = make_transport);

/// The message for several failures: one alone is itself; more are counted and listed.
std::string join_failures(const std::vector<std::string>& messages);

}  // namespace labgate::transport

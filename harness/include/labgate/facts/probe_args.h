// The facts probe's command line for a profile: one run gathers exactly what
// the precondition rules need.
#pragma once

#include <string>
#include <vector>

#include "labgate/profile/profile.h"

namespace labgate::facts {

/// Arguments for the facts probe (without the program name): --sections for the
/// rule families present, and every --sysctl, --module, --iface and --service the
/// rules (including same_on_all_hosts) name. `root` adds --root for recorded trees.
std::vector<std::string> probe_arguments(const profile::Preconditions& pre, const std::string& root = "");

}  // namespace labgate::facts

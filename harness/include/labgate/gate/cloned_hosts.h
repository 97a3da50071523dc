// Hosts that present one host key: cloned images (RAC nodes often are). Each
// group is named once at connect time; the run goes on (its run directories and
// sweep tell the machines apart by their boot, not by the key).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace labgate::gate {

/// One warning per group of hosts (profile name, host identity) that share a
/// non-empty identity, in the order the hosts are given: "hosts a and b present
/// the same host key (hk-...): cloned image? ...".
std::vector<std::string> cloned_host_warnings(const std::vector<std::pair<std::string, std::string>>& hosts);

}  // namespace labgate::gate

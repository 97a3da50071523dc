// The fix script of the tail (issue 25 point 4): where a run's outliers were
// attributed to a cause that a precondition rule covers (an IRQ on a test CPU:
// irq_cpus; another task on it: isolated / taskset), the lines that rule's fix
// would run, each under the evidence it rests on. Never a line without it.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace labgate::profile {
struct Profile;
}

namespace labgate::tail {

/// What the profile says of one host's CPUs and interrupts.
struct HostTuning {
  std::optional<std::string> isolated;          ///< [preconditions.cpu] isolated
  std::map<std::string, std::string> irq_cpus;  ///< interface -> [preconditions.interfaces.X] irq_cpus
};

/// Each host's tuning from the profile's preconditions (hosts they apply to).
std::map<std::string, HostTuning> host_tuning(const profile::Profile& p);

/// The script from run.json's tests: (test name, its "tail" document). Empty
/// when no outlier has a cause a rule covers.
std::string tail_fix_script(const std::vector<std::pair<std::string, nlohmann::json>>& tails,
                            const std::map<std::string, HostTuning>& hosts, const std::string& origin);

}  // namespace labgate::tail

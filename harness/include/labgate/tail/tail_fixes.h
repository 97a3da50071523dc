// The fix script of the tail (issue 25 point 4): where a run's outliers were
// attributed to a cause that a precondition rule covers (an IRQ on a test CPU:
// irq_cpus; another task on it: isolated / taskset; khugepaged, or compaction
// where huge pages are always on: transparent_hugepage), the lines that rule's
// fix would run, each under the evidence it rests on. Never a line without it.
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
  std::optional<std::string> isolated;              ///< [preconditions.cpu] isolated
  std::map<std::string, std::string> irq_cpus;      ///< interface -> [preconditions.interfaces.X] irq_cpus
  std::optional<std::string> transparent_hugepage;  ///< [preconditions.cpu] transparent_hugepage
  /// The host's transparent huge pages mode as its facts read it ("always",
  /// "madvise", "never"), and the file it came from; none when not collected.
  std::optional<std::string> thp_mode{};
  std::string thp_source{};
};

/// Each host's tuning from the profile's preconditions (hosts they apply to).
std::map<std::string, HostTuning> host_tuning(const profile::Profile& p);

/// The script from run.json's tests: (test name, its "tail" document). Empty
/// when no outlier has a cause a rule covers.
std::string tail_fix_script(const std::vector<std::pair<std::string, nlohmann::json>>& tails,
                            const std::map<std::string, HostTuning>& hosts, const std::string& origin);

}  // namespace labgate::tail

// CPU lists as the kernel writes them ("0-3,8,10-11"): parsed into sets and
// written back, for isolated/nohz_full/irq_cpus rules and IRQ affinities.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>

namespace labgate::profile {

/// "0-3,8" -> {0,1,2,3,8}; "" -> {}; nullopt when it is not a CPU list.
std::optional<std::set<int>> parse_cpu_list(std::string_view s);
/// {0,1,2,3,8} -> "0-3,8".
std::string format_cpu_list(const std::set<int>& cpus);
/// {0,1} -> "3", {32} -> "1,00000000": the hex mask /proc/irq/N/smp_affinity and
/// taskset read (RHEL 5 has no smp_affinity_list); "0" for none.
std::string format_cpu_mask(const std::set<int>& cpus);

}  // namespace labgate::profile

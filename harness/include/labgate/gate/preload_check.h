// Proof that a test's LD_PRELOAD stack was really in use: the dynamically linked
// probes report, before main, which LD_PRELOAD libraries their own process has
// mapped (/proc/self/maps); a case whose client or server did not have the
// library fails, so a run on the kernel never passes as accelerated. Pure.
#pragma once

#include <string>

#include "labgate/gate/case_runner.h"

namespace labgate::gate {

/// The line a dynamically linked probe prints on stderr for each LD_PRELOAD
/// entry it finds mapped: "labgate-preload: mapped <entry> as <path>".
inline constexpr const char* kPreloadMappedPrefix = "labgate-preload: mapped ";

/// The rule "preload <lib>": passes when both ends' stderr say `lib` was mapped;
/// otherwise says which end had it not, with ld.so's own complaint if it made one.
RuleVerdict judge_preload(const std::string& lib, const std::string& client_host,
                          const std::string& client_err, const std::string& server_host,
                          const std::string& server_err);

}  // namespace labgate::gate

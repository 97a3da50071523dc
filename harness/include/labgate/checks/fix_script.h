// The fix script: one commented shell script per host gathering the fixes of
// its failed rules, for a sysadmin to review and apply. labgate never runs it.
#pragma once

#include <string>
#include <vector>

#include "labgate/checks/check_result.h"

namespace labgate::checks {

/// The script for `host`: a header naming the host and `origin` (e.g. the
/// profile and run), then for each failed rule of that host its message as a
/// comment and its fix; pair failures and not-checkable rules as comments; a
/// closing reboot reminder when any fix needs one. With nothing to fix the
/// script says so and does nothing.
std::string fix_script(const std::string& host, const std::vector<CheckResult>& results,
                       const std::string& origin);

}  // namespace labgate::checks

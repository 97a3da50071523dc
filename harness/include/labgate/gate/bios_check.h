// [preconditions.bios] in a gate run: HP's `conrep -s` on each host, its
// settings judged against the rules, each rule one precondition result. Where
// conrep is missing or fails, every rule is not checkable with the reason.
#pragma once

#include <string>
#include <vector>

#include "labgate/bios/conrep.h"
#include "labgate/checks/check_result.h"
#include "labgate/gate/session.h"

namespace labgate::gate {

/// One BIOS verdict on `host` as a precondition result: rule "bios/<name>",
/// source "conrep -s"; a failure's fix is done in RBSU and needs a reboot.
checks::CheckResult to_check_result(const std::string& host, const bios::BiosVerdict& v);

/// Runs conrep on each of `hosts` the rules apply to (pre.hosts, when given,
/// narrows them) and judges pre.bios there. Nothing runs when there are no BIOS
/// rules. Throws Failure(kCouldNotRun) only when a host cannot be reached.
std::vector<checks::CheckResult> check_bios_rules(GateSession& session, const profile::Preconditions& pre,
                                                  const std::vector<std::string>& hosts);

}  // namespace labgate::gate

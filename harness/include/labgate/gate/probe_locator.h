// Where the built probes are on this machine, so the gate can upload them.
#pragma once

#include <string>

namespace labgate::gate {

/// The local path of probe `name`: $LABGATE_PROBE_DIR/<name> if set, else
/// <dir of the running executable>/../probes/<name> (the build and install
/// layout). Throws Failure(kCouldNotRun) naming every place it looked.
std::string local_probe(const std::string& name);

}  // namespace labgate::gate

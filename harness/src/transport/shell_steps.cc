// Which thread's commands are short housekeeping steps (see shell_steps.h).
#include "labgate/transport/shell_steps.h"

namespace labgate::transport {

namespace {
// Per thread, not a member of the transport (issue 23 asked which is right): one
// transport carries, at the same time, the run's housekeeping steps on its
// thread and the lease heartbeat and a probe's own run on others; a flag on the
// transport would send those to the one shell too (the heartbeat would wait
// behind a step, a probe's client behind the counters). The scope marks what
// its own thread asks for, so the thread is what the count belongs to.
thread_local int depth = 0;
}  // namespace

ShellSteps::ShellSteps() { ++depth; }
ShellSteps::~ShellSteps() { --depth; }
bool ShellSteps::active() { return depth > 0; }

}  // namespace labgate::transport

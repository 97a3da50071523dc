// Which thread's commands are short housekeeping steps (see shell_steps.h).
#include "labgate/transport/shell_steps.h"

namespace labgate::transport {

namespace {
thread_local int depth = 0;
}  // namespace

ShellSteps::ShellSteps() { ++depth; }
ShellSteps::~ShellSteps() { --depth; }
bool ShellSteps::active() { return depth > 0; }

}  // namespace labgate::transport

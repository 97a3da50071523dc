// labgate entry point: a thin shell over the library's CLI, with GoogleTest (the
// suites) as the engine's case runner, so `labgate run` shows and logs the same
// test lines as each CTest step.
#include "labgate/cli/commands.h"
#include "suites/gate_suite.h"

int main(int argc, char** argv) {
  labgate::suites::GtestRunner cases;
  return labgate::cli::run(argc, argv, cases);
}

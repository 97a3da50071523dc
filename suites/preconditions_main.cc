// labgate-preconditions: one test per rule per host (Preconditions.b/sysctl/...),
// as CTest runs it first; the cases themselves are suites/gate_suite.cc.
#include "suite_main.h"

int main(int argc, char** argv) {
  return labgate::suites::suite_main(argc, argv, labgate::suites::SuitePart::kPreconditions);
}

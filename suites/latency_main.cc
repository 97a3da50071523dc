// labgate-latency: the measurement cases of one profile test (--test NAME) or of
// all, as CTest runs them; the cases themselves are suites/gate_suite.cc.
#include "suite_main.h"

int main(int argc, char** argv) {
  return labgate::suites::suite_main(argc, argv, labgate::suites::SuitePart::kMeasurements);
}

# labgate_unit_gtest(<target> <test prefix>): the GoogleTest binary <target>'s
# tests, discovered as <prefix><Suite>.<Test> with the label `unit`, and the
# target put in the sanitizer_subset that ci/test's ASan pass builds. One call
# does both, so no binary's unit tests run in the main pass and are silently
# left out under ASan (their tests would be missing, not failing).
function(labgate_unit_gtest target prefix)
  gtest_discover_tests(${target} TEST_PREFIX "${prefix}" DISCOVERY_TIMEOUT 30 PROPERTIES LABELS "unit")
  set_property(GLOBAL APPEND PROPERTY LABGATE_UNIT_TEST_TARGETS ${target})
endfunction()

# CTest helpers for lab tests: one fixture pair per lab, and script cases with
# their own time limits. Every lab test holds its lab's RESOURCE_LOCK, so two
# tests never drive (or kill the sshds of) the same namespaces at once.

# labgate_lab_fixture(<prefix> <fixture> <lock> <labels> <ci/lab arguments>...)
# adds <prefix>.lab_up / <prefix>.lab_down: `ci/lab up|down <arguments>` as the
# fixture's set-up and clean-up. A `--accounts` or `--bastion` argument is for
# `up` only; `down` takes the lab's identity (`--pair N` or `--mesh N`).
function(labgate_lab_fixture prefix fixture lock labels)
  set(up_args ${ARGN})
  set(down_args ${ARGN})
  list(REMOVE_ITEM down_args --accounts --bastion)
  add_test(NAME ${prefix}.lab_up COMMAND ${PROJECT_SOURCE_DIR}/ci/lab up ${up_args})
  add_test(NAME ${prefix}.lab_down COMMAND ${PROJECT_SOURCE_DIR}/ci/lab down ${down_args})
  set_tests_properties(${prefix}.lab_up PROPERTIES FIXTURES_SETUP ${fixture} LABELS "${labels}"
                       RESOURCE_LOCK ${lock} TIMEOUT 120)
  set_tests_properties(${prefix}.lab_down PROPERTIES FIXTURES_CLEANUP ${fixture} LABELS "${labels}"
                       RESOURCE_LOCK ${lock} TIMEOUT 120)
endfunction()

# labgate_script_cases(<prefix> <script> <fixture> <lock> <labels> <case:seconds>...)
# adds <prefix>.<case> running `bash <script> <case> <bin dir> <source dir>`,
# each with its own time limit, on the fixture's lab.
function(labgate_script_cases prefix script fixture lock labels)
  foreach(case_and_limit ${ARGN})
    string(REPLACE ":" ";" _cl ${case_and_limit})
    list(GET _cl 0 _case)
    list(GET _cl 1 _limit)
    add_test(NAME ${prefix}.${_case}
             COMMAND bash ${script} ${_case} ${PROJECT_BINARY_DIR}/bin ${PROJECT_SOURCE_DIR})
    set_tests_properties(${prefix}.${_case} PROPERTIES LABELS "${labels}" TIMEOUT ${_limit}
                         RESOURCE_LOCK ${lock} FIXTURES_REQUIRED ${fixture})
  endforeach()
endfunction()

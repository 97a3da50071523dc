# labgate_module(NAME DEPS ...): a static library labgate_NAME from src/NAME/*.cc|*.c
# (without *_test.cc / *_bench.cc), a unit-test binary NAME_tests from the
# *_test.cc beside the code (with testing/ on its include path), and a benchmark
# binary NAME_bench from *_bench.cc.
# Files are globbed so that adding a file to a concept needs no CMake edit.
set(LABGATE_TESTING_DIR ${CMAKE_CURRENT_LIST_DIR}/testing CACHE INTERNAL "labgate's test-support headers")

# Precompiled headers (LABGATE_PCH, off by default: see bench/README.md): the
# third-party headers most files parse, compiled once for all libraries and once
# for all unit-test binaries (REUSE_FROM the first of each). toml++ is left out:
# one file reads it.
# With ccache, CCACHE_SLOPPINESS must hold pch_defines,time_macros (ci/test sets
# it), or ccache compiles every file itself.
option(LABGATE_PCH "Precompile nlohmann/json, spdlog and GoogleTest headers" OFF)
set(LABGATE_PCH_LIB <nlohmann/json.hpp> <spdlog/spdlog.h> <string> <vector> <map> <optional> <functional>
    <memory>)
set(LABGATE_PCH_TEST ${LABGATE_PCH_LIB} <gtest/gtest.h> <gmock/gmock.h>)
# labgate_pch(TARGET KIND): KIND lib or test; the first target of a kind owns the
# precompiled header, the others reuse it.
function(labgate_pch target kind)
  if(NOT LABGATE_PCH)
    return()
  endif()
  get_property(owner GLOBAL PROPERTY LABGATE_PCH_OWNER_${kind})
  if(owner)
    target_precompile_headers(${target} REUSE_FROM ${owner})
  else()
    target_precompile_headers(${target} PRIVATE ${LABGATE_PCH_${kind}})
    set_property(GLOBAL PROPERTY LABGATE_PCH_OWNER_${kind} ${target})
  endif()
endfunction()

# The concepts below the test kinds' profile traits (nothing of theirs names a
# kind); every other binary links the kinds (labgate_link_kinds).
set(LABGATE_KINDLESS util stats results facts pool mesh)

# labgate_link_kinds(TARGET): links the kinds of harness/src/kinds/ (an OBJECT
# library, so that each kind's static registration is in the executable: a
# static library's unreferenced objects would be dropped) into an executable.
function(labgate_link_kinds target)
  target_link_libraries(${target} PRIVATE labgate_kinds)
endfunction()

function(labgate_module name)
  cmake_parse_arguments(M "" "" "DEPS;TEST_DEPS" ${ARGN})
  set(dir ${CMAKE_CURRENT_SOURCE_DIR}/src/${name})
  file(GLOB all CONFIGURE_DEPENDS ${dir}/*.cc ${dir}/*.c)
  file(GLOB tests CONFIGURE_DEPENDS ${dir}/*_test.cc)
  file(GLOB benches CONFIGURE_DEPENDS ${dir}/*_bench.cc)
  set(srcs ${all})
  if(tests OR benches)
    list(REMOVE_ITEM srcs ${tests} ${benches})
  endif()
  if(NOT srcs)
    message(STATUS "labgate: concept '${name}' has no sources yet; skipped")
    return()
  endif()
  add_library(labgate_${name} STATIC ${srcs})
  foreach(src ${srcs})
    if(src MATCHES "\\.c$")  # C files (the probes' histogram core) take no C++ header
      set_source_files_properties(${src} PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
    endif()
  endforeach()
  target_include_directories(labgate_${name} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/include)
  target_link_libraries(labgate_${name} PUBLIC ${M_DEPS})
  # No absolute path in a library's compile line (only tests and profile-info
  # need the source dir), so a compiler cache outside the clone serves any clone.
  target_compile_definitions(labgate_${name} PUBLIC LABGATE_VERSION="${PROJECT_VERSION}")
  labgate_pch(labgate_${name} LIB)
  if(name STREQUAL "cli")
    target_compile_definitions(labgate_${name} PRIVATE LABGATE_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
  endif()
  if(tests)
    add_executable(${name}_tests ${tests})
    target_link_libraries(${name}_tests PRIVATE labgate_${name} ${M_TEST_DEPS} GTest::gmock GTest::gtest_main)
    if(NOT name IN_LIST LABGATE_KINDLESS)
      labgate_link_kinds(${name}_tests)
    endif()
    target_compile_definitions(${name}_tests PRIVATE LABGATE_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
    # Test support (fakes of the lab, temp dirs, recorded runs) lives in
    # harness/testing, on the include path of tests only: "gate/fake_lab_test_util.h",
    # or the bare name from the concept's own tests.
    target_include_directories(${name}_tests PRIVATE ${LABGATE_TESTING_DIR} ${LABGATE_TESTING_DIR}/${name})
    labgate_pch(${name}_tests TEST)
    set_target_properties(${name}_tests PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/tests)
    labgate_unit_gtest(${name}_tests "unit.${name}.")
  endif()
  if(benches)
    add_executable(${name}_bench ${benches})
    target_link_libraries(${name}_bench PRIVATE labgate_${name} benchmark::benchmark_main)
    if(NOT name IN_LIST LABGATE_KINDLESS)
      labgate_link_kinds(${name}_bench)
    endif()
    set_target_properties(${name}_bench PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/bench)
  endif()
endfunction()

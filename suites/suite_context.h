// What both acceptance suites share: which profile and run folder they work on,
// loading the profile with its errors printed, and the exit code that tells
// Jenkins "servers bad" (1) from "gate broken" (3).
#pragma once

#include <optional>
#include <string>

#include "labgate/profile/profile.h"
#include "labgate/util/logging.h"

namespace labgate::suites {

struct SuiteOptions {
  std::string profile;  ///< --profile, else $LABGATE_PROFILE, else profiles/lab.toml
  std::string only_test;  ///< --test NAME: only that profile test (latency suite)
  std::string suffix;     ///< --suffix for a new results folder
  std::string pool_pair;  ///< with --pool: the lab pair CTest allocated ("pair6"); empty otherwise
  /// --state FILE: the run's state file, written by `labgate run-start --state FILE`
  /// (CTest's set-up fixture), naming the shared run folder; empty: a new folder.
  std::string run_state;
  /// -v / -q, else $LABGATE_VERBOSITY (quiet, normal, verbose): `labgate -v` reaches the suites.
  Verbosity verbosity = Verbosity::kNormal;
};

/// Reads labgate's own flags (after InitGoogleTest removed gtest's). Exits 2
/// with a message on an unknown flag. With --pool DIR --pool-state DIR [--pair ID]
/// (a test run by `ctest --resource-spec-file`), the profile is the allocated
/// pair's <DIR>/<id>.toml and the run folder the one its state file names
/// (run_state).
SuiteOptions parse_suite_options(int argc, char** argv, const char* program);

/// Loads the profile; prints every error and returns nullopt when invalid.
std::optional<profile::Profile> load_profile(const std::string& path);

/// True when gtest was asked only to list tests: the suites then connect to nothing.
bool listing_only();

}  // namespace labgate::suites

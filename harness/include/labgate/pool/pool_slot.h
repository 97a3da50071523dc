// A pool of lab pairs scheduled by CTest's resource allocation: the resource
// spec lists each pair as a resource of type "pairs" (id "pair6"), a gate test
// asks for one with RESOURCE_GROUPS "pairs:1", and learns which one it got from
// CTEST_RESOURCE_GROUP_*. The pair's id names its profile (<pool>/<id>.toml)
// and its run state (<state>/<id>.run), so each pair keeps its own results folder.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace labgate::pool {

/// The resource type of a lab pair in the resource spec file.
inline constexpr const char* kResourceType = "pairs";

/// Reads an environment variable (nullptr when unset); std::getenv by default.
using EnvLookup = std::function<const char*(const char*)>;

/// The ids of resource type `type` CTest allocated to this process, in group
/// order, or nullopt when resource allocation is not active (no
/// CTEST_RESOURCE_GROUP_COUNT). Throws labgate::Failure (usage error) naming
/// the variable when one is missing or malformed.
std::optional<std::vector<std::string>> allocated_ids(const std::string& type, const EnvLookup& env);

/// Whether `id` may name a pair: CTest's id alphabet (lowercase letters, digits,
/// '_'), non-empty, so it is safe as a file name.
bool valid_pair_id(const std::string& id);

/// What a suite was asked (--pool DIR --pool-state DIR [--pair ID]).
struct PoolRequest {
  std::string pool_dir;   ///< holds <id>.toml per pair (and resources.json)
  std::string state_dir;  ///< where each pair's <id>.run names its results folder
  std::string pair;       ///< a pair of those allocated (a test holding every pair); empty: the one allocated
};

/// The pair a test runs on and its files.
struct PoolSlot {
  std::string pair;        ///< "pair6"
  std::string profile;     ///< <pool_dir>/pair6.toml
  std::string state_file;  ///< <state_dir>/pair6.run
};

/// Resolves the pair CTest gave this test. Throws labgate::Failure (usage error)
/// when allocation is off, no pair or several were allocated and none chosen, the
/// chosen pair was not allocated, or the pair has no profile in the pool.
PoolSlot resolve_slot(const PoolRequest& request, const EnvLookup& env = {});

}  // namespace labgate::pool

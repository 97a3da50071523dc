// A [[test]] while it is being read: the spec with defaults applied, plus where
// each value came from, so checks can point at the right line.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "labgate/profile/test_spec.h"
#include "reader.h"

namespace labgate::profile::detail {

struct TestDraft {
  TestSpec spec;
  std::string key;                          ///< "test[tcp_rr_64]" in messages
  bool has_kind = false;                    ///< kind written here or in [defaults.test]
  bool kind_bad = false, tool_bad = false;  ///< written but not a known kind / tool
  bool has_budget = false;                  ///< a budget table was written (even if invalid)
  std::map<std::string, SourcePos> where;   ///< key -> position of the value in force
  std::set<std::string> written;            ///< keys written in this [[test]] itself
  bool mesh = false;                        ///< pairs = "mesh" in force (here or in [defaults.test])
  bool mesh_bad = false;                    ///< pairs written with an unknown value (reported)
  std::optional<bool> mesh_both;            ///< directions = "both" / "one", if written
  std::optional<std::vector<std::string>> mesh_hosts;  ///< hosts = [...], if written
  std::optional<MeshSchedule> mesh_schedule;           ///< mesh_schedule, if written (and valid)

  /// Where `k` was set (the test's own line or [defaults.test]), else the test header.
  SourcePos pos_of(const std::string& k) const;
  /// "test[x].k", noting when the value was inherited from [defaults.test].
  std::string key_of(const std::string& k) const;
};

/// Reads the keys a test and [defaults.test] share into `t`, overriding what is
/// there; records positions, and `written` unless `from_defaults`.
void read_test_fields(TableReader& r, TestDraft& t, bool from_defaults);

/// Reads a budget table `{ p99 = "140us", ... }` (each value in its statistic's
/// unit); `key` names it in messages ("test[x].budget").
std::vector<Bound> read_bounds(const Node& n, const std::string& key, Diagnostics& d);

/// Reads pairs, directions and hosts (the mesh keys) into `t`.
void read_mesh_fields(TableReader& r, TestDraft& t);

/// mesh_schedule in [defaults.test] when no test of the profile is a mesh: an error there.
void check_defaults_mesh_schedule(const TestDraft& defaults, const Profile& p, Diagnostics& d);

/// For a network test: whether it is a mesh (then fills spec.mesh, checking its
/// hosts, and from/to do not apply); errors for mesh keys without a mesh.
bool check_mesh(TestDraft& t, const Profile& p, Diagnostics& d);

/// Checks one complete test: kind and tool fit, hosts exist, keys apply to the
/// kind, durations are consistent, the budget bounds statistics the test produces.
/// May complete defaults that depend on the kind (a disk test's file path, a
/// path_mtu test's expected MTU from the preconditions).
void check_test(TestDraft& t, const Profile& p, Diagnostics& d);

/// udp_multicast: reads group, source, ttl and reply_every (`to` as a list is
/// read with the other keys), and checks the test's hosts and values.
void read_multicast_fields(TableReader& r, TestDraft& t);
void check_multicast(TestDraft& t, const Profile& p, Diagnostics& d);

/// The checks of the keys any kind may write: socket_buffer, preload, congestion,
/// tool_path (a kind's own keys: its KindTraits::check, harness/src/kinds/).
void check_extra_kind(TestDraft& t, Diagnostics& d);

}  // namespace labgate::profile::detail

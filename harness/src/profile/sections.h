// The loader's section readers, one per part of the profile, each checking its
// own keys and recording errors rather than stopping.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "labgate/profile/profile.h"
#include "reader.h"

namespace labgate::profile::detail {

/// [lab]: name, description, lease_wait.
void read_lab(const Node& root, Profile& p, Diagnostics& d);

/// [defaults.ssh] and [hosts.*]; `base_dir` resolves relative identity/known_hosts.
void read_hosts(const Node& root, const Node* defaults_ssh, const std::string& base_dir, Profile& p,
                Diagnostics& d);

/// [preconditions] and its sub-tables; needs p.hosts.
void read_preconditions(const Node* pre, Profile& p, Diagnostics& d);

/// [defaults.test] and [[test]], checked against p.hosts.
void read_tests(const Node* tests, const Node* defaults_test, Profile& p, Diagnostics& d);

/// After tests are read: every network test's `network` exists on its hosts (and
/// is given where they have several), and preconditions.host_use is filled.
void check_networks(Profile& p, Diagnostics& d);

/// Applies labgate run's overrides to the [[test]] tables of `root` before they
/// are read (see profile/run_overrides.h); records in `applied` what each replaced.
void apply_run_overrides(Node& root, const std::vector<RunOverride>& overrides,
                         std::vector<AppliedOverride>& applied, Diagnostics& d);

/// wrapper = "cmd --opt" (split into words, validated) and preload = "libx.so"
/// of a [[test]] or [defaults.test].
void read_launch_keys(TableReader& r, TestSpec& s);

/// Whether a test key applies to a kind (the table behind "does not apply to a
/// ... test").
bool key_applies(const std::string& key, TestKind kind);

/// A name usable in test names, file names and leases: [A-Za-z0-9_.-]+.
bool is_plain_name(std::string_view s);

/// Records an error unless `name` is a host of `p`; the message lists the
/// defined hosts and the closest one.
bool check_host_ref(const Profile& p, const std::string& name, const SourcePos& pos, const std::string& key,
                    Diagnostics& d);

}  // namespace labgate::profile::detail

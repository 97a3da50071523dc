// Reading a facts snapshot (the facts probe's JSON) into the typed model.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

#include "labgate/facts/facts.h"

namespace labgate::facts {

/// Larger snapshots are refused: a real one is tens of KiB, and a target that
/// prints megabytes is broken or hostile.
inline constexpr std::size_t kMaxSnapshotBytes = 16u << 20;

/// A snapshot that cannot be read; what() names the origin and the field, e.g.
/// "facts from host b: field sysctl.net.ipv4.tcp_sack.value: expected a string or null, got number".
class FactsError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Parses one snapshot. `origin` names where it came from in errors ("host b",
/// "results/.../facts-b.json"). Unknown members are ignored (newer probes may
/// add some); a member of the wrong type, a bad schema, invalid JSON or an
/// oversized input throw FactsError. Missing sections stay empty and are not
/// listed in Facts::sections; a missing fact inside a section reads as not
/// reported, with an error saying so.
Facts parse_facts(std::string_view json, const std::string& origin);

}  // namespace labgate::facts

// A profile derived from another by setting some of its values (`labgate
// profile-derive`, used by ci/pool for one profile per lab pair): the values are
// found by the real TOML parser and replaced where it found them, so comments,
// layout and every other byte stay as written, and nothing outside labgate edits
// TOML with a pattern.
#pragma once

#include <string>
#include <vector>

namespace labgate::profile {

/// One setting: a dotted path to a value the profile already has ("lab.name",
/// "hosts.a.address", `preconditions.sysctl."net.ipv4.tcp_sack"`) and its new
/// value as text ("lab-pair7", "22", "true").
struct KeySetting {
  std::string key;
  std::string value;
};

/// Parses "KEY=VALUE" (the first '=' splits); throws Failure(kUsageError) without one.
KeySetting parse_key_setting(const std::string& text);

/// `text` (the profile file `file`) with each setting applied. The new value keeps
/// the old one's type: a string is written quoted and escaped, an integer, float
/// or boolean must read as one. Throws Failure(kUsageError) naming file:line:column
/// and the key: a TOML syntax error, a key the file does not have (the closest key
/// suggested), a table or array, a value of the wrong type, a key set twice.
std::string derive_profile_text(const std::string& text, const std::string& file,
                                const std::vector<KeySetting>& settings);

}  // namespace labgate::profile

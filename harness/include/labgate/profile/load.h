// Loading a profile: parse the TOML, check every key, apply defaults, and report
// every problem at once with file:line:column, the key, and what was expected.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "labgate/profile/profile.h"

namespace labgate::profile {

/// One problem in a profile.
struct ProfileError {
  SourcePos pos;
  std::string key;      ///< dotted key at fault, e.g. "test[tcp_rr_64].budget.p99"
  std::string message;  ///< a whole sentence that names the key and what was expected
  /// "profile.toml:33:1: unknown table [preconditions.sysctls]; did you mean [preconditions.sysctl]?"
  std::string str() const;
};

/// A profile, or every error found in it (never both; errors are in file order).
struct LoadResult {
  std::optional<Profile> profile;
  std::vector<ProfileError> errors;
};

/// Reads and checks the profile at `path`. Never throws for bad input: a missing
/// file, a TOML syntax error or a wrong value all come back as errors.
LoadResult load(const std::string& path);
/// load() with command-line overrides applied to every test that has the
/// parameter (a sweep over it becomes the one value); Profile::overrides records
/// what each replaced. A bad value is an error naming the flag.
LoadResult load(const std::string& path, const std::vector<RunOverride>& overrides);

/// Like load(), for an in-memory document; `path` names it in messages and is the
/// base for relative file paths.
LoadResult load_from_string(const std::string& text, const std::string& path,
                            const std::vector<RunOverride>& overrides = {});

/// load(), throwing labgate::Failure(kUsageError) with every error, one per line.
Profile load_or_throw(const std::string& path, const std::vector<RunOverride>& overrides = {});

}  // namespace labgate::profile

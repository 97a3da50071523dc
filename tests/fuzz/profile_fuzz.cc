// libFuzzer target: the TOML profile loader must turn any text into a profile
// or into errors naming file:line, never crash, hang or throw.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "labgate/profile/load.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  // The loader documents that it never throws for bad input, so any exception
  // escaping here is a bug and libFuzzer reports it as a crash.
  const labgate::profile::LoadResult r = labgate::profile::load_from_string(text, "fuzz.toml");
  // "A profile, or every error found in it (never both)".
  if (r.profile.has_value() == !r.errors.empty()) std::abort();
  for (const labgate::profile::ProfileError& e : r.errors)
    if (e.str().empty()) std::abort();
  return 0;
}

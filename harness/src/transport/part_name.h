// The name an upload is written under before it is renamed into place: beside
// the target (same filesystem, so the rename is atomic), never guessable twice.
#pragma once

#include <cstdio>
#include <random>
#include <string>

namespace labgate::transport {

inline std::string part_name(const std::string& target) {
  std::random_device rd;
  char suffix[16];
  std::snprintf(suffix, sizeof suffix, "%08x", static_cast<unsigned>(rd()));
  return target + ".part-" + suffix;
}

}  // namespace labgate::transport

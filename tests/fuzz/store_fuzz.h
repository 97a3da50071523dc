// Shared by the probe-store fuzz targets (outliers, stream_gaps): an invariant
// check that aborts (libFuzzer's crash) with what broke, and the store's JSON
// as a probe prints it, parsed back.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>

namespace labgate::fuzz {

inline void check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "probe store invariant broken: %s\n", what);
    std::abort();
  }
}

/// What `write` prints to a FILE*, parsed (a parse error is a crash too).
template <typename Write>
nlohmann::json printed_json(Write write) {
  char* buf = nullptr;
  std::size_t len = 0;
  FILE* f = open_memstream(&buf, &len);
  check(f != nullptr, "open_memstream");
  write(f);
  std::fclose(f);
  nlohmann::json j = nlohmann::json::parse(buf, buf + len);
  std::free(buf);
  return j;
}

}  // namespace labgate::fuzz

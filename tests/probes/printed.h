// What a probe's C writer (one that prints to a FILE*) prints, as a string, for
// the tests that read the probes' JSON back.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

namespace labgate::probes_test {

template <class Write>
std::string printed(Write write) {
  char* buf = nullptr;
  std::size_t len = 0;
  FILE* f = open_memstream(&buf, &len);
  if (f == nullptr) return "";
  write(f);
  std::fclose(f);
  std::string s(buf, len);
  std::free(buf);
  return s;
}

}  // namespace labgate::probes_test

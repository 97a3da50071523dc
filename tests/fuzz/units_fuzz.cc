// libFuzzer target: every units parser either parses or explains, and sizes
// format back to text that parses to the same byte count.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "labgate/util/units.h"

namespace units = labgate::units;

namespace {
// A failed parse must say why (the message is what the user sees).
template <typename T>
void check(const units::Parsed<T>& p) {
  if (p.value.has_value() != p.error.empty()) std::abort();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto d = units::parse_duration(text);
  check(d);
  if (d) (void)units::format_duration(*d.value);
  const auto s = units::parse_size(text);
  check(s);
  if (s) {
    // format_size is exact by contract ("16KiB" when exact, else the byte count).
    const auto back = units::parse_size(units::format_size(*s.value));
    if (!back || *back.value != *s.value) std::abort();
  }
  const auto b = units::parse_bit_rate(text);
  check(b);
  if (b) (void)units::format_bit_rate(*b.value);
  check(units::parse_event_rate(text));
  const auto p = units::parse_percentage(text);
  check(p);
  if (p && (*p.value < 0.0 || *p.value > 1.0)) std::abort();  // "between 0% and 100%"
  return 0;
}

// The registry of kinds' profile traits (see kind_traits.h).
#include "labgate/profile/kind_traits.h"

#include <algorithm>

#include "labgate/util/registry.h"

namespace labgate::profile {

void register_kind(KindTraits traits) { util::registered<KindTraits>().push_back(std::move(traits)); }
const KindTraits* find_kind(TestKind k) { return util::registered_of<KindTraits>(k); }
int kind_registrations(TestKind k) { return util::registrations_of<KindTraits>(k); }

std::span<const TestKind> registered_kinds() {
  // Built on first use, after the kinds/ files registered (before main); sorted,
  // as the order they registered in is the linker's.
  static const std::vector<TestKind> kinds = [] {
    std::vector<TestKind> out;
    for (const KindTraits& t : util::registered<KindTraits>()) out.push_back(t.kind);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  }();
  return kinds;
}

}  // namespace labgate::profile

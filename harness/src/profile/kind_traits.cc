// The registry of kinds' profile traits (see kind_traits.h).
#include "labgate/profile/kind_traits.h"

#include "labgate/util/registry.h"

namespace labgate::profile {

void register_kind(KindTraits traits) { util::registered<KindTraits>().push_back(std::move(traits)); }
const KindTraits* find_kind(TestKind k) { return util::registered_of<KindTraits>(k); }
int kind_registrations(TestKind k) { return util::registrations_of<KindTraits>(k); }

}  // namespace labgate::profile

// The registry of kinds' runners (see kind_runner.h), and the cases of a kind
// that runs on the hosts of `on`.
#include "labgate/gate/kind_runner.h"

#include "labgate/util/registry.h"

namespace labgate::gate {

void register_runner(KindRunner runner) { util::registered<KindRunner>().push_back(std::move(runner)); }
const KindRunner* find_runner(profile::TestKind k) { return util::registered_of<KindRunner>(k); }
int runner_registrations(profile::TestKind k) { return util::registrations_of<KindRunner>(k); }
const std::vector<KindRunner>& registered_runners() { return util::registered<KindRunner>(); }

std::vector<TestCase> cases_on_hosts(const profile::TestSpec& t) {
  std::vector<TestCase> out;
  for (const auto& h : t.on) out.push_back(TestCase{&t, h, h, "", "", ""});
  return out;
}

}  // namespace labgate::gate

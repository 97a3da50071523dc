// connect_all on fakes: every failing host named once, in order, with the first code.
#include "labgate/transport/connect_all.h"

#include <gtest/gtest.h>

#include "labgate/transport/fake_transport.h"
#include "labgate/util/exit_code.h"

namespace labgate::transport {
namespace {

class Unreachable : public FakeTransport {
 public:
  using FakeTransport::FakeTransport;
  void connect() override { throw Failure(ExitCode::kCouldNotRun, "host " + host_name() + " (x): refused"); }
};

std::vector<profile::Host> hosts(std::initializer_list<const char*> names) {
  std::vector<profile::Host> out;
  for (const char* n : names) {
    profile::Host h;
    h.name = n;
    out.push_back(h);
  }
  return out;
}

Maker failing(std::initializer_list<const char*> bad) {
  std::vector<std::string> b(bad.begin(), bad.end());
  return [b](const profile::Host& h) -> std::unique_ptr<Transport> {
    if (std::find(b.begin(), b.end(), h.name) != b.end()) return std::make_unique<Unreachable>(h.name);
    return std::make_unique<FakeTransport>(h.name);
  };
}

TEST(ConnectAll, EveryFailingHostIsNamedOnce) {
  try {
    connect_all(hosts({"a", "b", "c"}), failing({"a", "c"}));
    FAIL() << "no failure";
  } catch (const Failure& f) {
    const std::string m = f.what();
    EXPECT_EQ(f.code(), ExitCode::kCouldNotRun);
    EXPECT_EQ(m, "2 hosts cannot be reached:\n- host a (x): refused\n- host c (x): refused");
  }
}

TEST(ConnectAll, OneFailureIsItsOwnMessageAndSuccessKeepsEveryTransport) {
  try {
    connect_all(hosts({"a", "b"}), failing({"b"}));
    FAIL() << "no failure";
  } catch (const Failure& f) {
    EXPECT_STREQ(f.what(), "host b (x): refused");
  }
  const Connected c = connect_all(hosts({"a", "b"}), failing({}));
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c.at("b")->host_name(), "b");
}

}  // namespace
}  // namespace labgate::transport

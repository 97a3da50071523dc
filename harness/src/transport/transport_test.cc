// Result descriptions, the must-succeed check, sizes, transport choice.
#include "labgate/transport/transport.h"

#include <gtest/gtest.h>

#include "capture.h"
#include "labgate/util/exit_code.h"

namespace labgate::transport {
namespace {

TEST(RunResult, Describe) {
  RunResult r;
  r.exit_status = 0;
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.describe(), "exit 0");
  r.timed_out = true;
  r.duration = std::chrono::milliseconds(1500);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.describe(), "timed out after 1.50s and was killed");
}

TEST(RequireOk, NamesHostCommandAndFirstLinesOfStderr) {
  RunResult r;
  r.exit_status = 2;
  r.err = "line1\nline2\nline3\nline4\nline5\nline6\nline7\n";
  try {
    require_ok(r, "b", {"ls", "/no such"});
    FAIL();
  } catch (const Failure& f) {
    const std::string m = f.what();
    EXPECT_EQ(f.code(), ExitCode::kCouldNotRun);
    EXPECT_NE(m.find("host b: `ls '/no such'` exit 2: line1"), std::string::npos) << m;
    EXPECT_NE(m.find("line5"), std::string::npos) << m;
    EXPECT_EQ(m.find("line6"), std::string::npos) << m;
  }
  r.exit_status = 0;
  EXPECT_NO_THROW(require_ok(r, "b", {"true"}));
}

TEST(RequireOk, ABinaryFloodOnOneLineIsCutAndEscaped) {
  RunResult r;
  r.exit_status = 1;
  r.err = std::string(4u << 20, '\x07');
  try {
    require_ok(r, "b", {"facts"});
    FAIL();
  } catch (const Failure& f) {
    const std::string m = f.what();
    EXPECT_NE(m.find("host b: `facts` exit 1: \\x07\\x07"), std::string::npos) << m.substr(0, 200);
    EXPECT_NE(m.find("(4194304 bytes in all)"), std::string::npos) << m.substr(0, 200);
    EXPECT_LT(m.size(), 10000u);
  }
}

TEST(Capture, KeepsUpToTheLimitAndCountsTheRest) {
  Capture c(4);
  EXPECT_TRUE(c.append("ab"));
  EXPECT_TRUE(c.append("cd"));
  EXPECT_FALSE(c.append("e"));
  EXPECT_EQ(c.text(), "abcd");
  EXPECT_TRUE(c.overflowed());
  EXPECT_EQ(c.total(), 5u);
}

TEST(FormatSize, Units) {
  EXPECT_EQ(format_size(16u << 20), "16 MiB");
  EXPECT_EQ(format_size(32768), "32 KiB");
  EXPECT_EQ(format_size(1000), "1000 bytes");
}

TEST(MakeTransport, LocalOrSsh) {
  profile::Host h;
  h.name = "a";
  h.address = "local";
  EXPECT_EQ(make_transport(h)->describe(), "local");
  h.address = "198.18.0.2";
  h.ssh.user = "root";
  h.ssh.port = 2222;
  EXPECT_EQ(make_transport(h)->describe(), "ssh root@198.18.0.2:2222");  // connects lazily
}

}  // namespace
}  // namespace labgate::transport

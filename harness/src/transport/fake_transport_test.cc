// FakeTransport: the scripted stand-in other concepts' unit tests rely on.
#include "labgate/transport/fake_transport.h"

#include <gtest/gtest.h>

#include "labgate/util/exit_code.h"

namespace labgate::transport {
namespace {

TEST(FakeTransport, AnswersByPrefixOneShotRulesFirstAndRecordsCalls) {
  FakeTransport t("a");
  t.on({"uname"}, FakeTransport::ok("Linux\n")).once({"uname", "-r"}, FakeTransport::ok("2.6.18\n"));
  EXPECT_EQ(t.run({"uname", "-r"}).out, "2.6.18\n");
  EXPECT_EQ(t.run({"uname", "-r"}).out, "Linux\n");  // the one-shot rule is used up
  RunOptions o;
  o.input = "stdin";
  t.run({"uname"}, o);
  ASSERT_EQ(t.calls().size(), 3u);
  EXPECT_EQ(t.calls()[2].input, "stdin");
  EXPECT_EQ(t.host_name(), "a");
}

TEST(FakeTransport, UnscriptedCommandsAndScriptedFailuresThrow) {
  FakeTransport t;
  t.fail_on({"probe"}, "connection lost");
  EXPECT_THROW(t.run({"ls"}), Failure);
  try {
    t.run({"probe", "--x"});
    FAIL();
  } catch (const Failure& f) {
    EXPECT_EQ(f.code(), ExitCode::kCouldNotRun);
    EXPECT_NE(std::string(f.what()).find("connection lost"), std::string::npos);
  }
}

TEST(FakeTransport, FilesAndProcesses) {
  FakeTransport t;
  t.upload_data("bytes", "/tmp/x", 0700);
  EXPECT_EQ(t.read_file("/tmp/x"), "bytes");
  EXPECT_THROW(t.upload_data("again", "/tmp/x", 0700), Failure);
  ASSERT_EQ(t.uploads().size(), 1u);
  EXPECT_EQ(t.uploads()[0].mode, 0700);
  EXPECT_TRUE(t.lstat("/tmp/x"));
  EXPECT_FALSE(t.lstat("/tmp/y"));
  t.on({"server"}, FakeTransport::ok("ready\n"));
  {
    auto p = t.start({"server"});
    EXPECT_TRUE(p->wait_for_output("ready", std::chrono::seconds(0)));
    EXPECT_TRUE(t.calls().back().started);
  }
  EXPECT_EQ(t.stopped(), 1);  // destroyed handles are stopped
}

}  // namespace
}  // namespace labgate::transport

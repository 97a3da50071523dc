// Lease holder identity: its text form and when it provably died.
#include "labgate/lease/holder.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

namespace labgate::lease {
namespace {

TEST(Holder, RoundTripsAndDescribes) {
  Holder h = Holder::current("run-1");
  EXPECT_GT(h.pid, 0);
  EXPECT_FALSE(h.host.empty());
  auto back = Holder::parse(h.serialize());
  ASSERT_TRUE(back);
  EXPECT_EQ(back->run_id, "run-1");
  EXPECT_EQ(back->pid, h.pid);
  EXPECT_EQ(back->started, h.started);
  Holder fixed{"root", "ci-7", 4242, 1767268800, "20260101-120000-ab12", "", 0};
  EXPECT_EQ(fixed.describe(), "root@ci-7 pid 4242, run 20260101-120000-ab12, since 2026-01-01 12:00:00 UTC");
  fixed.lab = "ctp-pair-1";  // the lease is keyed by the servers: say whose lab holds them
  EXPECT_EQ(Holder::parse(fixed.serialize())->lab, "ctp-pair-1");
  EXPECT_EQ(fixed.describe(),
            "root@ci-7 pid 4242, run 20260101-120000-ab12 of lab ctp-pair-1, since 2026-01-01 12:00:00 UTC");
}

TEST(Holder, ParseIsForgivingButNeedsRunAndHost) {
  EXPECT_FALSE(Holder::parse(""));
  EXPECT_FALSE(Holder::parse("user=root\n"));
  auto h = Holder::parse("junk\nrun_id=r\nhost=h\npid=notanumber\n");
  ASSERT_TRUE(h);
  EXPECT_EQ(h->pid, 0);
  // A newline in a field cannot forge another field.
  Holder evil{"root\nrun_id=forged", "h", 1, 1, "real", "", 0};
  EXPECT_EQ(Holder::parse(evil.serialize())->run_id, "real");
}

TEST(Holder, DeadOnlyWhenProvablyGone) {
  Holder me = Holder::current("active-run");
  set_run_active("active-run", true);
  EXPECT_FALSE(me.dead_on_this_machine());
  set_run_active("active-run", false);
  EXPECT_TRUE(me.dead_on_this_machine());  // this process, but that run has ended

  const pid_t child = fork();
  if (child == 0) _exit(0);
  waitpid(child, nullptr, 0);
  Holder gone = me;
  gone.pid = child;
  EXPECT_TRUE(gone.dead_on_this_machine());
  Holder elsewhere = gone;
  elsewhere.host = "some-other-machine";
  EXPECT_FALSE(elsewhere.dead_on_this_machine());  // cannot tell from here
}

}  // namespace
}  // namespace labgate::lease

// Attribution: made-up watch outputs and outlier lists for each rule (a cause
// only with its evidence, routine counts never a cause, unexplained counted),
// and the recorded real run of testdata/.
#include "labgate/tail/attribute.h"

#include <gtest/gtest.h>

#include "tail_test_util.h"

namespace labgate::tail {
namespace {

constexpr std::uint64_t kStart = 1000000000, kWin = 10000000;  // 1 s, 10 ms

/// 100 quiet windows of 10 ms on `cpus`: LOC x10 and TIMER x10 each (routine),
/// a task scan every 10th window that sees only the probe itself.
WatchOutput quiet(const std::string& host, std::vector<int> cpus, std::uint64_t start = kStart) {
  WatchOutput w;
  w.host = host;
  w.cpus = cpus;
  w.softirq_source = "proc_softirqs";
  w.smi_source = "msr_0x34";
  w.task_source = "proc_task_schedstat";
  for (int i = 0; i < 100; ++i) {
    WatchWindow win;
    win.t0 = start + static_cast<std::uint64_t>(i) * kWin;
    win.t1 = win.t0 + kWin;
    win.tasks_since = i % 10 == 9 ? win.t1 - 10 * kWin : win.t0;
    for (int c : cpus) {
      win.cpu.push_back({1, 0, 0, 0});
      win.irq.push_back({c, "LOC", 10});
      win.softirq.push_back({c, "TIMER", 10});
      if (i % 10 == 9) win.tasks.push_back({c, 777, "pingpong", 9000000});
    }
    w.windows.push_back(win);
  }
  return w;
}

WatchWindow& window_at(WatchOutput& w, std::uint64_t t) { return w.windows[(t - kStart) / kWin]; }

OutlierRecord outlier(std::uint64_t seq, std::uint64_t at, std::uint64_t value, int cpu) {
  OutlierRecord r;
  r.seq = r.ctx_from_seq = seq;
  r.at_ns = at;
  r.value_ns = value;
  r.worst = true;
  r.cpu_before = r.cpu_after = cpu;
  r.voluntary = 1;
  r.involuntary = 0;
  r.sock_wait_ns = 2000;
  return r;
}

/// The server's record of request `seq`, on a clock `offset` ahead of host a's.
OutlierRecord served(const OutlierRecord& c, std::uint64_t turnaround, std::uint64_t offset, int cpu) {
  OutlierRecord s = outlier(c.seq, c.at_ns - c.value_ns / 2 + offset, turnaround, cpu);
  return s;
}

struct Case {
  OutlierSet client, server;
  WatchOutput wa = quiet("a", {1}), wb = quiet("b", {2}, kStart + 5000);
  AttributionInput input() {
    AttributionInput in;
    in.client = &client;
    in.server = &server;
    in.watch_client = &wa;
    in.watch_server = &wb;
    in.typical_ns = 20000;
    return in;
  }
};

/// A client outlier at `at` with server records of the same requests (the
/// clock join), server turnaround 5 us unless told.
void add(Case& k, std::uint64_t seq, std::uint64_t at, std::uint64_t value, std::uint64_t turnaround = 5000) {
  k.client.items.push_back(outlier(seq, at, value, 1));
  k.server.items.push_back(served(k.client.items.back(), turnaround, 5000, 2));
}

TEST(Attribute, AHogOnTheClientCpuIsNamedWithItsSwitchesPidAndCpu) {
  Case k;
  for (int i = 0; i < 3; ++i) add(k, 100 + i, kStart + 205000000 + i * 30000000, 400000);
  add(k, 103, kStart + 455000000, 400000);  // outside the scan that saw the hog
  k.client.items[0].involuntary = 3;
  // The other two were woken late: the reply lay 300 us in the socket.
  k.client.items[1].sock_wait_ns = k.client.items[2].sock_wait_ns = 300000;
  window_at(k.wa, kStart + 295000000)
      .tasks.push_back({1, 4242, "stress-ng", 20000000});  // scan of 200-300 ms
  const Attribution a = attribute(k.input());
  ASSERT_EQ(a.outliers.size(), 4u);
  EXPECT_EQ(a.top, "3 of 4 outliers: stress-ng (pid 4242) on CPU 1 of host a");
  EXPECT_EQ(a.unexplained, 0u) << "the fourth: both hosts quiet, so the wire";
  bool with_switches = false;
  for (const OutlierCause& c : a.outliers)
    for (const Evidence& e : c.evidence) {
      EXPECT_NE(e.text.find("pingpong"), 0u) << "the probe itself is never a cause";
      if (e.text.rfind(
              "preempted: 3 involuntary switches; stress-ng (pid 4242) ran 20.0 ms on CPU 1 of host a", 0) ==
          0)
        with_switches = true;
    }
  EXPECT_TRUE(with_switches);
}

TEST(Attribute, ATaskBesideAClientThatWasNotHeldUpIsNotItsCause) {
  // stress-ng ran on the client's CPU, but the client's record clears it: no
  // involuntary switch, the reply read 2 us after it arrived. Both hosts quiet
  // otherwise: the wire.
  Case k;
  add(k, 100, kStart + 205000000, 400000);
  window_at(k.wa, kStart + 295000000).tasks.push_back({1, 4242, "stress-ng", 20000000});
  Attribution a = attribute(k.input());
  ASSERT_EQ(a.outliers.size(), 1u);
  ASSERT_EQ(a.outliers[0].evidence.size(), 1u);
  EXPECT_EQ(a.outliers[0].evidence[0].kind, "wire");
  EXPECT_NE(a.outliers[0].split.find("reply waited 2 us in host a's socket; the client was not held up (no "
                                     "involuntary switch)"),
            std::string::npos)
      << a.outliers[0].split;
  // Preempted once across it: stress-ng is the cause.
  k.client.items[0].involuntary = 1;
  a = attribute(k.input());
  EXPECT_EQ(a.top, "1 of 1 outliers: stress-ng (pid 4242) on CPU 1 of host a");
}

TEST(Attribute, AnIrqBurstIsACauseRoutineTicksAreNot) {
  Case k;
  add(k, 7, kStart + 505000000, 300000);
  window_at(k.wa, kStart + 502000000).irq.push_back({1, "57 eth2-rx-0", 12});
  window_at(k.wa, kStart + 502000000).irq[0].count = 11;  // LOC one above its routine 10: not a cause
  const Attribution a = attribute(k.input());
  ASSERT_EQ(a.outliers.size(), 1u);
  ASSERT_EQ(a.outliers[0].evidence.size(), 1u);
  EXPECT_EQ(a.outliers[0].evidence[0].text, "IRQ 57 eth2-rx-0 x12 on CPU 1 of host a (usually 0 in as long)");
}

TEST(Attribute, InterruptsReadEveryFifthWindowJoinTheOutlierThroughTheirSpan) {
  // The watch's default: /proc/interrupts read every 5th window, which carries
  // what grew since the read before (LOC x50 there: its routine, per read).
  Case k;
  for (std::size_t i = 0; i < k.wa.windows.size(); ++i) {
    WatchWindow& win = k.wa.windows[i];
    win.irq_read = i % 5 == 4;
    win.irq_since = win.t1 - 5 * kWin;
    win.irq.clear();
    if (win.irq_read) win.irq.push_back({1, "LOC", 50});
  }
  add(k, 7, kStart + 505000000, 300000);  // in window 50; window 54 reads [500 ms, 550 ms]
  window_at(k.wa, kStart + 545000000).irq.push_back({1, "57 eth2-rx-0", 12});
  const Attribution a = attribute(k.input());
  ASSERT_EQ(a.outliers.size(), 1u);
  ASSERT_EQ(a.outliers[0].evidence.size(), 1u);
  EXPECT_EQ(a.outliers[0].evidence[0].text, "IRQ 57 eth2-rx-0 x12 on CPU 1 of host a (usually 0 in as long)");
}

TEST(Attribute, ASparseRoutineCounterOverALongStallIsNotABurst) {
  // SCHED once every 5th window (its median per window is 0): a 200 ms stall
  // spans 4 of them, which is its routine, not a cause.
  Case k;
  for (std::size_t i = 0; i < k.wa.windows.size(); i += 5) k.wa.windows[i].softirq.push_back({1, "SCHED", 1});
  add(k, 11, kStart + 700000000, 200000000);
  Attribution a = attribute(k.input());
  ASSERT_EQ(a.outliers.size(), 1u);
  for (const Evidence& e : a.outliers[0].evidence)
    EXPECT_EQ(e.text.find("SCHED"), std::string::npos) << e.text;
  // Ten times its routine in one window is a burst, judged against the others.
  window_at(k.wa, kStart + 650000000).softirq.push_back({1, "SCHED", 12});
  a = attribute(k.input());
  ASSERT_FALSE(a.outliers[0].evidence.empty());
  EXPECT_EQ(a.outliers[0].evidence[0].text, "softirq SCHED x17 on CPU 1 of host a (usually 5 in as long)");
}

TEST(Attribute, SoftirqsDeferredToKsoftirqdAreTheMostFrequentSoftirqNotAPreemption) {
  // A NET_RX storm on the client's CPU: the kernel defers it to ksoftirqd/1,
  // whose run time is the softirq's, even though the client's own record
  // clears the tasks beside it (a request queued behind the storm waits before
  // the client sees anything). The storm batches: NET_RX ran fewer times than
  // its routine of 100 a window, TIMER (routine 10) more; NET_RX, the most
  // frequent, is named, with its figures.
  Case k;
  for (WatchWindow& w : k.wa.windows) w.softirq.push_back({1, "NET_RX", 100});
  add(k, 100, kStart + 205000000, 3000000);
  window_at(k.wa, kStart + 295000000).tasks.push_back({1, 24, "ksoftirqd/1", 6000000});
  window_at(k.wa, kStart + 203000000).softirq.back().count = 80;
  window_at(k.wa, kStart + 203000000).softirq.front().count = 20;  // TIMER, under 2x: no burst
  Attribution a = attribute(k.input());
  ASSERT_EQ(a.outliers.size(), 1u);
  ASSERT_EQ(a.outliers[0].evidence.size(), 1u);
  const Evidence& e = a.outliers[0].evidence[0];
  EXPECT_EQ(e.kind, "softirq");
  EXPECT_EQ(e.key, "softirq NET_RX on CPU 1 of host a");
  EXPECT_EQ(
      e.text,
      "softirq NET_RX in ksoftirqd/1 (pid 24) ran 6.0 ms on CPU 1 of host a (in the 100.0 ms around it); "
      "NET_RX x80 there (usually 100 in as long)");
  EXPECT_EQ(a.top, "1 of 1 outliers: softirq NET_RX on CPU 1 of host a");
  // A burst of the same softirq is one cause, with ksoftirqd's figures.
  window_at(k.wa, kStart + 203000000).softirq.back().count = 900;
  window_at(k.wa, kStart + 203000000).softirq.front().count = 10;
  a = attribute(k.input());
  ASSERT_EQ(a.outliers[0].evidence.size(), 1u);
  EXPECT_NE(a.outliers[0].evidence[0].text.find("NET_RX x900 there"), std::string::npos);
  // Another CPU's ksoftirqd is not this CPU's softirq, nor (cleared) a preemption.
  window_at(k.wa, kStart + 295000000).tasks.back() = {1, 14, "ksoftirqd/0", 6000000};
  window_at(k.wa, kStart + 203000000).softirq.back().count = 100;
  a = attribute(k.input());
  ASSERT_EQ(a.outliers[0].evidence.size(), 1u);
  EXPECT_EQ(a.outliers[0].evidence[0].kind, "wire");
}

TEST(Attribute, SoftirqTimeOnTheClientCpuIsTheSoftirqWhoeverRanIt) {
  // A storm handled inline at interrupt exit (no ksoftirqd): /proc/stat's
  // softirq time on CPU 1 rose to 50 ms where it is usually under a jiffy;
  // NET_RX ran there most often (below its routine: the storm batches).
  Case k;
  for (WatchWindow& w : k.wa.windows) {
    w.irq_since = w.t0;  // /proc/stat read every window
    w.softirq.push_back({1, "NET_RX", 100});
    w.cpu[0].softirq_jiffies = w.t0 % (10 * kWin) == 0 ? 1 : 0;  // a jiffy every 100 ms: routine
  }
  add(k, 100, kStart + 255000000, 3000000);
  window_at(k.wa, kStart + 253000000).softirq.back().count = 90;
  window_at(k.wa, kStart + 253000000).cpu[0].softirq_jiffies = 5;
  Attribution a = attribute(k.input());
  ASSERT_EQ(a.outliers.size(), 1u);
  ASSERT_EQ(a.outliers[0].evidence.size(), 1u);
  EXPECT_EQ(a.outliers[0].evidence[0].kind, "softirq");
  EXPECT_EQ(
      a.outliers[0].evidence[0].text,
      "softirq NET_RX: 50.0 ms of softirq time on CPU 1 of host a (usually 10.0 ms in as long); NET_RX x90 "
      "there (usually 100 in as long)");
  // Within twice its routine and a jiffy: not a cause (both hosts quiet: the wire).
  window_at(k.wa, kStart + 253000000).cpu[0].softirq_jiffies = 3;
  a = attribute(k.input());
  ASSERT_EQ(a.outliers[0].evidence.size(), 1u);
  EXPECT_EQ(a.outliers[0].evidence[0].kind, "wire");
}

TEST(Attribute, SoftirqStealAndSmiOnTheServerSide) {
  Case k;
  add(k, 9, kStart + 605000000, 2500000);
  WatchWindow& w = window_at(k.wb, kStart + 604000000 + 5000);
  w.softirq.push_back({2, "NET_RX", 900});
  w.cpu[0].steal_jiffies = 1;
  w.cpu[0].smi = 1;
  const Attribution a = attribute(k.input());
  std::vector<std::string> texts;
  for (const Evidence& e : a.outliers.at(0).evidence) texts.push_back(e.text);
  EXPECT_EQ(texts, (std::vector<std::string>{"softirq NET_RX x900 on CPU 2 of host b (usually 0 in as long)",
                                             "steal 10.0 ms (hypervisor) on CPU 2 of host b",
                                             "SMI +1 on CPU 2 of host b"}));
}

TEST(Attribute, ServerTurnaroundJoinedBySequenceNumber) {
  Case k;
  add(k, 11, kStart + 305000000, 400000, 380000);
  add(k, 12, kStart + 405000000, 60000);
  const Attribution a = attribute(k.input());
  const OutlierCause& worst = a.outliers.at(0);
  EXPECT_EQ(worst.seq, 11u);
  ASSERT_EQ(worst.evidence.size(), 1u);
  EXPECT_EQ(worst.evidence[0].text, "server turnaround 380 us on host b");
  EXPECT_EQ(
      worst.split,
      "reply waited 2 us in host a's socket; the client was not held up (no involuntary switch); server "
      "turnaround 380 us on host b");
}

/// A server stalled before it read the request (a hog on its CPU): its
/// turnaround is short, so it kept none of the requests the client kept, and
/// only the estimator's clock offset places host b's watch (the CI run of
/// stop 29: tail.e2e.hog_b with three 99 ms round trips and no evidence).
TEST(Attribute, AStalledServerKeptNoCommonRequestTheEstimatorsOffsetPlacesHostBsWatch) {
  Case k;
  const std::uint64_t at = kStart + 505000000, value = 90000000;
  k.client.items.push_back(outlier(50, at, value, 1));
  k.server.items.push_back(outlier(7, kStart + 105000000 + 5000, 30000, 2));  // another request
  for (std::uint64_t t = at - value; t < at; t += kWin)
    window_at(k.wb, t + 5000).tasks.push_back({2, 4242, "tailhog", kWin});
  const Attribution without = attribute(k.input());
  EXPECT_FALSE(without.clock_offset);
  EXPECT_EQ(without.unexplained, 1u);
  EXPECT_EQ(without.limits,
            (std::vector<std::string>{"host b: its noise watch could not be placed on host a's clock (no one-way "
                                      "clock offset, no request both probes kept): not consulted"}));
  AttributionInput in = k.input();
  in.clock_offset = ClockOffset{5000, 3000, "the estimator"};
  const Attribution a = attribute(in);
  EXPECT_TRUE(a.limits.empty());
  ASSERT_TRUE(a.clock_offset);
  EXPECT_EQ(a.clock_offset->source, "the estimator");
  ASSERT_FALSE(a.outliers.at(0).evidence.empty());
  EXPECT_EQ(a.outliers[0].evidence[0].pid, 4242);
  EXPECT_EQ(a.outliers[0].evidence[0].host, "b");
  EXPECT_EQ(a.top, "1 of 1 outliers: tailhog (pid 4242) on CPU 2 of host b");
}

TEST(Attribute, AStampedServersWaitInItsSocketIsTheServerNotRunningNotItsTurnaround) {
  Case k;
  k.server.from_arrival = true;
  add(k, 60, kStart + 305000000, 99000000, 98000000);  // 98 ms from arrival to reply...
  k.server.items.back().sock_wait_ns = 97990000;         // ...of which 97.99 ms in the socket
  add(k, 61, kStart + 405000000, 5000000, 4900000);      // a slow turnaround, no wait
  k.server.items.back().sock_wait_ns = 1000;
  const Attribution a = attribute(k.input());
  const OutlierCause& stalled = a.outliers.at(0);
  ASSERT_EQ(stalled.seq, 60u);
  ASSERT_EQ(stalled.evidence.size(), 1u);
  EXPECT_EQ(stalled.evidence[0].kind, "server_not_running");
  EXPECT_EQ(stalled.evidence[0].text, "the request waited 98.0 ms in host b's socket: the server was not running");
  EXPECT_NE(stalled.split.find("request waited 98.0 ms in host b's socket; server turnaround 10 us on host b"),
            std::string::npos)
      << stalled.split;
  const OutlierCause& slow = a.outliers.at(1);
  ASSERT_EQ(slow.evidence.size(), 1u);
  EXPECT_EQ(slow.evidence[0].text, "server turnaround 4.9 ms on host b");
}

TEST(Attribute, TheRequestsBothKeptGiveTheOffsetWhenThereIsNoEstimate) {
  Case k;
  add(k, 11, kStart + 305000000, 400000, 380000);
  const Attribution a = attribute(k.input());
  ASSERT_TRUE(a.clock_offset);
  EXPECT_EQ(a.clock_offset->ns, 5000);
  EXPECT_EQ(a.clock_offset->bound_ns, 200000u);  // half the round trip
  EXPECT_EQ(a.clock_offset->source, "the median over 1 requests both probes kept as outliers");
}

TEST(Attribute, BothHostsQuietIsTheWireNeverAHostCause) {
  Case k;
  for (int i = 0; i < 5; ++i) add(k, 20 + i, kStart + 105000000 + i * 100000000, 900000);
  const Attribution a = attribute(k.input());
  EXPECT_EQ(a.top, "5 of 5 outliers: nothing on either host: wire or NIC");
  for (const OutlierCause& c : a.outliers) ASSERT_EQ(c.evidence.size(), 1u);
}

TEST(Attribute, NoEvidenceIsUnexplainedAndCountedNeverGuessed) {
  Case k;
  for (int i = 0; i < 3; ++i) add(k, 30 + i, kStart + 205000000 + i * 100000000, 900000);
  AttributionInput in = k.input();
  in.watch_server = nullptr;  // host b unwatched: the wire cannot be told from host b
  const Attribution a = attribute(in);
  EXPECT_EQ(a.unexplained, 3u);
  EXPECT_TRUE(a.ranked.empty());
  EXPECT_EQ(a.top, "3 of 3 outliers unexplained (no evidence on either host)");
  EXPECT_EQ(a.limits, (std::vector<std::string>{"host b: no noise watch output"}));
}

TEST(Attribute, TheReplyWaitingInTheClientSocketSaysTheClientWasNotRunning) {
  Case k;
  add(k, 40, kStart + 705000000, 500000);
  k.client.items[0].sock_wait_ns = 450000;
  const Attribution a = attribute(k.input());
  ASSERT_EQ(a.outliers.at(0).evidence.size(), 1u);
  EXPECT_EQ(a.outliers[0].evidence[0].text,
            "the reply waited 450 us in host a's socket: the client was not running");
}

TEST(Attribute, RecordedHogRunNamesTheHogWhereItRanAndOnlyTasksThatRanThere) {
  const RecordedHogRun run = recorded_hog_run();
  const OutlierSet& c = run.client;
  const Attribution& a = run.attribution;
  ASSERT_EQ(a.outliers.size(), c.items.size());
  std::size_t hog = 0, explained = 0;
  for (const OutlierCause& o : a.outliers) {
    explained += !o.evidence.empty();
    for (const Evidence& e : o.evidence) {
      if (e.text.find("tailhog (pid 14260) ran") != std::string::npos) {
        ++hog;
        EXPECT_EQ(e.key, "tailhog (pid 14260) on CPU 1 of host a") << "the hog ran on CPU 1 only";
      }
    }
  }
  EXPECT_EQ(explained + a.unexplained, a.outliers.size());
  EXPECT_GE(hog, 20u);
  bool ranked_hog = false;
  for (const RankedCause& r : a.ranked)
    ranked_hog = ranked_hog || r.key == "tailhog (pid 14260) on CPU 1 of host a";
  EXPECT_TRUE(ranked_hog);
}

TEST(Attribute, FormatNs) {
  EXPECT_EQ(format_ns(850), "850 ns");
  EXPECT_EQ(format_ns(412000), "412 us");
  EXPECT_EQ(format_ns(2100000), "2.1 ms");
}

}  // namespace
}  // namespace labgate::tail

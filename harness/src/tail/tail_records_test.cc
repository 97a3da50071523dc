// Reading the pingpong probe's outliers and the watch's windows: a recorded real
// run (testdata/) and broken documents, each refused with its path.
#include "labgate/tail/tail_records.h"

#include <gtest/gtest.h>

#include <functional>
#include <stdexcept>

#include "tail_test_util.h"

namespace labgate::tail {
namespace {

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(TailRecords, RecordedClientOutliersWithTheirMoment) {
  const nlohmann::json doc = nlohmann::json::parse(testdata("hog_client.json"));
  const OutlierSet s = parse_outliers(doc, "outliers", "client");
  EXPECT_EQ(s.threshold_ns, 2000000u);
  EXPECT_EQ(s.cpu_source, "getcpu");
  EXPECT_EQ(s.switches_source, "getrusage_thread");
  EXPECT_EQ(s.sock_wait_source, "SIOCGSTAMPNS");
  ASSERT_GE(s.items.size(), 64u);
  std::size_t worst = 0;
  for (const OutlierRecord& r : s.items) {
    worst += r.worst;
    EXPECT_EQ(r.cpu_after, 1) << "the client was pinned to CPU 1";
    EXPECT_LE(r.ctx_from_seq, r.seq);
    EXPECT_TRUE(r.sock_wait_ns.has_value()) << "udp: every outlier's reply has its stamp";
  }
  EXPECT_EQ(worst, 64u);
}

TEST(TailRecords, RecordedServerTurnaroundsBySeq) {
  const nlohmann::json doc = nlohmann::json::parse(testdata("hog_server.json"));
  const OutlierSet s = parse_outliers(doc, "turnaround_outliers", "server");
  EXPECT_EQ(s.items.size(), 64u);
  EXPECT_GT(s.floor_ns, 0u);
  for (const OutlierRecord& r : s.items) EXPECT_GE(r.value_ns, s.floor_ns);
}

TEST(TailRecords, RecordedWatchWindowsNameTheHogOnItsCpu) {
  const WatchOutput w = parse_watch(testdata("hog_watch.json"), "a");
  EXPECT_EQ(w.cpus, (std::vector<int>{0, 1}));
  EXPECT_EQ(w.softirq_source, "proc_softirqs");
  EXPECT_EQ(w.smi_source.rfind("not available: ", 0), 0u) << w.smi_source;
  ASSERT_GT(w.windows.size(), 300u);
  std::uint64_t hog_ns = 0;
  for (const WatchWindow& win : w.windows) {
    EXPECT_LE(win.t0, win.t1);
    ASSERT_EQ(win.cpu.size(), 2u);
    for (const TaskRun& t : win.tasks)
      if (t.comm == "tailhog") {
        EXPECT_EQ(t.pid, 14260);
        EXPECT_EQ(t.cpu, 1);
        hog_ns += t.ran_ns;
      }
  }
  EXPECT_GT(hog_ns, 300000000u) << "busy 200 ms of each second for 3 s, from its first sight on";
}

TEST(TailRecords, RecordedStridedWatchReadsInterruptsEveryFifthWindowWithTheirSpan) {
  const WatchOutput w = parse_watch(testdata("strided_watch.json"), "a");
  ASSERT_GT(w.windows.size(), 90u);
  std::size_t reads = 0;
  std::uint64_t last_read = 0;
  for (const WatchWindow& win : w.windows) {
    if (!win.irq_read) {
      EXPECT_TRUE(win.irq.empty()) << "a window that did not read /proc/interrupts has no entries";
      continue;
    }
    ++reads;
    if (last_read) {
      EXPECT_EQ(win.irq_since, last_read) << "a read covers what grew since the last";
    }
    EXPECT_LT(win.irq_since, win.t0) << "and that is several windows";
    last_read = win.t1;
  }
  EXPECT_GE(reads, w.windows.size() / 5 - 1);
  EXPECT_LE(reads, w.windows.size() / 5 + 2);
  // An output without irq_every (every window read them): each covers itself.
  nlohmann::json j = nlohmann::json::parse(testdata("hog_watch.json"));
  const WatchOutput old = parse_watch(j.dump(), "a");
  for (const WatchWindow& win : old.windows) {
    EXPECT_TRUE(win.irq_read);
    EXPECT_EQ(win.irq_since, win.t0);
  }
}

TEST(TailRecords, BrokenWatchDocumentsNameHostAndPath) {
  EXPECT_EQ(error_of([] { parse_watch("{", "b"); }).rfind("watch output from b: not one JSON document", 0),
            0u);
  const std::string ok = testdata("hog_watch.json");
  nlohmann::json j = nlohmann::json::parse(ok);
  j["windows"][3]["irq"][0][1] = 99999;
  EXPECT_NE(
      error_of([&] { parse_watch(j.dump(), "b"); }).find("windows[3].irq[0]: name index 99999 is unknown"),
      std::string::npos);
  j = nlohmann::json::parse(ok);
  j["windows"][2]["tasks"] = {{7, 0, 5}};
  EXPECT_NE(error_of([&] { parse_watch(j.dump(), "b"); }).find("CPU index 7 is not watched"),
            std::string::npos);
  j = nlohmann::json::parse(ok);
  j["windows"][0]["cpu"].erase(1);
  EXPECT_NE(error_of([&] { parse_watch(j.dump(), "b"); }).find("windows[0].cpu: does not have one entry per"),
            std::string::npos);
  j = nlohmann::json::parse(ok);
  j["windows"][4]["irq_since"] = j["windows"][4]["t1"].get<std::uint64_t>() + 1;
  EXPECT_NE(error_of([&] { parse_watch(j.dump(), "b"); }).find("windows[4].irq_since: is after t1"),
            std::string::npos);
  j = nlohmann::json::parse(ok);
  j["probe"] = "pingpong";
  EXPECT_NE(error_of([&] { parse_watch(j.dump(), "b"); }).find("not a labgate-probe-1 watch document"),
            std::string::npos);
}

TEST(TailRecords, BrokenOutliersNamePath) {
  nlohmann::json j = nlohmann::json::parse(testdata("hog_client.json"));
  j["outliers"]["items"][1]["ctx_from_seq"] = j["outliers"]["items"][1]["seq"].get<std::uint64_t>() + 1;
  EXPECT_NE(error_of([&] {
              parse_outliers(j, "outliers", "client on a");
            }).find("client on a: outliers.items[1].ctx_from_seq: is after seq"),
            std::string::npos);
  j = nlohmann::json::parse(testdata("hog_client.json"));
  j.erase("outlier_sources");
  EXPECT_NE(error_of([&] { parse_outliers(j, "outliers", "client"); }).find("outlier_sources"),
            std::string::npos);
}

}  // namespace
}  // namespace labgate::tail

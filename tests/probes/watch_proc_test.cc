// The watch probe's /proc parsers (probes/watch/wt_proc.c) on recorded files in
// the styles of RHEL 5.8, 7 and 9 (tests/fixtures/watch).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

extern "C" {
#include "wt.h"
}

namespace {

std::string fixture(const std::string& rel) {
  const std::string path = std::string(LABGATE_SOURCE_DIR) + "/tests/fixtures/watch/" + rel;
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << path;
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

struct Table {
  wt_names names{};
  std::vector<uint64_t> counts = std::vector<uint64_t>(WT_MAX_NAMES * WT_MAX_CPUS);
  int lines = 0;
  // Count of `name` on the i-th watched CPU, or -1 when the name is unknown.
  long long at(const std::string& name, int i, int ncpus) const {
    for (int n = 0; n < names.len; ++n)
      if (name == names.name[n]) return static_cast<long long>(counts[n * ncpus + i]);
    return -1;
  }
};

Table parse(const std::string& rel, std::vector<int> cpus, int irq_style) {
  Table t;
  const std::string text = fixture(rel);
  t.lines = wt_parse_per_cpu_table(text.c_str(), cpus.data(), static_cast<int>(cpus.size()), &t.names,
                                   t.counts.data(), irq_style);
  return t;
}

TEST(WatchProc, Rhel58InterruptsByNameWithDeviceAndNoPerCpuErr) {
  const Table t = parse("rhel58/proc/interrupts", {1, 0}, 1);
  EXPECT_EQ(t.lines, 8);
  EXPECT_EQ(t.at("90 eth0", 0, 2), 409) << "CPU 1 is the first watched";
  EXPECT_EQ(t.at("90 eth0", 1, 2), 12066181);
  EXPECT_EQ(t.at("0 timer", 1, 2), 48612012);
  EXPECT_EQ(t.at("LOC", 0, 2), 48611781);
  EXPECT_EQ(t.at("ERR", 1, 2), 0) << "one system-wide count is not CPU 0's";
}

TEST(WatchProc, Rhel7OfflineCpuHasNoColumnAndNamedLinesKeepTheirLabel) {
  const Table t = parse("rhel7/proc/interrupts", {3, 2}, 1);
  EXPECT_EQ(t.at("65 ens2f0-TxRx-1", 0, 2), 7777) << "CPU 3 is the third column";
  EXPECT_EQ(t.at("65 ens2f0-TxRx-1", 1, 2), 0) << "CPU 2 is offline: no column";
  EXPECT_EQ(t.at("RES", 0, 2), 5003);
  EXPECT_EQ(t.at("TLB", 0, 2), 73);
  const Table s = parse("rhel7/proc/softirqs", {3}, 0);
  EXPECT_EQ(s.at("NET_RX", 0, 1), 300004);
  EXPECT_EQ(s.at("BLOCK_IOPOLL", 0, 1), 0);
}

TEST(WatchProc, Rhel9InterruptsAndSoftirqs) {
  const Table t = parse("rhel9/proc/interrupts", {2}, 1);
  EXPECT_EQ(t.at("131 eth2-rx-0", 0, 1), 57);
  EXPECT_EQ(t.at("99 mlx5_comp1@pci:0000:3b:00.0", 0, 1), 0);
  EXPECT_EQ(t.at("CAL", 0, 1), 402);
  EXPECT_EQ(t.at("PIN", 0, 1), 0);
  const Table s = parse("rhel9/proc/softirqs", {2}, 0);
  EXPECT_EQ(s.at("NET_RX", 0, 1), 1234567);
  EXPECT_EQ(s.at("IRQ_POLL", 0, 1), 0);
}

TEST(WatchProc, OnlyTheFirstLineIsTheHeader) {
  // A device named after a CPU is not a column: were it one, no line would
  // have as many counts as columns and every count would be left out.
  const std::string text =
      "           CPU0       CPU1\n"
      "  9:          5          7   IO-APIC   9-fasteoi   acpi\n"
      " 24:          1          2   PCI-MSI 65536-edge      cpufreq-CPU1\n"
      "LOC:        100        200   Local timer interrupts\n";
  Table t;
  const std::vector<int> cpus = {1};
  t.lines = wt_parse_per_cpu_table(text.c_str(), cpus.data(), 1, &t.names, t.counts.data(), 1);
  EXPECT_EQ(t.lines, 3);
  EXPECT_EQ(t.at("9 acpi", 0, 1), 7);
  EXPECT_EQ(t.at("24 cpufreq-CPU1", 0, 1), 2);
  EXPECT_EQ(t.at("LOC", 0, 1), 200);
}

TEST(WatchProc, LongNamesAreCutToFit) {
  const std::string dev(60, 'd');
  const std::string text = "   CPU0\n130:  9  PCI-MSI  " + dev + "\n" + std::string(50, 'N') + ":  4  x\n";
  Table t;
  const int cpu = 0;
  ASSERT_EQ(wt_parse_per_cpu_table(text.c_str(), &cpu, 1, &t.names, t.counts.data(), 1), 2);
  ASSERT_EQ(t.names.len, 2);
  EXPECT_EQ(std::string(t.names.name[0]), "130 " + dev.substr(0, WT_NAME_LEN - 1 - 4));
  EXPECT_EQ(std::string(t.names.name[1]), std::string(31, 'N')) << "a label is read up to 31 characters";
}

TEST(WatchProc, NamesAreAddedOnceAcrossSamples) {
  Table t = parse("rhel9/proc/softirqs", {0}, 0);
  const int before = t.names.len;
  const std::string text = fixture("rhel9/proc/softirqs");
  int cpu = 0;
  ASSERT_GT(wt_parse_per_cpu_table(text.c_str(), &cpu, 1, &t.names, t.counts.data(), 0), 0);
  EXPECT_EQ(t.names.len, before);
  EXPECT_EQ(before, 10);
}

TEST(WatchProc, StatIrqSoftirqStealPerCpuOnEachRelease) {
  wt_cpustat out[2];
  std::vector<int> cpus = {1, 0};
  std::string text = fixture("rhel58/proc/stat");
  ASSERT_EQ(wt_parse_stat(text.c_str(), cpus.data(), 2, out), 2);
  EXPECT_EQ(out[1].irq, 127u);
  EXPECT_EQ(out[1].softirq, 450u);
  EXPECT_EQ(out[0].softirq, 6u);
  EXPECT_EQ(out[0].steal, 0u);
  cpus = {3, 2};
  text = fixture("rhel7/proc/stat");
  ASSERT_EQ(wt_parse_stat(text.c_str(), cpus.data(), 2, out), 1) << "CPU 2 is offline";
  EXPECT_EQ(out[0].irq, 103u);
  EXPECT_EQ(out[0].steal, 33u);
  EXPECT_EQ(out[1].seen, 0);
  cpus = {2};
  text = fixture("rhel9/proc/stat");
  ASSERT_EQ(wt_parse_stat(text.c_str(), cpus.data(), 1, out), 1);
  EXPECT_EQ(out[0].softirq, 400u);
  EXPECT_EQ(out[0].steal, 40u);
}

TEST(WatchProc, ForkCountFromStatOnEachRelease) {
  // The task scan lists /proc again only when this count moved.
  uint64_t forks = 0;
  ASSERT_EQ(wt_parse_forks(fixture("rhel58/proc/stat").c_str(), &forks), 0);
  EXPECT_EQ(forks, 2915u);
  ASSERT_EQ(wt_parse_forks(fixture("rhel7/proc/stat").c_str(), &forks), 0);
  EXPECT_EQ(forks, 4242u);
  ASSERT_EQ(wt_parse_forks(fixture("rhel9/proc/stat").c_str(), &forks), 0);
  EXPECT_EQ(forks, 5252u);
  EXPECT_EQ(wt_parse_forks("cpu  1 2 3\nprocs_running 2\n", &forks), -1) << "no processes line";
}

TEST(WatchProc, TaskStatWithSpacesAndParenthesesInComm) {
  const char* line =
      "4242 (stress (ng) x) R 1 4242 4242 0 -1 4194560 100 0 0 0 1500 250 0 0 20 0 1 0 12345 1000000 200 "
      "18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 3 0 0 0 0 0\n";
  char comm[32];
  int cpu = -1;
  uint64_t j = 0;
  ASSERT_EQ(wt_parse_task_stat(line, comm, sizeof comm, &cpu, &j), 0);
  EXPECT_STREQ(comm, "stress (ng) x");
  EXPECT_EQ(cpu, 3);
  EXPECT_EQ(j, 1750u);
}

// One struct linux_dirent64 record, as getdents64 lays it out (8-byte aligned).
void add_dirent(std::string& buf, const std::string& name, unsigned char type) {
  const std::size_t reclen = (19 + name.size() + 1 + 7) / 8 * 8;
  std::string rec(reclen, '\0');
  const std::uint64_t ino = 4242, off = buf.size() + reclen;
  const auto len = static_cast<unsigned short>(reclen);
  std::memcpy(&rec[0], &ino, 8);
  std::memcpy(&rec[8], &off, 8);
  std::memcpy(&rec[16], &len, 2);
  rec[18] = static_cast<char>(type);
  std::memcpy(&rec[19], name.data(), name.size());
  buf += rec;
}

TEST(WatchProc, DirentsKeepOnlyNumberedEntries) {
  // /proc holds pids beside named entries ("self", "1x" is not a pid); a task
  // directory holds tids beside "." and "..".
  std::string buf;
  for (const char* name : {".", "..", "1", "self", "4242", "1x", "sys", "88"}) add_dirent(buf, name, 4);
  int out[8] = {};
  int n = 0;
  std::uint64_t over = 0;
  ASSERT_EQ(wt_parse_dirents(buf.data(), static_cast<long>(buf.size()), out, &n, 8, &over), 0);
  ASSERT_EQ(n, 3);
  EXPECT_EQ(out[0], 1);
  EXPECT_EQ(out[1], 4242);
  EXPECT_EQ(out[2], 88);
  EXPECT_EQ(over, 0u);
  // Appends across calls (one per getdents64 answer), and counts what has no room.
  ASSERT_EQ(wt_parse_dirents(buf.data(), static_cast<long>(buf.size()), out, &n, 4, &over), 0);
  EXPECT_EQ(n, 4);
  EXPECT_EQ(out[3], 1);
  EXPECT_EQ(over, 2u);
}

TEST(WatchProc, DirentsRefuseARecordPastTheBuffer) {
  std::string buf;
  add_dirent(buf, "123", 4);
  int out[4];
  int n = 0;
  std::uint64_t over = 0;
  EXPECT_EQ(wt_parse_dirents(buf.data(), static_cast<long>(buf.size()) - 1, out, &n, 4, &over), -1);
  buf[16] = 0;  // a zero record length would never advance
  buf[17] = 0;
  EXPECT_EQ(wt_parse_dirents(buf.data(), static_cast<long>(buf.size()), out, &n, 4, &over), -1);
}

TEST(WatchProc, LoadavgTaskCountOnEachRelease) {
  // The task scan keeps a listing's known processes as they were when this
  // count equals the tasks it keeps; the same format since 2.6.
  std::uint64_t tasks = 0;
  ASSERT_EQ(wt_parse_loadavg_tasks("0.00 0.02 0.00 1/87 2915\n", &tasks), 0);  // RHEL 5.8
  EXPECT_EQ(tasks, 87u);
  ASSERT_EQ(wt_parse_loadavg_tasks("11.09 8.47 5.00 13/1170 11876\n", &tasks), 0);
  EXPECT_EQ(tasks, 1170u);
  EXPECT_EQ(wt_parse_loadavg_tasks("0.00 0.02 0.00\n", &tasks), -1);
  EXPECT_EQ(wt_parse_loadavg_tasks("0.00 0.02 0.00 1/x 2\n", &tasks), -1);
}

}  // namespace

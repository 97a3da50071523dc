// Tests of the sysbench fileio command lines and of the parser on the seeds'
// 0.4.x outputs (as printed, web-copied spaces and elisions included) and real
// runs of Debian's sysbench 1.0.20 recorded on this machine.
#include "labgate/storage/sysbench.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace labgate::storage {
namespace {

using profile::TestKind;
using ::testing::Contains;
using ::testing::HasSubstr;

const std::string kDir = std::string(LABGATE_SOURCE_DIR) + "/tests/fixtures/seeds-extra/sysbench/";

std::string read(const std::string& name) {
  std::ifstream in(kDir + name);
  std::ostringstream s;
  s << in.rdbuf();
  if (s.str().empty()) throw std::runtime_error("missing fixture " + name);
  return s.str();
}

profile::TestSpec disk_spec(TestKind kind) {
  profile::TestSpec s;
  s.name = "rndrd";
  s.kind = kind;
  s.tool = profile::Tool::kSysbench;
  s.duration = std::chrono::milliseconds(2500);
  s.disk.dir = "/u01/lg";
  s.disk.path = "/u01/lg/labgate-rndrd.dat";
  s.disk.file_size = 128u << 20;
  s.disk.threads = 2;
  return s;
}

TEST(SysbenchVersion, FromVersionOutputOrBanner) {
  EXPECT_EQ(parse_sysbench_version("sysbench 1.0.20\n"), SysbenchVersion::k10);
  EXPECT_EQ(parse_sysbench_version(read("seed002-sysbench0410-rndrd-direct.txt")), SysbenchVersion::k04);
  EXPECT_EQ(parse_sysbench_version("sysbench 0.4.12:  multi-threaded system evaluation benchmark"),
            SysbenchVersion::k04);
  EXPECT_EQ(parse_sysbench_version("sysbench 1.1.0"), std::nullopt);
  EXPECT_EQ(parse_sysbench_version("bash: sysbench: command not found"), std::nullopt);
}

TEST(SysbenchCommands, Version10RunsInTheTestDirectory) {
  const SysbenchCommands c = sysbench_commands(disk_spec(TestKind::kDiskRandomRead), SysbenchVersion::k10);
  EXPECT_EQ(c.dir, "/u01/lg");
  const std::vector<std::string> want{"/bin/sh",
                                      "-c",
                                      "cd \"$1\" || exit 3; shift; exec \"$@\"",
                                      "labgate-sysbench",
                                      "/u01/lg",
                                      "sysbench",
                                      "fileio",
                                      "--file-total-size=134217728",
                                      "--file-num=1",
                                      "--file-block-size=16384",
                                      "--file-extra-flags=direct",
                                      "--file-test-mode=rndrd",
                                      "--file-fsync-freq=0",
                                      "--threads=2",
                                      "--time=3",
                                      "--events=0",
                                      "--percentile=99",
                                      "--histogram=on",
                                      "run"};
  EXPECT_EQ(c.run, want);
  EXPECT_EQ(c.prepare.back(), "prepare");
  EXPECT_EQ(c.cleanup.back(), "cleanup");
  EXPECT_EQ(c.run_timeout, std::chrono::seconds(63));
  EXPECT_EQ(c.prepare_timeout, std::chrono::seconds(60 + 25));
}

TEST(SysbenchCommands, Version04SpellsItsOwnOptions) {
  profile::TestSpec s = disk_spec(TestKind::kDiskRandomRw);
  s.disk.direct = false;
  const SysbenchCommands c = sysbench_commands(s, SysbenchVersion::k04);
  EXPECT_THAT(c.run, Contains("--test=fileio"));
  EXPECT_THAT(c.run, Contains("--num-threads=2"));
  EXPECT_THAT(c.run, Contains("--max-time=3"));
  EXPECT_THAT(c.run, Contains("--max-requests=0"));
  EXPECT_THAT(c.run, Contains("--file-test-mode=rndrw"));
  EXPECT_THAT(c.run, Contains("--file-rw-ratio=1.500"));
  EXPECT_THAT(c.run, ::testing::Not(Contains("--file-extra-flags=direct")));
}

TEST(SysbenchParse, Seed002Version0410RandomReadDirect) {
  const measure::Measurement m = parse_sysbench_fileio(read("seed002-sysbench0410-rndrd-direct.txt"),
                                                       "seed 002", TestKind::kDiskRandomRead);
  EXPECT_EQ(m.source, "sysbench");
  EXPECT_EQ(m.kind, "disk_random_read");
  EXPECT_DOUBLE_EQ(m.reported.at("iops"), 15177.50);
  ASSERT_TRUE(m.throughput_bps);
  EXPECT_DOUBLE_EQ(*m.throughput_bps, 237.15 * 1024 * 1024 * 8);
  EXPECT_EQ(m.parameters.at("reads"), "910652");
  EXPECT_EQ(m.parameters.at("direct"), "true");  // "Extra file open flags: 16384"
  EXPECT_EQ(m.parameters.at("threads"), "1");
  EXPECT_TRUE(m.warnings.empty());
  EXPECT_EQ(m.reported.count("max"), 0u);  // the seed printed no per-request statistics
}

TEST(SysbenchParse, Seed004Version0412DirectShowsThePrintedFigures) {
  const measure::Measurement m =
      parse_sysbench_fileio(read("seed004-sysbench0412-rndrw-direct.txt"), "seed 004");
  EXPECT_DOUBLE_EQ(m.reported.at("iops"), 161.38);
  EXPECT_DOUBLE_EQ(m.reported.at("p95"), 33.36e6);
  EXPECT_DOUBLE_EQ(m.reported.at("min"), 0.12e6);
  EXPECT_DOUBLE_EQ(m.reported.at("mean"), 11.63e6);
  EXPECT_DOUBLE_EQ(m.reported.at("max"), 361.74e6);
  EXPECT_DOUBLE_EQ(*m.throughput_bps, 2.5215 * 1024 * 1024 * 8);
  EXPECT_EQ(m.parameters.at("percentile_rank"), "95");
  EXPECT_EQ(m.stat("max"), 361.74e6);
  EXPECT_EQ(m.stat("p99"), std::nullopt);  // run with the default rank: a p99 budget fails as unmeasured
  const measure::Measurement cached =
      parse_sysbench_fileio(read("seed004-sysbench0412-rndrw-cached.txt"), "seed 004");
  EXPECT_DOUBLE_EQ(cached.reported.at("iops"), 595.47);
  EXPECT_DOUBLE_EQ(cached.reported.at("p95"), 0.01e6);
}

TEST(SysbenchParse, Debian1020RandomReadWithP99) {
  const measure::Measurement m =
      parse_sysbench_fileio(read("sysbench1020-rndrd-direct.txt"), "lab", TestKind::kDiskRandomRead);
  EXPECT_EQ(m.parameters.at("sysbench"), "1.0");
  EXPECT_DOUBLE_EQ(m.reported.at("iops"), 15692.08);
  EXPECT_DOUBLE_EQ(m.reported.at("p99"), 0.22e6);
  EXPECT_DOUBLE_EQ(m.reported.at("max"), 64.10e6);
  EXPECT_DOUBLE_EQ(*m.throughput_bps, 245.19 * 1024 * 1024 * 8);
  EXPECT_DOUBLE_EQ(m.duration_s, 3.0001);
  EXPECT_EQ(m.parameters.at("threads"), "2");
  EXPECT_EQ(m.parameters.at("direct"), "true");
  EXPECT_EQ(m.stat("p99"), 0.22e6);
}

TEST(SysbenchParse, NotMeasuredMarkersAreNamedAndLeftAbsent) {
  std::string text = read("sysbench1020-rndrd-direct.txt");
  for (const char* key : {"avg:", "99th percentile:"}) {
    const std::size_t at = text.find(key) + std::string(key).size();
    const std::size_t end = text.find('\n', at);
    text.replace(at, end - at, "                                   -nan");
  }
  const measure::Measurement m = parse_sysbench_fileio(text, "lab", TestKind::kDiskRandomRead);
  EXPECT_EQ(m.reported.count("mean"), 0u);
  EXPECT_EQ(m.reported.count("p99"), 0u);
  EXPECT_DOUBLE_EQ(m.reported.at("max"), 64.10e6);
  const std::string w = ::testing::PrintToString(m.warnings);
  EXPECT_THAT(w, HasSubstr("mean=-nan is sysbench's 'not measured' marker"));
  EXPECT_THAT(w, HasSubstr("p99=-nan is sysbench's 'not measured' marker"));
}

TEST(SysbenchParse, Debian1020MixWithHistogramAndFsyncsLeftOut) {
  const measure::Measurement m =
      parse_sysbench_fileio(read("sysbench1020-rndrw-direct-histogram.txt"), "lab");
  EXPECT_EQ(m.kind, "disk_random_rw");
  EXPECT_DOUBLE_EQ(m.reported.at("iops"), 2376.95 + 1584.63);
  EXPECT_EQ(m.parameters.at("fsyncs_per_s"), "39.95");
  EXPECT_DOUBLE_EQ(m.reported.at("p95"), 0.09e6);
  // Every event of the run is in the histogram (12120, fsyncs included).
  EXPECT_EQ(m.histogram.count(), 12120u);
  EXPECT_NEAR(static_cast<double>(m.histogram.min()), 0.040e6, 1);
}

TEST(SysbenchParse, CachedRunIsWarnedAbout) {
  const measure::Measurement m = parse_sysbench_fileio(read("sysbench1020-rndwr-cached.txt"), "lab");
  EXPECT_EQ(m.parameters.at("direct"), "false");
  ASSERT_EQ(m.warnings.size(), 1u);
  EXPECT_THAT(m.warnings[0], HasSubstr("page cache"));
}

TEST(SysbenchParse, FailuresSayWhatToDo) {
  try {
    parse_sysbench_fileio(
        "sysbench 1.0.20\nFATAL: Cannot open file 'test_file.0' errno = 22 (Invalid argument)\n",
        "sysbench on a");
    FAIL();
  } catch (const SysbenchError& e) {
    EXPECT_EQ(e.kind(), SysbenchFailure::kDirectUnsupported);
    EXPECT_THAT(e.what(), HasSubstr("set direct = false"));
  }
  try {
    parse_sysbench_fileio("FATAL: Too large position discovered in request!\n", "b");
    FAIL();
  } catch (const SysbenchError& e) {
    EXPECT_EQ(e.kind(), SysbenchFailure::kToolFailed);
  }
  EXPECT_THROW(parse_sysbench_fileio(read("sysbench1020-prepare.txt"), "x"), SysbenchError);
  EXPECT_THROW(parse_sysbench_fileio(read("sysbench1020-rndrd-direct.txt"), "x", TestKind::kDiskRandomWrite),
               SysbenchError);
  EXPECT_THROW(parse_sysbench_fileio("", "x"), SysbenchError);
}

}  // namespace
}  // namespace labgate::storage

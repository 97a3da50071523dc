// Tests of the disk probe's command line from a test spec and of the parser's
// refusals (the real probe's runs are in tests/disk).
#include "labgate/storage/disk_probe.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "util/source_file.h"

namespace labgate::storage {
namespace {

using ::testing::HasSubstr;

TEST(DiskProbeCommand, FromTheProfilesDiskKeys) {
  profile::TestSpec s;
  s.kind = profile::TestKind::kDiskRandomRw;
  s.duration = std::chrono::seconds(30);
  s.warmup = std::chrono::seconds(2);
  s.disk.dir = "/u01/lg";
  s.disk.path = "/u01/lg/labgate-x.dat";
  s.disk.file_size = 1u << 30;
  s.disk.threads = 4;
  s.disk.direct = false;
  s.disk.read_mix = 0.7;
  const DiskInvocation inv = disk_probe_command(s, "/tmp/run/disk");
  EXPECT_EQ(inv.argv, (std::vector<std::string>{
                          "/tmp/run/disk", "--dir",     "/u01/lg",     "--file",     "/u01/lg/labgate-x.dat",
                          "--mode",        "rw",        "--file-size", "1073741824", "--block-size",
                          "16384",         "--threads", "4",           "--duration", "30s",
                          "--warmup",      "2s",        "--interval",  "1s",         "--no-direct",
                          "--read-mix",    "70"}));
  EXPECT_EQ(inv.timeout, std::chrono::seconds(2 + 30 + 90 + 204));
  s.duration = std::chrono::nanoseconds(1234567);  // "1.235ms" would round: the probe gets it exact
  EXPECT_THAT(disk_probe_command(s, "p").argv, ::testing::Contains("1234567ns"));
}

std::string testdata(const std::string& name) {
  return labgate::test_files::source_file("harness/src/storage/testdata/" + name);
}

TEST(DiskProbeOutput, ARealRunThroughTheOneWrapperWithItsSamplesAccounted) {
  // Recorded from probes/disk (read, 1 MiB file, 4 KiB blocks, cached, 0.3 s).
  const measure::Measurement m = parse_disk_probe(testdata("disk-read-cached.json"), "a");
  EXPECT_EQ(m.kind, "disk_random_read");
  EXPECT_EQ(m.parameters.at("reads"), "171007");
  EXPECT_EQ(m.histogram.count(), 171007u);
  EXPECT_FALSE(m.counts_drops);
  ASSERT_TRUE(m.expectation);
  EXPECT_EQ(m.expectation->expected, 171007);
  EXPECT_EQ(m.expectation->held, 171007);
  EXPECT_THAT(::testing::PrintToString(m.warnings), HasSubstr("direct = false"));
  // A member of the wrong type anywhere is a ProbeOutputError naming it.
  auto j = nlohmann::json::parse(testdata("disk-read-cached.json"));
  j["parameters"]["threads"] = "two";
  try {
    parse_disk_probe(j.dump(), "a");
    ADD_FAILURE() << "accepted";
  } catch (const measure::ProbeOutputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("disk probe output: parameters.threads: expected an integer, got string"));
  }
}

TEST(DiskProbeOutput, RefusesWhatIsNotAGoodDiskResult) {
  auto error_of = [](const std::string& text) {
    try {
      parse_disk_probe(text, "a");
    } catch (const measure::ProbeOutputError& e) {
      return std::string(e.what()) + (e.probe_failed() ? " [probe_failed]" : "");
    }
    return std::string("no error");
  };
  EXPECT_THAT(error_of("not json"), HasSubstr("disk output is not one JSON document"));
  EXPECT_THAT(error_of(R"({"format":"labgate-probe-1","probe":"pingpong","status":"ok"})"),
              HasSubstr("disk output: probe: is 'pingpong', not disk"));
  EXPECT_THAT(
      error_of(
          R"({"format":"labgate-probe-1","probe":"disk","status":"error","error":"the filesystem of /x refuses O_DIRECT"})"),
      HasSubstr("disk probe on a could not measure: the filesystem of /x refuses O_DIRECT [probe_failed]"));
  EXPECT_THAT(
      error_of(R"({"format":"labgate-probe-1","probe":"disk","status":"ok","kind":"disk_random_read"})"),
      HasSubstr("disk probe output: parameters: missing"));
}

}  // namespace
}  // namespace labgate::storage

// Tests of the disk probe's command line from a test spec and of the parser's
// refusals (the real probe's runs are in tests/disk).
#include "labgate/storage/disk_probe.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

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

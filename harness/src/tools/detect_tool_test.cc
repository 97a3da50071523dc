// Telling which tool wrote a saved output from what only that tool prints.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "labgate/tools/parsers.h"

namespace labgate::tools {
namespace {

using profile::Tool;

std::optional<Tool> detect(const std::string& fixture) {
  return detect_tool(read_tool_file(std::string(LABGATE_SOURCE_DIR) + "/tests/fixtures/tools/" + fixture));
}

TEST(DetectTool, EveryRecordedOutputIsToldApart) {
  for (const char* f : {"netperf/000-01.txt", "netperf/000-03.txt", "netperf/001-01.txt", "netperf/004-02.txt",
                        "netperf/000-10.txt", "netperf/crafted-udp-rr-clean.txt"})
    EXPECT_EQ(detect(f), Tool::kNetperf) << f;
  for (const char* f : {"sockperf/000-02-udp.txt", "sockperf/sockperf37-tcp-rtt.txt"})
    EXPECT_EQ(detect(f), Tool::kSockperf) << f;
  for (const char* f : {"iperf3/iperf312-tcp.json", "iperf3/iperf312-udp.json", "iperf3/iperf312-refused.json"})
    EXPECT_EQ(detect(f), Tool::kIperf3) << f;
}

TEST(DetectTool, OtherTextIsNone) {
  EXPECT_EQ(detect_tool(text_from_string("notes", "ran it twice\nlooked fine\n")), std::nullopt);
  EXPECT_EQ(detect_tool(text_from_string("json", "{\"result\": 1}\n")), std::nullopt);
}

}  // namespace
}  // namespace labgate::tools

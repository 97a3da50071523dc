// The property behind validate's limits table: profile values generated at and
// beyond every limit a probe, a tool, the filesystem or the OS imposes (message
// sizes per tool and kind, rates, intervals, names, remote directories). Whatever
// validate accepts, the gate starts on fake hosts (connects, makes its run
// directory in probe_dir, builds every case's command line); whatever it refuses
// is refused at the value's file:line:column, naming the limit. The expected
// limits are written here from the tools' sources and the probes' own C header,
// not read from the table under test.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <climits>
#include <regex>

#include "fake_lab_test_util.h"
#include "labgate/measure/probe_command.h"
#include "labgate/measure/probe_limits.h"
#include "labgate/tools/tool_commands.h"

namespace labgate::gate {
namespace {

namespace lt = testing;
using profile::TestKind;
using profile::Tool;

/// One generated profile value: the test's lines (or probe_dir), and the text a
/// refusal must contain (the limit), empty when validate must accept it.
struct Value {
  std::string label;
  std::string test_lines;  ///< appended to a tcp_rr/... test between a and b
  std::string probe_dir = "/tmp";
  std::string limit;  ///< what a refusal names; "" = must be accepted
};

struct SizeCase {
  Tool tool;
  TestKind kind;
  bool paced;
  std::uint64_t min, max;
};

// From the tools' sources (sockperf 3.10 defs.h, iperf 3.21 iperf.h, netperf's
// atoi) and the built-in probes' header (what pingpong and stream check).
std::vector<SizeCase> size_cases() {
  const std::uint64_t udp = LG_PROBE_MAX_UDP_SIZE, tcp = LG_PROBE_MAX_TCP_SIZE, hdr = LG_PROBE_HDR_SIZE;
  return {
      {Tool::kBuiltin, TestKind::kTcpRr, false, 1, tcp},
      {Tool::kBuiltin, TestKind::kTcpRr, true, hdr, tcp},
      {Tool::kBuiltin, TestKind::kUdpRr, false, hdr, udp},
      {Tool::kBuiltin, TestKind::kTcpStream, false, 1, tcp},
      {Tool::kBuiltin, TestKind::kUdpStream, true, hdr, udp},
      {Tool::kSockperf, TestKind::kTcpRr, false, 14, tcp - 1},
      {Tool::kSockperf, TestKind::kUdpRr, true, 14, 65507},
      {Tool::kIperf3, TestKind::kTcpStream, false, 1, 1 << 20},
      {Tool::kIperf3, TestKind::kUdpStream, true, 16, 65507},
      {Tool::kNetperf, TestKind::kTcpRr, false, 1, INT_MAX},
      {Tool::kNetperf, TestKind::kUdpStream, false, 1, 65507},
  };
}

std::string test_lines(Tool tool, TestKind kind, const std::string& extra) {
  const bool stream = profile::is_stream(kind);
  return std::string("kind = \"") + profile::to_string(kind) + "\"\ntool = \"" + profile::to_string(tool) +
         "\"\nbudget = { " + (stream ? "min_throughput = \"1Mbit/s\"" : "max_retransmits = 1") + " }\n" +
         extra;
}

std::vector<Value> generate() {
  std::vector<Value> out;
  for (const SizeCase& c : size_cases()) {
    const std::string rate = c.paced ? "rate = \"1000/s\"\n" : "";
    for (const std::uint64_t v : {c.min - 1, c.min, c.min + 1, c.max - 1, c.max, c.max + 1, 2 * c.max,
                                  std::uint64_t{1'000'000'000'000}}) {
      if (v == 0) continue;  // "must be at least 1 byte", the loader's own
      const std::string limit = v < c.min   ? "at least " + std::to_string(c.min) + " bytes"
                                : v > c.max ? "at most " + std::to_string(c.max) + " bytes"
                                            : "";
      out.push_back({std::string(profile::to_string(c.tool)) + " " + profile::to_string(c.kind) + " size " +
                         std::to_string(v) + (c.paced ? " paced" : ""),
                     test_lines(c.tool, c.kind, rate + "message_size = " + std::to_string(v) + "\n"), "/tmp",
                     limit});
    }
  }
  const auto rate = [&](Tool tool, TestKind kind, const std::string& r, const std::string& limit) {
    out.push_back({std::string(profile::to_string(tool)) + " rate " + r,
                   test_lines(tool, kind, "message_size = 64\nrate = \"" + r + "\"\n"), "/tmp", limit});
  };
  rate(Tool::kBuiltin, TestKind::kTcpRr, "1000000000/s", "");
  rate(Tool::kBuiltin, TestKind::kTcpStream, "1000000001/s", "at most 1000000000 messages a second");
  rate(Tool::kSockperf, TestKind::kUdpRr, "0.4/s", "from 1 to 1073741824");
  rate(Tool::kSockperf, TestKind::kUdpRr, "1/s", "");
  rate(Tool::kSockperf, TestKind::kUdpRr, "1073741824/s", "");
  rate(Tool::kSockperf, TestKind::kUdpRr, "1073741825/s", "from 1 to 1073741824");
  rate(Tool::kNetperf, TestKind::kTcpRr, "1/s", "netperf cannot send at a fixed rate");
  rate(Tool::kIperf3, TestKind::kUdpStream, "100000/s", "");
  const auto series = [&](const std::string& lines, const std::string& limit) {
    out.push_back({"series " + lines, test_lines(Tool::kBuiltin, TestKind::kUdpRr, lines), "/tmp", limit});
  };
  series("interval = \"999999ns\"\n", "at least 1ms");
  series("interval = \"1ms\"\n", "");
  series("interval = \"1ms\"\nduration = \"9999s\"\n", "");  // 9999000 + 2 intervals
  series("interval = \"1ms\"\nduration = \"10000s\"\n", "at most 10000000 intervals");
  for (const std::size_t n : {std::size_t{128}, std::size_t{129}, std::size_t{100 * 1024}})
    out.push_back(
        {"name of " + std::to_string(n) + " bytes",
         "name = \"" + std::string(n, 'n') + "\"\n" + test_lines(Tool::kBuiltin, TestKind::kTcpRr, ""),
         "/tmp", n > 128 ? "at most 128 bytes" : ""});
  std::string deep;
  while (deep.size() <= 3072) deep += "/" + std::string(250, 'd');
  for (const auto& [dir, limit] :
       std::vector<std::pair<std::string, std::string>>{{"/tmp", ""},
                                                        {"/tmp/", ""},
                                                        {"/var/tmp", ""},
                                                        {"/tmp/../etc", "not in normal form"},
                                                        {"/tmp/./x", "not in normal form"},
                                                        {"/var//tmp", "not in normal form"},
                                                        {"/tmp/..", "not in normal form"},
                                                        {"/" + std::string(255, 'd'), ""},
                                                        {"/" + std::string(256, 'd'), "NAME_MAX (255)"},
                                                        {deep, "at most 3072 bytes"},
                                                        {"tmp", "absolute directory"}})
    out.push_back(
        {"probe_dir " + dir.substr(0, 40), test_lines(Tool::kBuiltin, TestKind::kTcpRr, ""), dir, limit});
  return out;
}

std::string profile_text(const Value& v) {
  std::string tests = "[[test]]\n";
  if (v.test_lines.rfind("name = ", 0) != 0) tests += "name = \"t\"\n";
  tests += v.test_lines + "from = \"a\"\nto = \"b\"\nduration = \"10s\"\n";
  if (v.test_lines.find("duration =") != std::string::npos) tests.erase(tests.rfind("duration = \"10s\"\n"));
  std::string text = lt::two_hosts(tests);
  return text.replace(text.find("probe_dir = \"/tmp\""), 18, "probe_dir = \"" + v.probe_dir + "\"");
}

class LimitsProperty : public lt::FakeLabTest {
 protected:
  /// Opens a session on the fake pair (connect, lease, run directory in probe_dir)
  /// and builds every case's command lines as the gate does.
  void starts(const Value& v, const std::string& dir) {
    for (const char* h : {"a", "b"}) {
      lt::FakeHost& host = lab_.host(h);
      transport::Transport::FileInfo info;
      info.is_dir = true;
      info.mode = 01777;
      info.uid = 0;
      host.stats[dir] = info;
    }
    GateSession& s = open_session();
    for (const TestCase& c : cases_) {
      const profile::TestSpec& spec = *c.spec;
      if (spec.tool == Tool::kBuiltin) {
        const std::string path = s.probe(c.client, measure::probe_for(spec.kind));
        const std::string probes = path.substr(0, path.rfind('/'));
        EXPECT_EQ(probes.rfind(dir == "/" ? "/" : dir + "/", 0), 0u) << v.label << ": " << probes;
        EXPECT_NO_THROW(measure::probe_server_argv(spec, probes, "192.168.1.2", "192.168.1.1")) << v.label;
        EXPECT_NO_THROW(measure::probe_client_argv(spec, probes, "192.168.1.2", 5001)) << v.label;
      } else {
        tools::Endpoint ep{"192.168.1.2", "192.168.1.1", 5001};
        EXPECT_NO_THROW(tools::build_invocation(spec, ep)) << v.label;
      }
    }
    s.close();
    session_.reset();
  }
};

TEST_F(LimitsProperty, WhatValidateAcceptsStartsAndWhatItRefusesNamesTheLimit) {
  const std::regex at(R"(^.*profile\.toml:\d+:\d+: )");
  int accepted = 0, refused = 0;
  for (const Value& v : generate()) {
    const std::string text = profile_text(v);
    const lt::fs::path file = tmp_.path() / "profile.toml";
    std::ofstream(file) << text;
    const profile::LoadResult r = profile::load_from_string(text, file.string());
    if (r.profile) {
      ++accepted;
      EXPECT_EQ(v.limit, "") << v.label << ": validate accepted a value beyond the limit";
      profile_ = *r.profile;
      cases_ = expand_cases(profile_);
      ASSERT_EQ(cases_.size(), 1u) << v.label;
      std::string dir = v.probe_dir;
      if (dir.size() > 1 && dir.back() == '/') dir.pop_back();
      starts(v, dir);
      continue;
    }
    ++refused;
    EXPECT_NE(v.limit, "") << v.label << ": refused a value within every limit: " << r.errors.at(0).str();
    ASSERT_EQ(r.errors.size(), 1u) << v.label << ": " << r.errors.at(0).str() << " / "
                                   << r.errors.back().str();
    const std::string e = r.errors[0].str();
    EXPECT_TRUE(std::regex_search(e, at)) << v.label << ": no file:line:column in " << e;
    if (!v.limit.empty()) {
      EXPECT_THAT(e, ::testing::HasSubstr(v.limit)) << v.label;
    }
  }
  // Both sides of the property were exercised.
  EXPECT_GT(accepted, 30);
  EXPECT_GT(refused, 30);
}

}  // namespace
}  // namespace labgate::gate

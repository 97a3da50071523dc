// parse_probe_output on real outputs of the built-in probes (recorded on
// loopback into testdata/) and on every kind of broken output.
#include "labgate/measure/probe_output.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "labgate/measure/figures.h"
#include "util/source_file.h"

namespace labgate::measure {
namespace {

std::string probe_output_file(const std::string& name) {
  return test_files::source_file("harness/src/measure/testdata/" + name);
}

Measurement one(const std::string& name, const ParseContext& ctx = {}) {
  auto all = parse_probe_output(probe_output_file(name), ctx);
  EXPECT_EQ(all.size(), 1u);
  return all.at(0);
}

std::string error_of(std::string_view text, const ParseContext& ctx = {}) {
  try {
    parse_probe_output(text, ctx);
  } catch (const ProbeOutputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "accepted: " << text.substr(0, 200);
  return "";
}

TEST(ProbeOutput, PingpongTcpClosedLoop) {
  const Measurement m = one("pingpong-tcp.json", {"a", "b"});
  EXPECT_EQ(m.source, "builtin");
  EXPECT_EQ(m.kind, "tcp_rr");
  EXPECT_EQ(m.metric, Metric::kRoundTrip);
  EXPECT_EQ(m.host, "a");
  EXPECT_EQ(m.peer, "b");
  EXPECT_GT(m.histogram.count(), 0u);
  EXPECT_EQ(m.histogram.count(), m.received);
  EXPECT_EQ(m.sent, m.received);
  EXPECT_EQ(m.stat("dropped"), std::nullopt) << "TCP cannot drop a message: no drop count, not 0";
  EXPECT_GT(*m.stat("p50"), 0);
  EXPECT_DOUBLE_EQ(m.warmup_s, 0.1);
  EXPECT_NEAR(m.duration_s, 0.3, 0.05);
  EXPECT_FALSE(m.loss_fraction) << "TCP cannot lose a reply";
  EXPECT_EQ(m.parameters.at("size"), "64");
  EXPECT_EQ(m.parameters.at("mode"), "closed_loop");
  EXPECT_EQ(m.parameters.at("nodelay"), "true");
  EXPECT_FALSE(m.parameters.at("clock_source").empty());
  EXPECT_FALSE(m.parameters.at("timer_cost_ns").empty());
  EXPECT_FALSE(m.parameters.at("max_rss_kb").empty());
  ASSERT_EQ(m.series.size(), 3u) << "300 ms in 100 ms intervals";
  std::uint64_t in_series = 0;
  for (const Interval& i : m.series) in_series += i.count;
  EXPECT_EQ(in_series, m.histogram.count());
}

TEST(ProbeOutput, PingpongUdpPinned) {
  const Measurement m = one("pingpong-udp.json");
  EXPECT_EQ(m.kind, "udp_rr");
  EXPECT_EQ(m.parameters.at("cpu_asked"), "1");
  ASSERT_TRUE(m.loss_fraction);
  EXPECT_EQ(*m.loss_fraction, static_cast<double>(m.dropped) / static_cast<double>(m.sent));
  EXPECT_EQ(m.sent, m.received + m.dropped);
  EXPECT_EQ(m.reported.at("late"), 0);
}

TEST(ProbeOutput, PingpongOpenLoop) {
  const Measurement m = one("pingpong-tcp-open.json");
  EXPECT_EQ(m.parameters.at("mode"), "open_loop");
  EXPECT_EQ(m.parameters.at("rate_per_s"), "2000");
  EXPECT_EQ(m.sent, 600u) << "2000/s for 300 ms, on schedule";
}

TEST(ProbeOutput, ProbeThatCouldNotMeasureIsAProbeFailure) {
  try {
    parse_probe_output(probe_output_file("pingpong-udp-refused.json"));
    FAIL();
  } catch (const ProbeOutputError& e) {
    EXPECT_TRUE(e.probe_failed());
    EXPECT_NE(std::string(e.what()).find("pingpong client could not measure: the server at 127.0.0.1:"),
              std::string::npos)
        << e.what();
  }
}

TEST(ProbeOutput, StreamTcp) {
  const Measurement m = one("stream-tcp.json");
  EXPECT_EQ(m.kind, "tcp_stream");
  EXPECT_EQ(m.metric, Metric::kSendTime);
  EXPECT_EQ(m.histogram.count(), m.sent);
  EXPECT_EQ(m.received, m.sent);
  ASSERT_TRUE(m.throughput_bps);
  EXPECT_GT(*m.throughput_bps, 0);
  EXPECT_FALSE(m.loss_fraction);
}

TEST(ProbeOutput, StreamUdpLossIsTheReceiversCount) {
  const Measurement m = one("stream-udp.json");
  EXPECT_EQ(m.kind, "udp_stream");
  ASSERT_TRUE(m.loss_fraction);
  EXPECT_EQ(m.dropped, m.sent - m.received);
  EXPECT_NEAR(*m.loss_fraction, static_cast<double>(m.dropped) / static_cast<double>(m.sent), 1e-9);
  EXPECT_LE(*m.throughput_bps, m.reported.at("send_throughput_bps"));
}

TEST(ProbeOutput, JitterGivesOneMeasurementPerCpu) {
  const auto all = parse_probe_output(probe_output_file("jitter.json"), {"a", ""});
  ASSERT_EQ(all.size(), 2u);
  for (int cpu = 0; cpu < 2; ++cpu) {
    const Measurement& m = all[static_cast<std::size_t>(cpu)];
    EXPECT_EQ(m.kind, "jitter");
    EXPECT_EQ(m.metric, Metric::kClockGap);
    EXPECT_EQ(m.cpu, cpu);
    EXPECT_EQ(m.host, "a");
    EXPECT_GT(m.histogram.count(), 1000u);
    EXPECT_LE(m.events.size(), 3u);
    EXPECT_EQ(m.reported.at("over_threshold"),
              static_cast<double>(m.events.size()) + m.reported.at("events_not_listed"));
    for (const Event& e : m.events) {
      EXPECT_EQ(e.cpu, cpu);
      EXPECT_GT(e.value_ns, 10000u);
    }
  }
}

TEST(ProbeOutput, ServerLines) {
  std::istringstream lines(probe_output_file("pingpong-server-tcp.txt"));
  std::string listening, summary;
  std::getline(lines, listening);
  std::getline(lines, summary);
  const ListeningLine l = parse_listening_line(listening);
  EXPECT_EQ(l.probe, "pingpong");
  EXPECT_EQ(l.proto, "tcp");
  EXPECT_EQ(l.address, "127.0.0.1");
  EXPECT_GT(l.port, 0);
  EXPECT_NE(error_of(listening).find("server's 'listening' line"), std::string::npos);
  EXPECT_NE(error_of(summary).find("server's summary"), std::string::npos);
  EXPECT_THROW(parse_listening_line(summary), ProbeOutputError);
  EXPECT_THROW(parse_listening_line("listening 5000"), ProbeOutputError);
  std::istringstream udp(probe_output_file("stream-server-udp.txt"));
  std::getline(udp, listening);
  EXPECT_EQ(parse_listening_line(listening).udp_port, parse_listening_line(listening).port);
}

TEST(ProbeOutput, MalformedOutputIsAClearError) {
  const std::string good = probe_output_file("pingpong-tcp.json");
  EXPECT_NE(error_of("").find("not one JSON document"), std::string::npos);
  EXPECT_NE(error_of("pingpong: unknown option").find("it begins: \"pingpong: unknown option\""),
            std::string::npos);
  EXPECT_NE(error_of(good + good).find("not one JSON document"), std::string::npos);
  EXPECT_NE(error_of("[1,2]").find("not a JSON object"), std::string::npos);
  EXPECT_NE(error_of(good, ParseContext{"", "", 100}).find("over the limit of 100"), std::string::npos);
  auto j = nlohmann::json::parse(good);
  j["format"] = "labgate-probe-0";
  EXPECT_NE(error_of(j.dump()).find("output: format: is not \"labgate-probe-1\""), std::string::npos);
  j = nlohmann::json::parse(good);
  j.erase("counters");
  EXPECT_NE(error_of(j.dump()).find("pingpong output: counters: missing"), std::string::npos);
  j = nlohmann::json::parse(good);
  j["counters"]["measured"]["received"] = 1;
  EXPECT_NE(error_of(j.dump()).find("histogram: holds"), std::string::npos);
  j = nlohmann::json::parse(good);
  j["series"]["intervals"][0]["p99_ns"] = -5;
  EXPECT_NE(error_of(j.dump()).find("series.intervals[0].p99_ns"), std::string::npos);
  j = nlohmann::json::parse(good);
  j["kind"] = "udp_stream";
  EXPECT_NE(error_of(j.dump()).find("expected tcp_rr or udp_rr"), std::string::npos);
  j = nlohmann::json::parse(good);
  j["histogram"]["sub_bucket_bits"] = 7;
  EXPECT_NE(error_of(j.dump()).find("pingpong output: histogram JSON: histogram.sub_bucket_bits"), std::string::npos);
  j = nlohmann::json::parse(good);
  j["histogram"]["format"] = nlohmann::json::array();  // found by fuzzing: was an uncaught type_error
  EXPECT_NE(error_of(j.dump()).find("pingpong output: histogram JSON: histogram.format: expected a string, got array"), std::string::npos);
}

TEST(ProbeOutput, TheSeriesOriginIsReadWhenTheProbePrintsIt) {
  // Recorded before probes printed it: absent, so nothing is placed on its axis.
  EXPECT_FALSE(one("pingpong-udp.json").series_origin_ns);
  nlohmann::json j = nlohmann::json::parse(probe_output_file("pingpong-udp.json"));
  j["series"]["origin_ns"] = 4242000000000ull;
  EXPECT_EQ(parse_probe_output(j.dump()).at(0).series_origin_ns, 4242000000000ull);
}

TEST(ProbeOutput, SampleAccountingAndWhetherDropsAreCounted) {
  const Measurement udp = parse_probe_output(probe_output_file("pingpong-udp.json")).at(0);
  EXPECT_TRUE(udp.counts_drops);
  ASSERT_TRUE(udp.expectation);
  EXPECT_EQ(udp.expectation->expected, 7705);  // requests sent
  EXPECT_EQ(udp.expectation->held, 7705);      // round trips + counted drops
  EXPECT_FALSE(parse_probe_output(probe_output_file("pingpong-tcp.json")).at(0).counts_drops);
  // Replies really dropped (a real run on loopback, 2% of the server's replies
  // dropped by nft, 5 ms receive timeout): each counted drop is a request
  // accounted for, so the run holds every request it sent, and fails nothing.
  const Measurement lossy = parse_probe_output(probe_output_file("pingpong-udp-dropped.json")).at(0);
  EXPECT_TRUE(lossy.counts_drops);
  EXPECT_EQ(lossy.dropped, 12u);
  EXPECT_EQ(lossy.histogram.count(), 416u);
  EXPECT_EQ(lossy.stat("dropped"), 12);
  ASSERT_TRUE(lossy.expectation);
  EXPECT_EQ(lossy.expectation->expected, 428);  // requests sent
  EXPECT_EQ(lossy.expectation->held, 428);      // 416 round trips + 12 counted drops
  EXPECT_TRUE(judge_figures(lossy).accounting.pass) << judge_figures(lossy).accounting.message;
  // An open loop must also have kept its schedule: 2000/s for 0.3 s.
  const Measurement open = parse_probe_output(probe_output_file("pingpong-tcp-open.json")).at(0);
  ASSERT_TRUE(open.expectation);
  EXPECT_DOUBLE_EQ(open.expectation->expected, 600);
  EXPECT_EQ(open.expectation->held, 600);
  auto stalled = nlohmann::json::parse(probe_output_file("pingpong-tcp-open.json"));
  stalled["duration_s"] = 0.6;  // the same 600 sends, but over twice the time
  const Measurement late = parse_probe_output(stalled.dump()).at(0);
  EXPECT_DOUBLE_EQ(late.expectation->expected, 1200);
  EXPECT_THAT(late.expectation->shortfall_means, ::testing::HasSubstr("could not keep its send schedule"));
  const Measurement stream = parse_probe_output(probe_output_file("stream-udp.json")).at(0);
  EXPECT_TRUE(stream.counts_drops);
  EXPECT_EQ(stream.expectation->expected, 17871);
  EXPECT_EQ(stream.expectation->held, 17871);
  // A paced stream (--rate 2000/s for 0.3 s, a real run on a loaded VM) is held
  // to its schedule too, and says it fell behind before catching up.
  const Measurement paced = parse_probe_output(probe_output_file("stream-udp-open.json")).at(0);
  EXPECT_DOUBLE_EQ(paced.cooldown_s, 0.2) << "the client's --drain after its window is its cool-down";
  EXPECT_EQ(parse_probe_output(probe_output_file("stream-tcp.json")).at(0).cooldown_s, 0)
      << "tcp waits for no drain";
  ASSERT_TRUE(paced.expectation);
  EXPECT_NEAR(paced.expectation->expected, 601, 1);
  EXPECT_EQ(paced.expectation->held, 601);
  EXPECT_EQ(paced.reported.at("late_sends"), 47);
  EXPECT_THAT(paced.warnings, ::testing::Contains(::testing::HasSubstr("47 of 601 sends left a period or more behind")));
  auto starved = nlohmann::json::parse(probe_output_file("stream-udp-open.json"));
  starved["duration_s"] = 0.6;
  const Measurement behind = parse_probe_output(starved.dump()).at(0);
  EXPECT_DOUBLE_EQ(behind.expectation->expected, 1200);
  EXPECT_THAT(behind.expectation->shortfall_means, ::testing::HasSubstr("could not keep its send schedule"));
  const Measurement jitter = parse_probe_output(probe_output_file("jitter.json")).at(0);
  EXPECT_FALSE(jitter.counts_drops);
  EXPECT_EQ(jitter.expectation->expected, 1139348);
  EXPECT_EQ(jitter.expectation->held, 1139348);
  EXPECT_THAT(jitter.expectation->basis, ::testing::HasSubstr("its gaps add up to 0.259 s of the 0.300 s"));
}

TEST(ProbeOutput, ListeningLineWithAnEventOfTheWrongTypeIsAClearError) {
  // Found by fuzzing: json's value() threw type_error for a numeric "event".
  EXPECT_THROW(parse_listening_line(R"({"event":7,"probe":"pingpong","port":1})"), ProbeOutputError);
  EXPECT_THROW(parse_listening_line(R"({"event":["listening"]})"), ProbeOutputError);
}

TEST(ProbeOutput, TruncatedAnywhereIsAnErrorNeverACrash) {
  for (const char* name : {"pingpong-udp.json", "stream-udp.json", "jitter.json"}) {
    const std::string good = probe_output_file(name);
    for (std::size_t cut = 0; cut < good.size() - 2; cut += 7)
      EXPECT_THROW(parse_probe_output(std::string_view(good).substr(0, cut)), ProbeOutputError)
          << name << " @" << cut;
  }
}

}  // namespace
}  // namespace labgate::measure

// netperf's honesty, on crafted outputs shaped like real netperf 2.7.1 `-k` runs
// with a `-v 2` histogram (tests/fixtures/tools/netperf/crafted-*.txt): a stalled
// UDP_RR (replies lost: no retransmission), one where everything was dropped, and
// every "not measured" marker on every key.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "labgate/tools/parsers.h"
#include "tools/parse_test_util.h"

namespace labgate::tools {
namespace {

using ::testing::HasSubstr;

measure::Measurement parse_text(const std::string& text) { return parse_netperf(text_from_string("run.txt", text)); }

std::string warnings_of(const measure::Measurement& m) { return ::testing::PrintToString(m.warnings); }

TEST(NetperfAccounting, StalledUdpRrIsASampleShortfallNotAPass) {
  // Traffic dropped from 1 s into a 3 s UDP_RR: the first lost datagram stalls the
  // loop for good. MEAN_LATENCY (the histogram's) is 23.11 us, RT_LATENCY 69.07 us.
  const measure::Measurement m = parse_text(test_util::fixture_text("netperf", "crafted-udp-rr-stalled.txt"));
  ASSERT_TRUE(m.expectation);
  EXPECT_NEAR(m.expectation->expected, 3.0 / 23.11e-6, 1.0);  // ~129,814 transactions had time to run
  EXPECT_NEAR(m.expectation->held, 43435, 1.0);               // 14478.333/s x 3.00 s = HIST_TOTAL
  EXPECT_THAT(m.expectation->basis, HasSubstr("3.00 s at a 23.11 us mean"));
  EXPECT_THAT(m.expectation->basis, HasSubstr("RT_LATENCY 69.07 us"));
  EXPECT_THAT(m.expectation->shortfall_means, HasSubstr("netperf UDP_RR has no retransmission"));
  EXPECT_THAT(m.expectation->shortfall_means, HasSubstr("replies were lost"));
  // netperf cannot count drops: "dropped" is not measured, never 0.
  EXPECT_FALSE(m.counts_drops);
  EXPECT_FALSE(m.stat("dropped"));
  EXPECT_FALSE(m.loss_fraction);
  // Its own figures, not RT_LATENCY, are the mean.
  EXPECT_DOUBLE_EQ(m.reported.at("mean"), 23110);
}

TEST(NetperfAccounting, CleanUdpRrAccountsForItsTransactions) {
  const measure::Measurement m = parse_text(test_util::fixture_text("netperf", "crafted-udp-rr-clean.txt"));
  ASSERT_TRUE(m.expectation);
  EXPECT_NEAR(m.expectation->expected, 3.0 / 23.11e-6, 1.0);
  EXPECT_NEAR(m.expectation->held, 129245, 1.0);
  EXPECT_LT(1 - m.expectation->held / m.expectation->expected, 0.01);
  EXPECT_FALSE(m.counts_drops);
}

TEST(NetperfAccounting, HistogramCoveringFewerThanTheTransactionsIsAShortfall) {
  std::string text = test_util::fixture_text("netperf", "crafted-udp-rr-clean.txt");
  // Same transactions, but the histogram holds only 17,232 of them.
  text.replace(text.find("112013"), 6, "000000");
  text.replace(text.find("HIST_TOTAL:      129245"), 23, "HIST_TOTAL:      17232");
  const measure::Measurement m = parse_text(text);
  ASSERT_TRUE(m.expectation);
  EXPECT_NEAR(m.expectation->held, 17232, 1.0);
  EXPECT_THAT(m.expectation->basis, HasSubstr("HIST_TOTAL 17,232"));
}

TEST(NetperfAccounting, AllDroppedIsZeroSamplesNeverFiguresOfZero) {
  const measure::Measurement m =
      parse_text(test_util::fixture_text("netperf", "crafted-udp-rr-all-dropped.txt"));
  for (const char* s : {"p50", "p90", "p99", "max", "min", "mean", "stddev"}) {
    EXPECT_EQ(m.reported.count(s), 0u) << s;
    EXPECT_FALSE(m.stat(s)) << s << " must not be a figure of 0";
  }
  EXPECT_EQ(m.histogram.count(), 0u);
  ASSERT_TRUE(m.expectation);
  EXPECT_EQ(m.expectation->held, 0);
  EXPECT_GE(m.expectation->expected, 1);
  EXPECT_THAT(warnings_of(m), HasSubstr("recorded no transaction"));
  EXPECT_THAT(warnings_of(m), HasSubstr("RT_LATENCY=inf is netperf's 'not measured' marker"));
  EXPECT_FALSE(m.counts_drops);
}

TEST(NetperfAccounting, DecadeHistogramDoesNotClaimMinOrMeanItDoesNotKnow) {
  const measure::Measurement m = parse_text(test_util::fixture_text("netperf", "crafted-udp-rr-clean.txt"));
  EXPECT_THAT(m.parameters.at("histogram"), HasSubstr("netperf buckets (decade-wide)"));
  // netperf's own MIN/MEAN/MAX are the figures; the rebuilt histogram's min is netperf's MIN.
  EXPECT_DOUBLE_EQ(*m.stat("min"), 14000);
  EXPECT_DOUBLE_EQ(*m.stat("mean"), 23110);
  EXPECT_DOUBLE_EQ(*m.stat("max"), 412000);
  EXPECT_EQ(m.histogram.min(), 14000u);
  EXPECT_EQ(m.histogram.max(), 412000u);
}

TEST(NetperfAccounting, UdpStreamCountsDropsAndAccountsForItsSends) {
  const measure::Measurement m = parse_text(test_util::fixture_text("netperf", "crafted-udp-stream.txt"));
  EXPECT_TRUE(m.counts_drops);
  EXPECT_EQ(m.sent, 660000u);
  EXPECT_EQ(m.received, 659998u);
  EXPECT_EQ(m.dropped, 2u);
  ASSERT_TRUE(m.expectation);
  EXPECT_EQ(m.expectation->expected, 660000);
  EXPECT_EQ(m.expectation->held, 660000);
}

/// Every value a netperf key holds may be a "not measured" marker.
const char* const kMarkers[] = {"-2147483648", "-1", "-1.000", "inf", "-nan", "nan", "18446744071562067968"};

void expect_no_marker_became_a_number(const measure::Measurement& m) {
  for (const auto& [k, v] : m.reported) {
    EXPECT_TRUE(std::isfinite(v)) << k;
    EXPECT_GE(v, 0) << k;
    EXPECT_LT(v, 1e15) << k;
  }
  if (m.throughput_bps) {
    EXPECT_GE(*m.throughput_bps, 0);
  }
  if (m.loss_fraction) {
    EXPECT_TRUE(*m.loss_fraction >= 0 && *m.loss_fraction <= 1);
  }
  EXPECT_LT(m.sent, 1'000'000'000'000u);
  EXPECT_LT(m.received, 1'000'000'000'000u);
  EXPECT_TRUE(std::isfinite(m.duration_s) && m.duration_s >= 0);
  EXPECT_LT(m.histogram.max(), 1'000'000'000'000u);
  if (m.expectation) {
    EXPECT_TRUE(std::isfinite(m.expectation->expected) && m.expectation->expected >= 0);
    EXPECT_TRUE(std::isfinite(m.expectation->held) && m.expectation->held >= 0);
  }
}

TEST(NetperfAccounting, EveryMarkerOnEveryKeyIsNotMeasured) {
  for (const char* file : {"crafted-udp-rr-clean.txt", "crafted-udp-stream.txt"}) {
    const std::string base = test_util::fixture_text("netperf", file);
    std::size_t at = 0;
    while ((at = base.find('\n', at)) != std::string::npos) {
      ++at;
      const std::size_t eq = base.find('=', at), end = base.find('\n', at);
      if (eq == std::string::npos || eq > end) continue;
      const std::string key = base.substr(at, eq - at);
      if (key == "THROUGHPUT_UNITS") continue;  // a unit, not a figure
      for (const char* marker : kMarkers) {
        SCOPED_TRACE(std::string(file) + ": " + key + "=" + marker);
        std::string text = base;
        text.replace(eq + 1, end - eq - 1, marker);
        const measure::Measurement m = parse_text(text);
        EXPECT_THAT(warnings_of(m), HasSubstr(key + "=" + marker + " is netperf's 'not measured' marker"));
        EXPECT_THAT(m.parameters.at("netperf." + key), HasSubstr("not measured"));
        expect_no_marker_became_a_number(m);
        if (key.ends_with("_LATENCY") && key != "RT_LATENCY") {
          static const std::map<std::string, std::string> stat = {
              {"P50_LATENCY", "p50"},  {"P90_LATENCY", "p90"},       {"P99_LATENCY", "p99"},
              {"MIN_LATENCY", "min"},  {"MAX_LATENCY", "max"},       {"STDDEV_LATENCY", "stddev"},
              {"MEAN_LATENCY", "mean"}};
          if (key == "MEAN_LATENCY" && m.reported.count("mean")) {
            EXPECT_DOUBLE_EQ(m.reported.at("mean"), 23212) << "only RT_LATENCY may stand in for the mean";
          } else {
            EXPECT_EQ(m.reported.count(stat.at(key)), 0u);
          }
        }
        if (key == "THROUGHPUT" && std::string(file).find("stream") != std::string::npos) {
          EXPECT_FALSE(m.throughput_bps);
        }
        if (key == "ELAPSED_TIME") {
          EXPECT_EQ(m.duration_s, 0);
          if (std::string(file).find("_rr") != std::string::npos) {
            EXPECT_FALSE(m.expectation) << "an RR expectation needs the elapsed time";
          }
        }
        if (key == "LOCAL_SEND_CALLS" || key == "REMOTE_RECV_CALLS") {
          EXPECT_FALSE(m.counts_drops);
          EXPECT_FALSE(m.loss_fraction);
          EXPECT_FALSE(m.stat("dropped"));
        }
      }
    }
  }
}

}  // namespace
}  // namespace labgate::tools

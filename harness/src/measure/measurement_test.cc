// Measurement: statistics by budget name from histogram or reported values, the
// worst interval, and the JSON form (exact round trip, errors naming the field).
#include "labgate/measure/measurement.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace labgate::measure {
namespace {

Measurement with_samples_1_to_1000() {
  Measurement m;
  for (std::uint64_t v = 1; v <= 1000; ++v) m.histogram.record(v);
  return m;
}

TEST(MeasurementStat, LatencyStatisticsComeFromTheHistogram) {
  const Measurement m = with_samples_1_to_1000();
  EXPECT_EQ(m.stat("p50"), 500);
  EXPECT_EQ(m.stat("p90"), 900);
  EXPECT_EQ(m.stat("p99"), 990);
  EXPECT_EQ(m.stat("p99_9"), 999);
  EXPECT_EQ(m.stat("p99_99"), 1000);
  EXPECT_EQ(m.stat("max"), 1000);
  EXPECT_EQ(m.stat("min"), 1);
  EXPECT_DOUBLE_EQ(*m.stat("mean"), 500.5);
  EXPECT_NEAR(*m.stat("stddev"), 288.67, 0.01);
  EXPECT_EQ(m.stat("samples"), 1000);
}

TEST(MeasurementStat, HistogramWinsOverReportedExtrasWhenItHasSamples) {
  Measurement m = with_samples_1_to_1000();
  m.reported["late"] = 5;
  EXPECT_EQ(m.stat("p99"), 990);
}

TEST(MeasurementStat, ToolLatencyFiguresWinOverItsRebuiltHistogram) {
  // netperf: -k figures plus a decade histogram loaded at bucket edges; P50 not measured.
  Measurement m = with_samples_1_to_1000();
  m.reported["p99"] = 5;
  EXPECT_EQ(m.stat("p99"), 5);
  EXPECT_EQ(m.stat("p50"), std::nullopt) << "what the tool could not measure stays absent";
}

TEST(MeasurementStat, EmptyHistogramFallsBackToReported) {
  Measurement m;
  m.reported["p99"] = 136000;
  m.reported["max"] = 1096000;
  EXPECT_EQ(m.stat("p99"), 136000);
  EXPECT_EQ(m.stat("max"), 1096000);
  EXPECT_EQ(m.stat("p50"), std::nullopt) << "not reported and no histogram: unknown, never 0";
  EXPECT_EQ(m.stat("samples"), std::nullopt);
}

TEST(MeasurementStat, DroppedIsUnknownWhenNothingWasCounted) {
  Measurement m;
  EXPECT_EQ(m.stat("dropped"), std::nullopt);
  m.reported["dropped"] = 3;
  EXPECT_EQ(m.stat("dropped"), 3);
  m.sent = 100;
  m.received = 100;
  EXPECT_EQ(m.stat("dropped"), 3) << "counters that do not count drops are not a drop count";
  m.counts_drops = true;
  EXPECT_EQ(m.stat("dropped"), 0) << "counters win where drops are counted";
  m.received = 97;
  m.dropped = 3;
  EXPECT_EQ(m.stat("dropped"), 3);
}

TEST(MeasurementStat, CounterBudgetsReadTheirReportedKey) {
  Measurement m;
  EXPECT_EQ(m.stat("max_retransmits"), std::nullopt) << "no snapshot taken: unknown, never 0";
  m.reported["retransmits"] = 4;
  m.reported["rx_drops"] = 0;
  EXPECT_EQ(m.stat("max_retransmits"), 4);
  EXPECT_EQ(m.stat("max_rx_drops"), 0);
  EXPECT_EQ(m.stat("max_rx_errors"), std::nullopt);
  m.reported["mdev"] = 1500;
  EXPECT_EQ(m.stat("mdev"), 1500);
}

TEST(MeasurementStat, ThroughputAndLossAreUnknownUnlessSet) {
  Measurement m;
  EXPECT_EQ(m.stat("min_throughput"), std::nullopt);
  EXPECT_EQ(m.stat("max_loss"), std::nullopt);
  m.throughput_bps = 9.4e8;
  m.loss_fraction = 0.0;
  EXPECT_EQ(m.stat("min_throughput"), 9.4e8);
  EXPECT_EQ(m.stat("max_loss"), 0.0) << "a measured zero loss is known";
}

TEST(MeasurementStat, UnknownNameIsNullopt) { EXPECT_EQ(with_samples_1_to_1000().stat("p42"), std::nullopt); }

TEST(MeasurementIntervalOfMax, PicksTheWorstNonEmptyInterval) {
  Measurement m;
  EXPECT_EQ(m.interval_of_max(), std::nullopt);
  m.series = {{0, 1, 10, 5, 9, 20}, {1, 1, 0, 0, 0, 0}, {2, 1, 10, 5, 9, 12000}, {3, 1, 10, 5, 9, 30}};
  ASSERT_TRUE(m.interval_of_max());
  EXPECT_EQ(m.interval_of_max()->start_s, 2);
  m.series = {{0, 1, 0, 0, 0, 0}};
  EXPECT_EQ(m.interval_of_max(), std::nullopt) << "an interval without samples has no max";
}

Measurement full() {
  Measurement m = with_samples_1_to_1000();
  m.source = "builtin";
  m.kind = "udp_rr";
  m.metric = Metric::kRoundTrip;
  m.host = "a";
  m.peer = "b";
  m.cpu = 2;
  m.reported = {{"late", 1}, {"p99", 0.5}};
  m.series = {{0, 1, 500, 250, 495, 500}, {1, 0.25, 500, 750, 995, 1000}};
  m.events = {{0.125, 15000, 2}};
  m.duration_s = 1.25;
  m.warmup_s = 0.1;
  m.cooldown_s = 0.05;
  m.series_origin_ns = 123456789012345ull;
  m.tool_time = ToolTime{2.0, 0.125, "sockperf's own lines"};
  m.sent = 1003;
  m.received = 1000;
  m.dropped = 3;
  m.duplicated = 1;
  m.out_of_order = 2;
  m.throughput_bps = 1.0 / 3.0;
  m.loss_fraction = 3.0 / 1003.0;
  m.parameters = {{"size", "64"}, {"clock_source", "tsc"}};
  m.warnings = {"asked for CPU 2 but ran on CPU 3"};
  return m;
}

TEST(MeasurementJson, RoundTripsExactly) {
  const Measurement a = full();
  const Measurement b = measurement_from_json(nlohmann::json::parse(to_json(a).dump()));
  EXPECT_EQ(to_json(a), to_json(b));
  EXPECT_EQ(b.histogram, a.histogram);
  EXPECT_EQ(b.throughput_bps, a.throughput_bps);
  EXPECT_EQ(b.loss_fraction, a.loss_fraction);
  EXPECT_EQ(b.events.at(0).cpu, 2);
  EXPECT_EQ(b.series.at(1).length_s, 0.25);
  EXPECT_EQ(b.cooldown_s, 0.05);
  EXPECT_EQ(b.series_origin_ns, 123456789012345ull);
  ASSERT_TRUE(b.tool_time);
  EXPECT_EQ(b.tool_time->startup_s, 2.0);
  EXPECT_EQ(b.tool_time->wrapup_s, 0.125);
}

TEST(MeasurementJson, AbsentOptionalsStayAbsent) {
  Measurement a;
  a.source = "netperf";
  const Measurement b = measurement_from_json(to_json(a));
  EXPECT_FALSE(b.throughput_bps);
  EXPECT_FALSE(b.loss_fraction);
  EXPECT_FALSE(b.tool_time);
  EXPECT_FALSE(b.series_origin_ns);
  EXPECT_FALSE(to_json(a).contains("cooldown_s")) << "run.json of the built-in probes stays as it was";
}

void expect_error(nlohmann::json j, const std::string& needle) {
  try {
    measurement_from_json(j);
    FAIL() << "accepted: " << j.dump();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

TEST(MeasurementJson, ErrorsNameTheField) {
  const nlohmann::json good = to_json(full());
  expect_error(nlohmann::json::array(), "document: expected an object, got array");
  auto j = good;
  j["format"] = "labgate-measurement-0";
  expect_error(j, "format");
  j = good;
  j.erase("sent");
  expect_error(j, "sent: missing");
  j = good;
  j["sent"] = -1;
  expect_error(j, "sent: expected a non-negative integer");
  j = good;
  j["metric"] = "round-trip";
  expect_error(j, "metric: is not one of");
  j = good;
  j["series"][1]["max_ns"] = "big";
  expect_error(j, "series[1].max_ns");
  j = good;
  j["parameters"]["size"] = 64;
  expect_error(j, "parameters.size");
  j = good;
  j["histogram"]["total"] = 5;
  expect_error(j, "histogram JSON");
}

TEST(MeasurementJson, EveryMemberOfTheWrongTypeIsNamedNeverATypeError) {
  const nlohmann::json good = to_json(full());
  for (const auto& [key, value] : good.items()) {
    for (const nlohmann::json& w : {nlohmann::json("x"), nlohmann::json(-1), nlohmann::json::array(),
                                    nlohmann::json(true)}) {
      if (w.type() == value.type() || (w.is_number() && value.is_number_float())) continue;
      auto j = good;
      j[key] = w;
      SCOPED_TRACE(key + " = " + w.dump());
      try {
        (void)measurement_from_json(j);
        if (!(w.is_array() && (key == "series" || key == "events" || key == "warnings"))) ADD_FAILURE() << "accepted";
      } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find(key), std::string::npos) << e.what();
      } catch (const std::exception& e) {
        ADD_FAILURE() << "not an invalid_argument: " << e.what();
      }
    }
  }
}

TEST(Metric, SpellingsRoundTrip) {
  for (Metric m : {Metric::kRoundTrip, Metric::kSendTime, Metric::kClockGap})
    EXPECT_EQ(parse_metric(to_string(m)), m);
  EXPECT_EQ(parse_metric("rtt"), std::nullopt);
}

}  // namespace
}  // namespace labgate::measure

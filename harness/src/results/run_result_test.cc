// Tests of the run-results model: JSON round trip, derived fields, and errors
// that name the JSON path of a bad field.
#include "labgate/results/run_result.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <random>
#include <stdexcept>

#include "labgate/stats/histogram.h"

namespace labgate::results {
namespace {

using ::testing::HasSubstr;

RunResult sample_run() {
  RunResult r;
  r.run_id = "20240501-120000-nightly";
  r.profile_path = "profiles/lab.toml";
  r.lab_name = "lab";
  r.suffix = "nightly";
  r.hosts = {{"a", "198.18.0.1", "198.19.0.1", {}}, {"b", "198.18.0.2", "198.19.0.2", {}}};
  r.start_time = parse_time("2024-05-01T12:00:00.250Z");
  r.end_time = parse_time("2024-05-01T12:05:00Z");
  r.labgate_version = "0.1.0";
  r.exit_code = 1;
  r.checks.push_back({"b", "sysctl/net.ipv4.tcp_sack", "0", "1", "/proc/sys/net/ipv4/tcp_sack",
                      CheckVerdict::kFail, "host b: /proc/sys/net/ipv4/tcp_sack is 1, profile wants 0",
                      "sysctl -w net.ipv4.tcp_sack=0"});
  r.checks.push_back({"a", "bios/Intel_Hyperthreading", "Disabled", "", "conrep -s",
                      CheckVerdict::kNotCheckable, "conrep is not installed on host a", ""});
  TestRecord t;
  t.name = "tcp_rr_64";
  t.pair = "a->b";
  t.kind = "tcp_rr";
  t.tool = "builtin";
  t.metric = "round-trip time";
  t.verdict = TestVerdict::kFail;
  t.budget.push_back({"p99", 151000.0, 140000.0, "ns", -0.0786, false, "p99 151 us > 140 us"});
  t.budget.push_back({"dropped", std::nullopt, 0.0, "count", std::nullopt, false, "missing statistic"});
  t.figures.put({"p99", 151000.0, "ns", stats::FigureSource::kHistogram, "histogram of 1000000 round trips"});
  t.figures.put({"samples", 1e6, "count", stats::FigureSource::kHistogram, "samples in the histogram"});
  t.accounting = {true, 1.001e6, 1e6, 0.01, true, "samples: 1000000 held, ~1001000 expected"};
  t.started = results::parse_time("2024-05-01T12:00:01.000Z");
  stats::Histogram h;
  std::mt19937_64 rng(7);
  std::lognormal_distribution<double> d(11.0, 0.3);
  for (int i = 0; i < 10000; ++i) h.record(static_cast<std::uint64_t>(d(rng)));
  t.measurement = {{"histogram", h.to_json()}, {"throughput_bps", nullptr}};
  t.failure = "p99 151 us > 140 us";
  t.conformance = Conformance::kNo;
  t.duration_s = 12.5;
  t.raw_files = {"tests/tcp_rr_64/a-to-b/client.out"};
  r.tests.push_back(t);
  r.warnings = {"clocksource on b is hpet"};
  r.overrides = {{"duration", "2s", {{"tcp_rr_64", "\"120s\" at lab.toml:40:12"}}}};
  return r;
}

TEST(RunResult, RoundTripsThroughJson) {
  const RunResult r = sample_run();
  const RunResult back = run_result_from_json(nlohmann::json::parse(to_json(r).dump()));
  EXPECT_EQ(to_json(back), to_json(r));
  EXPECT_EQ(back.start_time, r.start_time);
  ASSERT_EQ(back.tests.size(), 1u);
  EXPECT_FALSE(back.tests[0].budget[1].observed.has_value());
  ASSERT_EQ(back.overrides.size(), 1u);  // labgate run --duration 2s, and what it replaced
  EXPECT_EQ(back.overrides[0].replaced.at(0).was, "\"120s\" at lab.toml:40:12");
  EXPECT_EQ(stats::Histogram::from_json(back.tests[0].measurement["histogram"]),
            stats::Histogram::from_json(r.tests[0].measurement["histogram"]));
}

TEST(RunResult, DerivesVerdictAndConformance) {
  RunResult r = sample_run();
  EXPECT_EQ(r.verdict(), "failed");
  EXPECT_EQ(r.conformance(), Conformance::kNo);
  EXPECT_EQ(r.conformance_why(), "1 of 2 precondition rules failed (first: b/sysctl/net.ipv4.tcp_sack)");
  r.checks[0].verdict = CheckVerdict::kPass;
  // A rule that could not be checked is not a held rule: the system is not known to conform.
  EXPECT_EQ(r.conformance(), Conformance::kNotChecked);
  EXPECT_THAT(r.conformance_why(), ::testing::HasSubstr("1 of 2 precondition rules could not be checked"));
  r.checks[1].verdict = CheckVerdict::kPass;
  EXPECT_EQ(r.conformance(), Conformance::kYes);
  EXPECT_EQ(r.conformance_why(), "every precondition held (2 rules)");
  EXPECT_EQ(to_json(r)["conforming"], "yes");
  r.exit_code.reset();
  EXPECT_EQ(r.verdict(), "incomplete");
  r.exit_code = 3;
  EXPECT_EQ(r.verdict(), "could not run");
  EXPECT_EQ(to_json(r)["verdict"], "could not run");
}

TEST(RunResult, ConformanceIsNotCheckedWithoutChecksOrWithAReason) {
  RunResult r;
  EXPECT_EQ(r.conformance(), Conformance::kNotChecked) << "no check at all is never 'conforming'";
  EXPECT_EQ(r.conformance_why(), "no precondition was checked");
  r.checks.push_back({"a", "sysctl/x", "0", "0", "/proc", CheckVerdict::kPass, "", ""});
  r.not_checked_why = "not checked: -L latency left the preconditions out";
  EXPECT_EQ(r.conformance(), Conformance::kNotChecked);
  EXPECT_EQ(r.conformance_why(), r.not_checked_why);
  const RunResult back = run_result_from_json(to_json(r));
  EXPECT_EQ(back.not_checked_why, r.not_checked_why);
}

TEST(RunResult, ReadsTheOlderFormatWithoutInventingFigures) {
  nlohmann::json j = to_json(sample_run());
  j["format"] = kRunFormatV1;
  j["tests"][0]["figures"] = {{"p99_us", 151.0}};
  j["tests"][0]["conforming"] = false;
  const RunResult back = run_result_from_json(j);
  EXPECT_TRUE(back.tests[0].figures.empty());
  EXPECT_EQ(back.tests[0].conformance, Conformance::kNo);
}

// The suite is the kind's registration's, set by the gate (gate/records.cc); a
// record given none is not guessed into one from its kind's name.
TEST(TestRecord, SuiteIsTheOneGivenNeverGuessedFromTheKind) {
  TestRecord t;
  t.kind = "udp_rr";
  EXPECT_EQ(t.suite_name(), "Tests");
  t.suite = "Custom";
  EXPECT_EQ(t.suite_name(), "Custom");
  RunResult run;
  run.tests = {t};
  const RunResult back = run_result_from_json(to_json(run));
  EXPECT_EQ(back.tests.at(0).suite_name(), "Custom");
}

TEST(Time, FormatsAndParsesUtcMilliseconds) {
  const auto t = parse_time("2024-02-29T23:59:59.007Z");
  EXPECT_EQ(format_time(t), "2024-02-29T23:59:59.007Z");
  EXPECT_EQ(format_time(parse_time("1970-01-01T00:00:00Z")), "1970-01-01T00:00:00.000Z");
  EXPECT_EQ(format_time(parse_time("2024-01-01T00:00:00.5Z")), "2024-01-01T00:00:00.500Z");
  EXPECT_THROW(parse_time("2024-01-01 00:00:00"), std::invalid_argument);
  EXPECT_THROW(parse_time("2024-01-01T00:00:00+02:00"), std::invalid_argument);
  EXPECT_THROW(parse_time("2024-13-01T00:00:00Z"), std::invalid_argument);
  EXPECT_THROW(parse_time("2024-01-01T00:00:00.Z"), std::invalid_argument);
}

std::string error_of(const nlohmann::json& j) {
  try {
    run_result_from_json(j);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "no error";
}

TEST(RunResultJson, ErrorsNameThePathAtFault) {
  nlohmann::json j = to_json(sample_run());
  j["tests"][0]["budget"][0]["limit"] = "140us";
  EXPECT_THAT(error_of(j), HasSubstr("tests[0].budget[0].limit: expected a number, got string"));

  j = to_json(sample_run());
  j["checks"][1]["verdict"] = "skipped";
  EXPECT_THAT(error_of(j), HasSubstr("checks[1].verdict: expected pass, fail or not_checkable"));

  j = to_json(sample_run());
  j["tests"][0].erase("pair");
  EXPECT_THAT(error_of(j), HasSubstr("tests[0].pair: missing"));

  j = to_json(sample_run());
  j["format"] = "labgate-run-0";
  EXPECT_THAT(error_of(j), HasSubstr("format: expected \"labgate-run-2\" (or the older \"labgate-run-1\")"));

  j = to_json(sample_run());
  j["tests"][0]["figures"][0]["value"] = true;
  EXPECT_THAT(error_of(j), HasSubstr("tests[0].figures.p99.value: expected a finite number, got true"));

  j = to_json(sample_run());
  j["start"] = "yesterday";
  EXPECT_THAT(error_of(j), HasSubstr("'yesterday' is not an ISO 8601"));

  EXPECT_THAT(error_of(nlohmann::json::array()), HasSubstr("expected an object, got array"));
}

TEST(RunResultJson, AcceptsARunStillInProgress) {
  RunResult r = sample_run();
  r.end_time.reset();
  r.exit_code.reset();
  r.tests[0].measurement = nullptr;
  const RunResult back = run_result_from_json(to_json(r));
  EXPECT_FALSE(back.end_time.has_value());
  EXPECT_FALSE(back.exit_code.has_value());
  EXPECT_TRUE(back.tests[0].measurement.is_null());
}

TEST(RunResultJson, StartsAndMeasuredDurationsOfRecordsAreOptional) {
  RunResult r = sample_run();
  const auto at = parse_time("2024-05-01T12:01:02.250Z");
  r.checks[0].started = at;
  r.checks[0].duration_s = 0.125;
  r.tests[0].started = at;
  const nlohmann::json j = to_json(r);
  EXPECT_EQ(j["checks"][0]["started"], "2024-05-01T12:01:02.250Z");
  EXPECT_EQ(j["checks"][0]["duration_s"], 0.125);
  EXPECT_EQ(j["tests"][0]["started"], "2024-05-01T12:01:02.250Z");
  const RunResult back = run_result_from_json(j);
  EXPECT_EQ(back.checks[0].started, at);
  EXPECT_EQ(back.checks[0].duration_s, 0.125);
  EXPECT_EQ(back.tests[0].started, at);
  // A run.json from before these fields still reads, without them.
  nlohmann::json old = j;
  old["checks"][0].erase("started");
  old["checks"][0].erase("duration_s");
  old["tests"][0].erase("started");
  const RunResult plain = run_result_from_json(old);
  EXPECT_FALSE(plain.checks[0].started.has_value());
  EXPECT_FALSE(plain.tests[0].started.has_value());
  old["tests"][0]["started"] = "yesterday";
  EXPECT_THROW(run_result_from_json(old), std::invalid_argument);
}

TEST(RunResultJson, AnExplainedTailIsKeptAndReadBackAndNothingIsWrittenWithoutOne) {
  RunResult r = sample_run();
  r.tests[0].tail = {{"top", "2 of 2 outliers: nothing on either host: wire or NIC"}, {"unexplained", 0}};
  const nlohmann::json j = to_json(r);
  EXPECT_EQ(j["tests"][0]["tail"]["unexplained"], 0);
  EXPECT_EQ(run_result_from_json(j).tests[0].tail, r.tests[0].tail);
  EXPECT_FALSE(to_json(sample_run())["tests"][0].contains("tail"));
  nlohmann::json bad = j;
  bad["tests"][0]["tail"] = "why";
  try {
    run_result_from_json(bad);
    ADD_FAILURE() << "a tail that is not an object was read";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("tests[0].tail"), std::string::npos) << e.what();
  }
}

TEST(RunResultJson, AMeshCaseKeepsItsScheduleAndRound) {
  RunResult r = sample_run();
  r.tests[0].mesh_schedule = "disjoint";
  r.tests[0].round = 4;
  const nlohmann::json j = to_json(r);
  EXPECT_EQ(j["tests"][0]["mesh_schedule"], "disjoint");
  EXPECT_EQ(j["tests"][0]["round"], 4);
  const RunResult back = run_result_from_json(j);
  EXPECT_EQ(back.tests[0].mesh_schedule, "disjoint");
  EXPECT_EQ(back.tests[0].round, 4);
  // One pair (not a mesh) writes neither.
  const nlohmann::json plain = to_json(sample_run());
  EXPECT_FALSE(plain["tests"][0].contains("mesh_schedule"));
  EXPECT_FALSE(plain["tests"][0].contains("round"));
}

}  // namespace
}  // namespace labgate::results

namespace labgate::results {
namespace {

TEST(RunResultJson, ImportedFromIsKeptOnlyForImportedRuns) {
  RunResult r = sample_run();
  EXPECT_FALSE(to_json(r).contains("imported")) << "a measured run's run.json is unchanged";
  r.imported = ImportedFrom{"netperf", "/logs/2019/tcp_rr.txt", std::string(64, 'a'),
                            "the file's modification time (netperf printed no time)"};
  const nlohmann::json j = to_json(r);
  EXPECT_EQ(j["imported"]["tool"], "netperf");
  EXPECT_EQ(j["imported"]["file"], "/logs/2019/tcp_rr.txt");
  const RunResult back = run_result_from_json(j);
  ASSERT_TRUE(back.imported.has_value());
  EXPECT_EQ(back.imported->sha256, std::string(64, 'a'));
  EXPECT_EQ(back.imported->time_source, r.imported->time_source);
  nlohmann::json bad = j;
  bad["imported"]["tool"] = 7;
  EXPECT_THAT([&] { run_result_from_json(bad); },
              ::testing::ThrowsMessage<std::invalid_argument>(HasSubstr("imported.tool")));
}

}  // namespace
}  // namespace labgate::results

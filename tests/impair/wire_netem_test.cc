// Unit tests of the wire's netem model, queue and counters: tc's syntax, netem's
// rolls at their rates, delay/jitter/reorder/rate timing, FIFO among equals.
#include "wire_netem.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "wire_queue.h"
#include "wire_stats.h"

namespace {

int Parse(std::vector<std::string> args, wire_params* p, std::string* err = nullptr) {
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  char buf[256] = "";
  int rc = wire_params_parse(static_cast<int>(argv.size()), argv.data(), p, buf, sizeof buf);
  if (err) *err = buf;
  return rc;
}

TEST(WireParams, ParsesTcSyntax) {
  wire_params p;
  ASSERT_EQ(Parse({"delay", "2ms", "200us", "distribution", "normal", "loss", "random", "5%", "duplicate",
                   "1", "reorder", "25%", "rate", "100mbit", "limit", "50"},
                  &p),
            0);
  EXPECT_EQ(p.delay_ns, 2000000u);
  EXPECT_EQ(p.jitter_ns, 200000u);
  EXPECT_EQ(p.dist, WIRE_DIST_NORMAL);
  EXPECT_DOUBLE_EQ(p.loss, 0.05);
  EXPECT_DOUBLE_EQ(p.duplicate, 0.01);
  EXPECT_DOUBLE_EQ(p.reorder, 0.25);
  EXPECT_EQ(p.gap, 1u);  // tc's default when reorder comes without gap
  EXPECT_EQ(p.rate_bps, 100000000u);
  EXPECT_EQ(p.limit, 50u);
}

TEST(WireParams, BareTimeIsMicrosecondsAndDefaultsAreNetems) {
  wire_params p;
  ASSERT_EQ(Parse({"delay", "100"}, &p), 0);
  EXPECT_EQ(p.delay_ns, 100000u);
  EXPECT_EQ(p.limit, 1000u);
  EXPECT_EQ(p.gap, 0u);
  ASSERT_EQ(Parse({}, &p), 0);
  EXPECT_EQ(p.delay_ns, 0u);
  ASSERT_EQ(Parse({"rate", "10mbps"}, &p), 0);
  EXPECT_EQ(p.rate_bps, 80000000u);
}

TEST(WireParams, RefusesWhatItDoesNotModelNamingIt) {
  wire_params p;
  std::string err;
  EXPECT_EQ(Parse({"delay", "2ms", "1ms", "25%"}, &p, &err), -1);
  EXPECT_NE(err.find("correlation"), std::string::npos) << err;
  EXPECT_EQ(Parse({"corrupt", "1%"}, &p, &err), -1);
  EXPECT_NE(err.find("'corrupt'"), std::string::npos) << err;
  EXPECT_EQ(Parse({"loss", "150%"}, &p, &err), -1);
  EXPECT_NE(err.find("150%"), std::string::npos) << err;
  EXPECT_EQ(Parse({"delay", "-2ms"}, &p, &err), -1);
  EXPECT_EQ(Parse({"delay"}, &p, &err), -1);
  EXPECT_EQ(Parse({"distribution", "pareto"}, &p, &err), -1);
  EXPECT_NE(err.find("pareto"), std::string::npos) << err;
  EXPECT_EQ(Parse({"reorder", "10%"}, &p, &err), -1);
  EXPECT_NE(err.find("needs a delay"), std::string::npos) << err;
  EXPECT_EQ(Parse({"rate", "fast"}, &p, &err), -1);
  EXPECT_EQ(Parse({"limit", "0"}, &p, &err), -1);
}

TEST(WireParams, JsonNamesEveryParameter) {
  wire_params p;
  ASSERT_EQ(Parse({"delay", "2ms", "loss", "5%"}, &p), 0);
  char buf[512];
  ASSERT_EQ(wire_params_json(&p, buf, sizeof buf), 0);
  EXPECT_NE(std::string(buf).find("\"delay_ns\":2000000"), std::string::npos) << buf;
  EXPECT_NE(std::string(buf).find("\"loss_pct\":5.0000"), std::string::npos) << buf;
  char small[8];
  EXPECT_EQ(wire_params_json(&p, small, sizeof small), -1);
}

TEST(WireModel, RollsHappenAtTheirRates) {
  wire_params p;
  ASSERT_EQ(Parse({"loss", "5%", "duplicate", "10%"}, &p), 0);
  wire_rng r;
  wire_rng_seed(&r, 42);
  const int n = 200000;
  int lost = 0, dup = 0;
  for (int i = 0; i < n; i++) {
    int c = wire_copies(&p, &r, 1);
    lost += c == 0;
    dup += c == 2;
  }
  // P(0 copies) = no dup and loss = 0.9 * 0.05; P(2) = dup and no loss = 0.1 * 0.95.
  EXPECT_NEAR(lost / double(n), 0.045, 0.003);
  EXPECT_NEAR(dup / double(n), 0.095, 0.003);
  // A duplicate itself is never duplicated again.
  for (int i = 0; i < 1000; i++) EXPECT_LE(wire_copies(&p, &r, 0), 1);
}

TEST(WireModel, UniformJitterStaysAroundTheDelay) {
  wire_params p;
  ASSERT_EQ(Parse({"delay", "2ms", "500us"}, &p), 0);
  wire_rng r;
  wire_rng_seed(&r, 7);
  wire_flow f{};
  double sum = 0;
  const int n = 100000;
  for (int i = 0; i < n; i++) {
    int reordered;
    uint64_t d = wire_due(&p, &r, &f, 1000000000, 64, &reordered) - 1000000000;
    ASSERT_GE(d, 1500000u);
    ASSERT_LE(d, 2500000u);
    ASSERT_EQ(reordered, 0);
    sum += double(d);
  }
  EXPECT_NEAR(sum / n, 2e6, 1e4);
}

TEST(WireModel, NormalJitterHasTheAskedSpread) {
  wire_params p;
  ASSERT_EQ(Parse({"delay", "10ms", "1ms", "distribution", "normal"}, &p), 0);
  wire_rng r;
  wire_rng_seed(&r, 9);
  wire_flow f{};
  double sum = 0, sq = 0;
  const int n = 100000;
  for (int i = 0; i < n; i++) {
    int reordered;
    double d = double(wire_due(&p, &r, &f, 0, 64, &reordered));
    sum += d;
    sq += d * d;
  }
  double mean = sum / n, sd = std::sqrt(sq / n - mean * mean);
  EXPECT_NEAR(mean, 10e6, 2e4);
  EXPECT_NEAR(sd, 1e6, 2e4);
}

TEST(WireModel, ReorderSendsTheShareAtOnceHonouringGap) {
  wire_params p;
  ASSERT_EQ(Parse({"delay", "1ms", "reorder", "25%"}, &p), 0);
  wire_rng r;
  wire_rng_seed(&r, 3);
  wire_flow f{};
  int now_count = 0;
  const int n = 100000;
  for (int i = 0; i < n; i++) {
    int reordered;
    uint64_t due = wire_due(&p, &r, &f, 5000, 64, &reordered);
    EXPECT_EQ(due == 5000, reordered == 1);
    now_count += reordered;
  }
  EXPECT_NEAR(now_count / double(n), 0.25, 0.005);
  // gap 5, reorder 100%: netem sends every 5th frame at once, the others delayed.
  ASSERT_EQ(Parse({"delay", "1ms", "reorder", "100%", "gap", "5"}, &p), 0);
  f = wire_flow{};
  std::string pattern;
  for (int i = 0; i < 10; i++) {
    int reordered;
    wire_due(&p, &r, &f, 0, 64, &reordered);
    pattern += reordered ? 'R' : 'd';
  }
  EXPECT_EQ(pattern, "ddddRddddR");
}

TEST(WireModel, RateSerialisesFramesBackToBack) {
  wire_params p;
  ASSERT_EQ(Parse({"rate", "8mbit"}, &p), 0);  // 1 byte per microsecond
  wire_rng r;
  wire_rng_seed(&r, 1);
  wire_flow f{};
  int reordered;
  EXPECT_EQ(wire_due(&p, &r, &f, 0, 1000, &reordered), 1000000u);
  EXPECT_EQ(wire_due(&p, &r, &f, 0, 1000, &reordered), 2000000u);       // waits for the first
  EXPECT_EQ(wire_due(&p, &r, &f, 5000000, 500, &reordered), 5500000u);  // idle link: from now
}

TEST(WireQueue, EarliestFirstAndFifoAmongEquals) {
  wire_queue q;
  ASSERT_EQ(wire_queue_init(&q, 4), 0);
  int a, b, c, d, e;
  ASSERT_EQ(wire_queue_push(&q, 30, &a), 0);
  ASSERT_EQ(wire_queue_push(&q, 10, &b), 0);
  ASSERT_EQ(wire_queue_push(&q, 30, &c), 0);
  ASSERT_EQ(wire_queue_push(&q, 10, &d), 0);
  EXPECT_EQ(wire_queue_push(&q, 1, &e), -1);  // full: the caller tail-drops
  EXPECT_EQ(wire_queue_top(&q)->due, 10u);
  EXPECT_EQ(wire_queue_pop(&q), &b);
  EXPECT_EQ(wire_queue_pop(&q), &d);
  EXPECT_EQ(wire_queue_pop(&q), &a);
  EXPECT_EQ(wire_queue_pop(&q), &c);
  EXPECT_EQ(wire_queue_pop(&q), nullptr);
  EXPECT_EQ(wire_queue_top(&q), nullptr);
  wire_queue_free(&q);
}

TEST(WireStats, DeparturesCountedAsPingpongSeesReplies) {
  static wire_order o;  // large: not on the stack
  o = wire_order{};
  wire_counts c{};
  for (int i = 0; i < 4; i++) wire_order_arrive(&o);
  wire_order_depart(&o, &c, 0);
  wire_order_depart(&o, &c, 2);  // overtook 1
  wire_order_depart(&o, &c, 1);  // after a later one: out of order
  wire_order_depart(&o, &c, 2);  // second departure: a duplicate, not out of order
  wire_order_depart(&o, &c, 3);
  EXPECT_EQ(c.out_of_order, 1u);
  EXPECT_EQ(c.dup_departures, 1u);
}

}  // namespace

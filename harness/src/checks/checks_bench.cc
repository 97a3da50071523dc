// How long judging takes: 100 rules on each of two hosts plus the pair rules,
// from facts already parsed, and from the two JSON snapshots (parse + judge).
// This is the pure part of a precondition run; the probe run and SSH are not in it.
#include <benchmark/benchmark.h>

#include <nlohmann/json.hpp>

#include "labgate/facts/parse.h"
#include "test_facts.h"

namespace labgate::checks {
namespace {

using testing::text;

constexpr int kSysctls = 50, kServices = 30;

// 100 rules per host: 4 cmdline, 50 sysctls, 4 tg3, 5 eth1, 30 services, 3 cpu,
// os and kernel release, and 2 same_on_all_hosts paths (kernel_release, sysctl).
profile::Preconditions hundred_rules() {
  profile::Preconditions p = testing::example_rules();
  p.sysctl.clear();
  for (int i = 0; i < kSysctls; ++i)
    p.sysctl.push_back({"net.ipv4.key" + std::to_string(i), {"4096", "87380", "16777216"}, {}});
  p.services_disabled.clear();
  for (int i = 0; i < kServices; ++i) p.services_disabled.push_back("svc" + std::to_string(i));
  p.same_on_all_hosts = {"kernel_release", "sysctl"};
  return p;
}

facts::Facts host(bool tuned) {
  facts::Facts f = testing::tuned_rhel5();
  for (int i = 0; i < kSysctls; ++i) {
    const std::string key = "net.ipv4.key" + std::to_string(i);
    f.sysctl[key] = text(tuned ? "4096 87380 16777216" : "4096 87380 4194304",
                         "/proc/sys/net/ipv4/key" + std::to_string(i));
    f.sysctl_conf[key] = text("4096 87380 16777216", "/etc/sysctl.conf:" + std::to_string(i + 1));
  }
  for (int i = 0; i < kServices; ++i)
    f.services.units["svc" + std::to_string(i)] = f.services.units["avahi-daemon"];
  return f;
}

void BM_JudgeHundredRulesOnTwoHosts(benchmark::State& state) {
  const profile::Preconditions pre = hundred_rules();
  const facts::Facts a = host(true), b = host(false);
  std::size_t results = 0;
  for (auto _ : state) {
    auto rs = check_all({{"a", &a}, {"b", &b}}, pre);
    results = rs.size();
    benchmark::DoNotOptimize(rs.data());
  }
  state.counters["rules_per_host"] = pre.rule_count();
  state.counters["results"] = static_cast<double>(results);
}
BENCHMARK(BM_JudgeHundredRulesOnTwoHosts)->Unit(benchmark::kMicrosecond);

// A snapshot as the probe writes it: every fact with value and source.
std::string snapshot(bool tuned) {
  using nlohmann::json;
  auto fact = [](const std::string& v, const std::string& src) {
    return json{{"value", v}, {"source", src}};
  };
  json j = {{"schema", facts::kSchema}, {"probe", "facts bench"}, {"root", "/"}};
  j["os"]["redhat_release"] =
      fact("Red Hat Enterprise Linux Server release 5.8 (Tikanga)", "/etc/redhat-release");
  j["kernel"]["release"] = fact("2.6.18-308.el5", "/proc/sys/kernel/osrelease");
  j["kernel"]["cmdline"] = fact(
      "ro root=/dev/vg00/lvol0 rhgb nosoftlockup intel_idle.max_cstate=0 mce=ignore_ce", "/proc/cmdline");
  for (int i = 0; i < kSysctls; ++i)
    j["sysctl"]["net.ipv4.key" + std::to_string(i)] = fact(
        tuned ? "4096 87380 16777216" : "4096 87380 4194304", "/proc/sys/net/ipv4/key" + std::to_string(i));
  for (int i = 0; i < kServices; ++i)
    j["services"]["units"]["svc" + std::to_string(i)] = {
        {"kind", "sysv"},
        {"installed", {{"value", true}, {"source", "/etc/rc.d/init.d/svc"}}},
        {"runlevels",
         {{"value", {"off", "off", "off", "on", "on", "on", "off"}},
          {"source", "/etc/rc.d/rc[0-6].d"},
          {"links",
           {nullptr, nullptr, nullptr, "/etc/rc.d/rc3.d/S10svc", "/etc/rc.d/rc4.d/S10svc",
            "/etc/rc.d/rc5.d/S10svc", nullptr}}}},
        {"running", {{"value", true}, {"source", "/var/lock/subsys/svc"}}}};
  j["services"]["init"] = fact("sysv", "/proc/1/stat");
  return j.dump(2);
}

void BM_ParseTwoSnapshotsAndJudge(benchmark::State& state) {
  const profile::Preconditions pre = hundred_rules();
  const std::string sa = snapshot(true), sb = snapshot(false);
  for (auto _ : state) {
    const facts::Facts a = facts::parse_facts(sa, "a"), b = facts::parse_facts(sb, "b");
    auto rs = check_all({{"a", &a}, {"b", &b}}, pre);
    benchmark::DoNotOptimize(rs.data());
  }
  state.counters["snapshot_bytes"] = static_cast<double>(sa.size());
}
BENCHMARK(BM_ParseTwoSnapshotsAndJudge)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace labgate::checks

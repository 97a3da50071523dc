// Counters around one case: snapshots on both hosts, deltas into the measurements.
#include "labgate/gate/counter_watch.h"

#include <chrono>
#include <map>

#include "labgate/gate/kind_runner.h"
#include "labgate/transport/connect_all.h"
#include "labgate/transport/shell_steps.h"

namespace labgate::gate {

using namespace std::chrono_literals;

bool watches_counters(profile::TestKind kind) {
  const KindRunner* r = find_runner(kind);
  return r && r->watches_counters;
}

std::vector<std::string> unbudgeted_trouble(const counters::Delta& d, const profile::TestSpec& spec) {
  // A bounded figure is judged by its budget, so it is no warning here.
  counters::Delta rest = d;
  if (spec.find_bound(profile::Stat::kMaxRetransmits)) rest.retransmits.reset();
  if (spec.find_bound(profile::Stat::kMaxRxDrops)) rest.rx_drops = 0;
  if (spec.find_bound(profile::Stat::kMaxRxErrors)) rest.rx_errors = 0;
  if (spec.find_bound(profile::Stat::kMaxUdpRcvbufErrors)) rest.udp_rcvbuf_errors.reset();
  std::vector<std::string> out;
  for (const auto& line : counters::trouble(rest)) out.push_back("counters: " + line + " during the test");
  return out;
}

CounterWatch::CounterWatch(GateSession& session, const TestCase& c) : session_(session), case_(c) {
  for (const std::string& host : {c.client, c.server}) {
    if (host.empty()) continue;
    Side s;
    s.host = host;
    sides_.push_back(std::move(s));
  }
  // Both hosts at once (take never throws: a failure is the side's error).
  transport::on_each_host(
      sides_.size(), [&](std::size_t i) { sides_[i].before = take(sides_[i].host, sides_[i].raw_before, sides_[i].error); },
      [&](std::size_t i) { return sides_[i].host; });
}

CounterWatch::CounterWatch(GateSession& session, const TestCase& c, FromCommands)
    : session_(session), case_(c) {
  for (const std::string& host : {c.client, c.server}) {
    if (host.empty()) continue;
    Side s;
    s.host = host;
    s.error = "host " + host + ": no counter snapshot before the test";
    sides_.push_back(std::move(s));
  }
}

void CounterWatch::given(const std::string& host, const Bracketed& b) {
  for (Side& s : sides_) {
    if (s.host != host) continue;
    std::string why;
    if (auto text = b.before.snapshot(why)) {
      s.raw_before = *text;
      s.error.clear();
      try {
        s.before = counters::parse_snapshot(*text, "counters on " + host);
      } catch (const std::exception& e) {
        s.error = "host " + host + ": reading network counters: " + e.what();
      }
    } else {
      s.raw_before = b.before.text;
      s.error = "host " + host + ": counters before the test: " + why;
    }
    if (auto text = b.after.snapshot(why)) s.raw_after = *text;
  }
}

std::optional<counters::Snapshot> CounterWatch::take(const std::string& host, std::string& raw,
                                                     std::string& error) {
  const auto argv = counters::snapshot_command();
  try {
    transport::RunOptions o;
    o.timeout = 10s;
    transport::ShellSteps in_shell;  // the host's one shell, not a channel each (issue 23)
    const auto r = session_.transport(host).run(argv, o);
    raw = r.out;
    if (!r.ok()) {
      error = "host " + host + ": cat /proc/net/{snmp,netstat,dev}: " + r.describe() + ": " +
              r.err.substr(0, 200);
      return std::nullopt;
    }
    return counters::parse_snapshot(r.out, "counters on " + host);
  } catch (const std::exception& e) {
    error = "host " + host + ": reading network counters: " + e.what();
    return std::nullopt;
  }
}

void CounterWatch::finish(CaseRun& run) {
  // The figures budgets judge are sums over both hosts; with one host unread, the
  // other's alone would pass for the pair's. They are put back as they were, so a
  // budget on them fails as not measured (the per-host figures stay for the report).
  static const char* const kSummed[] = {"retransmits", "rx_drops", "rx_errors", "udp_rcvbuf_errors"};
  std::vector<std::map<std::string, std::optional<double>>> prior(run.measurements.size());
  for (std::size_t i = 0; i < run.measurements.size(); ++i)
    for (const char* k : kSummed) {
      auto it = run.measurements[i].reported.find(k);
      prior[i][k] =
          it == run.measurements[i].reported.end() ? std::nullopt : std::optional<double>(it->second);
    }
  bool partial = false;
  // The after-snapshots not given by the case's commands: of both hosts at
  // once (each a channel round trip).
  std::vector<std::string> raw_afters(sides_.size()), errors(sides_.size());
  std::vector<std::optional<counters::Snapshot>> afters(sides_.size());
  const auto after_of = [&](std::size_t i) {
    errors[i] = sides_[i].error;
    if (!sides_[i].before) return;
    if (!sides_[i].raw_after) {
      afters[i] = take(sides_[i].host, raw_afters[i], errors[i]);
      return;
    }
    raw_afters[i] = *sides_[i].raw_after;
    try {
      afters[i] = counters::parse_snapshot(raw_afters[i], "counters on " + sides_[i].host);
    } catch (const std::exception& e) {
      errors[i] = "host " + sides_[i].host + ": reading network counters: " + e.what();
    }
  };
  std::vector<std::size_t> to_take;
  for (std::size_t i = 0; i < sides_.size(); ++i)
    if (sides_[i].before && !sides_[i].raw_after)
      to_take.push_back(i);
    else
      after_of(i);
  transport::on_each_host(
      to_take.size(), [&](std::size_t k) { after_of(to_take[k]); },
      [&](std::size_t k) { return sides_[to_take[k]].host; });
  for (std::size_t i = 0; i < sides_.size(); ++i) {
    Side& s = sides_[i];
    const std::string& raw_after = raw_afters[i];
    const std::string& error = errors[i];
    const std::optional<counters::Snapshot>& after = afters[i];
    run.raw_files.emplace_back("counters-" + s.host + "-before.txt", s.raw_before);
    run.raw_files.emplace_back("counters-" + s.host + "-after.txt", raw_after);
    partial = partial || !after;
    for (auto& m : run.measurements) {
      if (!after) {
        m.warnings.push_back("counters not measured: " + error);
        continue;
      }
      counters::Delta d = counters::delta(*s.before, *after);
      d.host = s.host;
      counters::add_to_measurement(d, m);
      for (const auto& w : unbudgeted_trouble(d, *case_.spec)) m.warnings.push_back(w);
    }
  }
  if (!partial) return;
  for (std::size_t i = 0; i < run.measurements.size(); ++i)
    for (const auto& [k, v] : prior[i]) {
      if (v)
        run.measurements[i].reported[k] = *v;
      else
        run.measurements[i].reported.erase(k);
    }
}

}  // namespace labgate::gate

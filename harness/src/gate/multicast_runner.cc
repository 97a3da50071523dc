// The udp_multicast runner (see multicast_runner.h).
#include "labgate/gate/multicast_runner.h"


#include <cstdio>
#include <map>
#include <memory>
#include <optional>

#include "labgate/gate/multicast_diagnosis.h"
#include "labgate/measure/multicast_one_way.h"
#include "labgate/measure/multicast_output.h"
#include "labgate/measure/probe_command.h"
#include "labgate/measure/probe_output.h"
#include "labgate/transport/shell_quote.h"
#include "labgate/util/exit_code.h"

namespace labgate::gate {

using namespace std::chrono_literals;

namespace {

constexpr auto kJoinWithin = 10s;
constexpr auto kEndsWithin = 3s;
constexpr auto kLinger = 300ms;  // the publisher's wait for the last replies

struct Subscriber {
  std::string host, address;
  std::vector<std::string> argv;
  std::unique_ptr<transport::Process> process;
  std::optional<transport::RunResult> ended;
};

// Whatever happens, no subscriber outlives its case: each still running is
// stopped (its process group killed) and its output kept.
class Subscribers {
 public:
  Subscribers(CaseRun& run, Reporter& reporter) : run_(run), reporter_(reporter) {}
  Subscribers(const Subscribers&) = delete;
  Subscribers& operator=(const Subscribers&) = delete;
  ~Subscribers() {
    for (Subscriber& s : list)
      if (s.process && !s.ended) try {
          end(s, 0s);
        } catch (const std::exception& e) {
          reporter_.warning("stopping " + s.process->command() + ": " + e.what());
        }
  }
  /// Its own end (the publisher's end marker), else a stop after `within`.
  void end(Subscriber& s, transport::Nanos within) {
    auto r = s.process->wait(within);
    if (!r) r = s.process->stop();
    s.ended = r;
    run_.raw_files.emplace_back("subscriber-" + s.host + ".out", r->out);
    run_.raw_files.emplace_back("subscriber-" + s.host + ".err", r->err);
  }
  std::vector<Subscriber> list;

 private:
  CaseRun& run_;
  Reporter& reporter_;
};

std::string dir_of(const std::string& path) { return path.substr(0, path.rfind('/')); }

std::string rate_arg(const profile::TestSpec& t) {
  char rate[64];
  std::snprintf(rate, sizeof(rate), "%.17g/s", t.rate_per_sec.value_or(1000));
  return rate;
}

std::map<std::string, std::string> diagnose_silent(GateSession& session, const TestCase& c,
                                                   const std::vector<measure::SubscriberCounts>& counts,
                                                   const Subscribers& subs,
                                                   const std::string& publisher_address, CaseRun& run) {
  std::map<std::string, std::string> why;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    if (counts[i].received > 0) continue;
    const Subscriber& s = subs.list[i];
    transport::RunOptions o;
    o.timeout = 20s;  // /proc reads and two route look-ups
    const auto r = session.deployment(s.host).run(
        silent_subscriber_command(publisher_address, c.spec->multicast.group), o);
    run.raw_files.emplace_back("diagnosis-" + s.host + ".txt", r.out + r.err);
    why[s.host] =
        r.ok()
            ? diagnose_silent_subscriber(r.out, s.host, s.address, publisher_address, c.spec->multicast.group)
            : s.host + " received nothing, and what its host says could not be read: " + r.describe();
  }
  return why;
}

// Each record's one-way delay, publisher -> subscriber (issue 24). A failure
// here costs the estimate, never the measurement: each record then says why.
std::vector<nlohmann::json> one_way_records(const std::string& publisher_out, const TestCase& c,
                                            const std::vector<measure::SubscriberCounts>& counts,
                                            const std::vector<std::string>& addresses, std::size_t records,
                                            Reporter& reporter) {
  std::vector<nlohmann::json> each;
  std::string why = "the publisher's one-way output could not be read";
  try {
    each = measure::multicast_one_way(publisher_out, c.client, counts, addresses, c.spec->one_way_max_error);
  } catch (const std::exception& e) {
    reporter.warning(c.name() + ": one-way delay: " + e.what());
    why += std::string(": ") + e.what();
    each.clear();
  }
  if (each.size() == records) return each;
  each.assign(records, {{"reported", false}, {"why_not", why}});
  for (std::size_t i = 0; i < records; ++i) {
    each[i]["client"] = c.client;
    each[i]["server"] = i < counts.size() ? counts[i].host : "worst";
  }
  return each;
}

}  // namespace

namespace {
// What both ends are told alike: the role, the group and port, their own address.
std::vector<std::string> both_ends(const profile::TestSpec& t, const std::string& probe_dir, const char* role,
                                   const std::string& address) {
  std::vector<std::string> a{probe_dir + "/mcast",
                             role,
                             "--group",
                             t.multicast.group,
                             "--port",
                             std::to_string(t.multicast.port),
                             "--bind",
                             address,
                             "--reply-every",
                             std::to_string(t.multicast.reply_every)};
  // socket_buffer: the feed socket's SO_SNDBUF/SO_RCVBUF on every end (a
  // subscriber's receive buffer rides out its scheduling stalls).
  if (t.socket_buffer) a.insert(a.end(), {"--socket-buffer", std::to_string(*t.socket_buffer)});
  return a;
}
}  // namespace

std::vector<std::string> mcast_subscriber_argv(const profile::TestSpec& t, const std::string& probe_dir,
                                               const std::string& address) {
  std::vector<std::string> a = both_ends(t, probe_dir, "subscribe", address);
  if (t.multicast.source) a.insert(a.end(), {"--source", *t.multicast.source});
  // Silence this long means the feed never came (or stopped): the subscriber
  // ends by itself and says so, even if the publisher's end marker is lost.
  a.insert(a.end(), {"--idle-timeout", measure::exact_duration(t.warmup + t.duration + 10s)});
  return a;
}

std::vector<std::string> mcast_publisher_argv(const profile::TestSpec& t, const std::string& probe_dir,
                                              const std::string& address,
                                              const std::vector<std::string>& subscriber_addresses) {
  std::vector<std::string> a = both_ends(t, probe_dir, "publish", address);
  a.insert(a.end(), {"--size", std::to_string(t.message_size), "--ttl", std::to_string(t.multicast.ttl),
                     "--rate", rate_arg(t), "--duration", measure::exact_duration(t.duration), "--warmup",
                     measure::exact_duration(t.warmup), "--linger", measure::exact_duration(kLinger)});
  for (const std::string& s : subscriber_addresses) a.insert(a.end(), {"--subscriber", s});
  return a;
}

CaseRun& run_multicast(GateSession& session, const TestCase& c, CaseRun& run) {
  const profile::TestSpec& t = *c.spec;
  std::vector<std::string> hosts{c.client};
  hosts.insert(hosts.end(), t.multicast.subscribers.begin(), t.multicast.subscribers.end());
  session.install(hosts, "mcast");  // every host at once, the first time
  const std::string pub_address = session.host(c.client).test_address_of(t.network);
  Subscribers subs(run, session.reporter());
  std::vector<std::string> addresses;
  std::string commands;
  for (const std::string& h : t.multicast.subscribers) {
    Subscriber s;
    s.host = h;
    s.address = session.host(h).test_address_of(t.network);
    s.argv = mcast_subscriber_argv(t, dir_of(session.probe(h, "mcast")), s.address);
    commands += "subscriber@" + h + ": " + transport::shell_join(s.argv) + "\n";
    s.process = session.deployment(h).start(s.argv);
    addresses.push_back(s.address);
    subs.list.push_back(std::move(s));
  }
  // Every subscriber joined before the first message leaves.
  for (Subscriber& s : subs.list) {
    if (s.process->wait_for_output("}\n", kJoinWithin)) {
      if (s.process->stdout_so_far().find("\"joined\"") != std::string::npos) continue;
    }
    subs.end(s, 0s);
    const std::string why = s.ended->out.find("\"error\"") != std::string::npos ? s.ended->out : s.ended->err;
    throw Failure(ExitCode::kCouldNotRun, "host " + s.host + ": " + c.name() +
                                              ": the mcast subscriber did not join " + t.multicast.group +
                                              " within 10 s: " + why.substr(0, 400));
  }
  const auto pub_argv =
      mcast_publisher_argv(t, dir_of(session.probe(c.client, "mcast")), pub_address, addresses);
  commands += "publisher@" + c.client + ": " + transport::shell_join(pub_argv) + "\n";
  run.raw_files.emplace_back("command.txt", commands);
  transport::RunOptions o;
  o.timeout = t.warmup + t.duration + kLinger + 30s;
  const auto r = session.deployment(c.client).run(pub_argv, o);
  run.raw_files.emplace_back("publisher.out", r.out);
  run.raw_files.emplace_back("publisher.err", r.err);
  if (!r.ok())
    throw Failure(ExitCode::kCouldNotRun, "host " + c.client + ": " + c.name() + ": mcast publisher " +
                                              r.describe() + ": " + (r.out + r.err).substr(0, 400));
  std::vector<measure::SubscriberCounts> counts;
  for (Subscriber& s : subs.list) {
    subs.end(s, kEndsWithin);
    try {
      counts.push_back(measure::read_subscriber(s.ended->out, s.host));
    } catch (const std::exception& e) {
      throw Failure(ExitCode::kCouldNotRun, "host " + s.host + ": " + c.name() + ": " + e.what());
    }
  }
  const auto silent = diagnose_silent(session, c, counts, subs, pub_address, run);
  try {
    run.measurements = measure::multicast_measurements(r.out, c.client, counts, addresses, silent);
  } catch (const std::exception& e) {
    throw Failure(ExitCode::kCouldNotRun, "host " + c.client + ": " + c.name() + ": " + e.what());
  }
  run.one_way_each = one_way_records(r.out, c, counts, addresses, run.measurements.size(), session.reporter());
  return run;
}

}  // namespace labgate::gate

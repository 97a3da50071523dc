// Reading the mcast probe's publisher and subscribers (see multicast_output.h).
#include "labgate/measure/multicast_output.h"

#include <algorithm>

#include "labgate/measure/figures.h"
#include "labgate/measure/probe_output.h"
#include "labgate/util/clock_anchor.h"
#include "labgate/util/json_reader.h"

namespace labgate::measure {
namespace {

using util::JsonReader;

std::string last_line(std::string_view out) {
  std::string s(out);
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
  const std::size_t nl = s.rfind('\n');
  return nl == std::string::npos ? s : s.substr(nl + 1);
}

}  // namespace

std::optional<std::int64_t> publisher_clock_step(const JsonReader& pub, const JsonReader& entry) {
  if (pub.str_or("receive_stamps", "user") == "user" || !entry.has("one_way")) return std::nullopt;
  const JsonReader ow = entry.object("one_way");
  if (!ow.has("anchor")) return std::nullopt;
  return util::realtime_step(ow.object("anchor").json(), ow.path_of("anchor"));
}

namespace {

// One subscriber's Measurement: the publisher's round trips to it, its own counts.
Measurement subscriber_measurement(const JsonReader& pub, const JsonReader& entry, const SubscriberCounts& s,
                                   const std::string& publisher, const std::string& silent_why) {
  Measurement m;
  m.source = "builtin";
  m.kind = "udp_multicast";
  m.metric = Metric::kRoundTrip;
  m.host = publisher;
  m.peer = s.host;
  m.histogram = stats::Histogram::from_json(entry.any("histogram"), entry.path_of("histogram"));
  m.duration_s = pub.num("duration_s");
  m.warmup_s = pub.num("warmup_excluded_s");
  for (const auto& [k, v] : pub.object("parameters").json().items())
    m.parameters[k] = v.is_string() ? v.get<std::string>() : v.dump();
  m.parameters["probe"] = "mcast";
  m.parameters["subscriber_address"] = entry.str("address");
  m.parameters["subscriber_exit"] = s.exit_reason;
  // Loss is the subscriber's own count against what the publisher sent.
  m.sent = pub.object("counters").object("measured").count("sent");
  m.received = s.received;
  // Nothing received: the subscriber never learned the feed's numbering, so its
  // own loss count is empty; it lost every message the publisher sent.
  const bool silent = s.received == 0 && m.sent > 0;
  m.dropped = silent ? m.sent : s.lost;
  m.duplicated = s.duplicated;
  m.out_of_order = s.out_of_order;
  m.counts_drops = true;
  if (m.sent > 0) m.loss_fraction = static_cast<double>(m.dropped) / static_cast<double>(m.sent);
  m.reported["longest_gap"] = static_cast<double>(silent ? m.sent : s.longest_gap);
  m.reported["gaps"] = static_cast<double>(silent ? 1 : s.gaps);
  m.reported["late"] = static_cast<double>(s.too_late);
  if (!s.end_seen)
    m.warnings.push_back(s.host + " never saw the publisher's end marker (" + s.exit_reason +
                         "): loss after its last message is not counted");
  if (const auto step = publisher_clock_step(pub, entry))
    m.warnings.push_back(util::realtime_step_said(publisher + "'s", *step) +
                         ": round trips of replies after the step are off by it (the kernel's receive stamps "
                         "against send times carried over with the tie of before)");
  if (s.expected != m.sent && s.end_seen)
    m.warnings.push_back(s.host + " expected " + std::to_string(s.expected) +
                         " messages, the publisher sent " + std::to_string(m.sent));
  // Replies asked of it: 1 in reply_every of what it received (its lost messages ask nothing).
  const double asked = static_cast<double>(entry.count("replies_expected"));
  SampleExpectation e;
  e.held = static_cast<double>(m.histogram.count());
  e.expected = m.sent > 0 ? asked * static_cast<double>(s.received) / static_cast<double>(m.sent) : 0;
  e.basis = std::to_string(entry.count("replies_expected")) + " replies asked of " + s.host + " (1 in " +
            m.parameters["reply_every"] + " of " + std::to_string(m.sent) + " messages; it received " +
            std::to_string(s.received) + ")";
  e.shortfall_means = s.received == 0 ? silent_why : "answers from " + s.host + " were lost on the way back";
  // A publisher behind its rate stopped at the schedule's end: what it could not
  // send was asked of no one, and the run measured less than the profile asked.
  const std::uint64_t not_sent = pub.object("counters").object("measured").opt_count("not_sent").value_or(0);
  if (not_sent > 0) {
    e.expected += static_cast<double>(not_sent) / std::max(1.0, std::stod(m.parameters["reply_every"]));
    e.shortfall_means = "the publisher could not keep its rate: " + std::to_string(not_sent) +
                        " messages of its schedule were never sent";
    m.warnings.push_back(e.shortfall_means);
  }
  if (s.received == 0) {  // by its own count nothing arrived: no sample, never a pass
    e.expected = std::max(asked, 1.0);
    e.held = 0;
  }
  m.expectation = e;
  return m;
}

// The worst subscriber, figure by figure: what a feed's budget is about.
Measurement worst_of(const std::vector<Measurement>& subs, const std::string& publisher) {
  Measurement w;
  w.source = "builtin";
  w.kind = "udp_multicast";
  w.metric = Metric::kRoundTrip;
  w.host = publisher;
  w.peer = "worst";
  w.parameters = subs.front().parameters;
  w.parameters.erase("subscriber_address");
  w.parameters.erase("subscriber_exit");
  w.duration_s = subs.front().duration_s;
  w.warmup_s = subs.front().warmup_s;
  w.sent = subs.front().sent;
  for (const char* key : {"p50", "p90", "p99", "p99_9", "p99_99", "max", "mean", "stddev", "dropped", "loss",
                          "longest_gap", "gaps", "duplicated", "out_of_order"}) {
    std::optional<double> top;
    std::string who;
    for (const Measurement& m : subs) {
      const auto v = judge_figures(m).figures.value(key);
      if (v && (!top || *v > *top)) {
        top = v;
        who = m.peer;
      }
    }
    if (!top) continue;
    w.parameters[std::string("worst.") + key] = who;
    if (std::string(key) == "loss")
      w.loss_fraction = *top;
    else
      w.reported[key] = *top;
  }
  std::uint64_t samples = 0;
  for (const Measurement& m : subs) samples += m.histogram.count();
  w.reported["samples"] = static_cast<double>(samples);
  return w;
}

}  // namespace

SubscriberCounts read_subscriber(std::string_view out, const std::string& host) {
  const auto failed = [&](const std::string&) {
    return "mcast subscriber on " + host + " could not measure";
  };
  const std::string line = last_line(out);
  if (line.find("\"event\"") != std::string::npos)
    throw ProbeOutputError("mcast subscriber on " + host + " joined but printed no result", false);
  const ProbeDocument d = read_probe_document(line, {"mcast"}, failed);
  return read_probe_members("mcast subscriber on " + host, [&] {
    const JsonReader r(d.json, "");
    if (r.str("role") != "subscriber") r.fail("role", "is '" + r.str("role") + "', expected subscriber");
    SubscriberCounts s;
    s.host = host;
    s.exit_reason = r.str("exit_reason");
    s.end_seen = r.boolean("end_seen");
    const JsonReader c = r.object("counters");
    const JsonReader m = c.object("measured");
    s.expected = m.count("expected");
    s.received = m.count("received");
    s.lost = m.count("lost");
    s.duplicated = m.count("duplicated");
    s.out_of_order = m.count("out_of_order");
    s.too_late = m.count("too_late");
    s.longest_gap = m.count("longest_gap");
    s.gaps = m.count("gaps");
    s.warmup_received = c.object("warmup").count("received");
    s.replies_sent = c.count("replies_sent");
    if (r.has("anchor")) {
      const JsonReader a = r.object("anchor");
      s.anchor_delta_ns = a.opt_int("delta_ns");
      if (!s.anchor_delta_ns) a.fail("delta_ns", "expected an integer");
      s.anchor_error_ns = a.count("error_ns");
    }
    if (s.longest_gap > s.lost) r.fail("counters.measured.longest_gap", "exceeds the messages lost");
    return s;
  });
}

std::vector<Measurement> multicast_measurements(std::string_view publisher_out, const std::string& publisher,
                                                const std::vector<SubscriberCounts>& subs,
                                                const std::vector<std::string>& addresses,
                                                const std::map<std::string, std::string>& silent_why) {
  const auto failed = [&](const std::string&) {
    return "mcast publisher on " + publisher + " could not measure";
  };
  const ProbeDocument d = read_probe_document(publisher_out, {"mcast"}, failed);
  return read_probe_members("mcast publisher on " + publisher, [&] {
    const JsonReader r(d.json, "");
    if (r.str("role") != "publisher") r.fail("role", "is '" + r.str("role") + "', expected publisher");
    const nlohmann::json& list = r.array("subscribers");
    std::vector<Measurement> out;
    for (std::size_t i = 0; i < subs.size(); ++i) {
      std::size_t at = list.size();
      for (std::size_t n = 0; n < list.size(); ++n)
        if (i < addresses.size() && r.element("subscribers", n).str("address") == addresses[i]) at = n;
      if (at == list.size()) r.fail("subscribers", "has no entry for " + subs[i].host);
      const auto why = silent_why.find(subs[i].host);
      out.push_back(
          subscriber_measurement(r, r.element("subscribers", at), subs[i], publisher,
                                 why != silent_why.end() ? why->second : subs[i].host + " received nothing"));
    }
    if (!out.empty()) out.push_back(worst_of(out, publisher));
    return out;
  });
}

}  // namespace labgate::measure

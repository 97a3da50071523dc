// One-way delay of a udp_multicast feed, per subscriber and the worst (see
// multicast_one_way.h; the probe side is probes/mcast/SCHEMA.md).
#include "labgate/measure/multicast_one_way.h"

#include "labgate/measure/one_way.h"
#include "labgate/measure/probe_output.h"
#include "labgate/util/clock_anchor.h"
#include "labgate/util/json_reader.h"

namespace labgate::measure {
namespace {

using nlohmann::json;
using util::JsonReader;

json feed_not_reported(const std::string& why, std::optional<std::chrono::nanoseconds> max_error) {
  return {{"clock", "realtime"},
          {"max_error_ns", max_error ? json(max_error->count()) : json(nullptr)},
          {"reported", false},
          {"why_not", why}};
}

// One subscriber's record: its entry in the publisher's list, its own anchor.
json subscriber_one_way(const JsonReader& pub, const JsonReader& entry, const SubscriberCounts& s,
                        const std::string& publisher, std::optional<std::chrono::nanoseconds> max_error) {
  if (!entry.has("one_way"))
    return feed_not_reported(
        "the publisher printed no one_way for " + s.host + " (an mcast probe older than the one-way stamps)",
        max_error);
  const JsonReader ow = entry.object("one_way");
  if (ow.count("stamped") == 0)
    return feed_not_reported(
        ow.count("unstamped") > 0
            ? s.host + "'s " + std::to_string(ow.count("unstamped")) +
                  " replies carried no receive stamp (an mcast subscriber older than the stamps)"
            : "no reply came back from " + s.host + " (it received nothing, or its answers were lost)",
        max_error);
  if (!s.anchor_error_ns)
    return feed_not_reported(s.host + " printed no clock anchor (an mcast subscriber older than the stamps)",
                             max_error);
  // Each exchange's interval may still hold a point: a step shifts t1 against
  // t2 and t4 alike for every exchange after it (fresh CI of b8737b8 met a
  // 0.5 ms step on the lab VM, between the probes' starts, where it is harmless).
  if (const auto step = publisher_clock_step(pub, entry))
    return feed_not_reported(
        util::realtime_step_said(publisher + "'s", *step) +
            ": its send times (carried over with its tie) and the kernel's receive stamps "
            "disagree by it, so no one offset holds for the run",
        max_error);
  return one_way_record(ow.json(), json{{"error_ns", *s.anchor_error_ns}}, max_error);
}

}  // namespace

json worst_one_way(const std::vector<json>& per_subscriber, const std::string& publisher) {
  json w = {{"clock", "realtime"}, {"reported", false}, {"client", publisher}, {"server", "worst"}};
  if (per_subscriber.empty()) {
    w["why_not"] = "no subscriber";
    return w;
  }
  w["max_error_ns"] = per_subscriber.front().value("max_error_ns", json(nullptr));
  if (per_subscriber.front().contains("sampled")) w["sampled"] = per_subscriber.front()["sampled"];
  // The worst is known only when every subscriber's figures are.
  for (const json& r : per_subscriber)
    if (!r.value("reported", false)) {
      w["why_not"] = "not known for " + r.value("server", std::string("a subscriber")) + ": " +
                     r.value("why_not", std::string("not reported"));
      return w;
    }
  json fwd = json::object(), who = json::object();
  std::uint64_t bound = 0;
  for (const json& r : per_subscriber) {
    bound = std::max(bound, r["bound_ns"].get<std::uint64_t>());
    for (const char* stat : {"p50_ns", "p99_ns", "max_ns"}) {
      const std::int64_t v = r["a_to_b"][stat].get<std::int64_t>();
      if (!fwd.contains(stat) || v > fwd[stat].get<std::int64_t>()) {
        fwd[stat] = v;
        who[stat] = r.value("server", std::string());
      }
    }
  }
  // Each figure is its subscriber's, within that one's bound: the widest holds them all.
  w["bound_ns"] = bound;
  w["a_to_b"] = fwd;
  w["worst"] = who;
  w["reported"] = true;
  return w;
}

std::vector<json> multicast_one_way(std::string_view publisher_out, const std::string& publisher,
                                    const std::vector<SubscriberCounts>& subs,
                                    const std::vector<std::string>& addresses,
                                    std::optional<std::chrono::nanoseconds> max_error) {
  const auto failed = [&](const std::string&) {
    return "mcast publisher on " + publisher + " could not measure";
  };
  const ProbeDocument d = read_probe_document(publisher_out, {"mcast"}, failed);
  return read_probe_members("mcast publisher on " + publisher, [&] {
    const JsonReader r(d.json, "");
    // Said with every figure: what it is from, and what it is not.
    const std::string sampled = "publisher->subscriber from each answered message's scheduled send, 1 in " +
                                r.object("parameters").json().at("reply_every").dump() +
                                " messages only, not every message";
    const nlohmann::json& list = r.array("subscribers");
    std::vector<json> out;
    for (std::size_t i = 0; i < subs.size(); ++i) {
      json rec;
      for (std::size_t n = 0; n < list.size() && rec.is_null(); ++n)
        if (i < addresses.size() && r.element("subscribers", n).str("address") == addresses[i])
          rec = subscriber_one_way(r, r.element("subscribers", n), subs[i], publisher, max_error);
      if (rec.is_null()) rec = feed_not_reported("the publisher lists no " + subs[i].host, max_error);
      rec["client"] = publisher;
      rec["server"] = subs[i].host;
      rec["sampled"] = sampled;
      out.push_back(std::move(rec));
    }
    out.push_back(worst_one_way(out, publisher));
    return out;
  });
}

}  // namespace labgate::measure

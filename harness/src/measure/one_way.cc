// One-way delay with its error bound: the offset estimator and run.json's
// "one_way" record of a pingpong run (see one_way.h, probes/pingpong/SCHEMA.md).
#include "labgate/measure/one_way.h"

#include <stdexcept>
#include <vector>

#include "labgate/stats/histogram.h"
#include "labgate/util/json_reader.h"
#include "labgate/util/units.h"

namespace labgate::measure {
namespace {

using nlohmann::json;
using util::JsonReader;

std::int64_t i64(const JsonReader& r, const char* key) {
  const std::optional<long long> v = r.opt_int(key);
  if (!v) r.fail(key, "expected an integer");
  return *v;
}

std::string dur(std::int64_t ns) { return units::format_duration(std::chrono::nanoseconds(ns)); }

/// p50/p99/max of one direction: the probe's histogram of value + shift, shifted back.
json direction(const json& hist, const std::string& path, std::int64_t shift) {
  const stats::Histogram h = stats::Histogram::from_json(hist, path);
  const auto at = [&](std::uint64_t v) { return static_cast<std::int64_t>(v) - shift; };
  return {{"count", h.count()},
          {"p50_ns", at(h.percentile(50))},
          {"p99_ns", at(h.percentile(99))},
          {"max_ns", at(h.max())}};
}

}  // namespace

std::optional<OffsetEstimate> estimate_offset(std::span<const Exchange> exchanges,
                                              std::uint64_t anchor_error_ns) {
  const Exchange* best = nullptr;
  for (const Exchange& e : exchanges)
    if (best == nullptr || e.round_trip() < best->round_trip()) best = &e;
  if (best == nullptr) return std::nullopt;
  // offset in [t2 - t4, t2 - t1]: its midpoint, and half its width rounded up.
  const std::int64_t lo = best->t2 - best->t4, hi = best->t2 - best->t1;
  OffsetEstimate est;
  est.offset_ns = lo + (hi - lo) / 2;
  est.bound_ns = static_cast<std::uint64_t>(hi - est.offset_ns) + anchor_error_ns;
  est.from = *best;
  return est;
}

json one_way_record(const json& client_one_way, const json& server_anchor,
                    std::optional<std::chrono::nanoseconds> max_error) {
  json rec = {{"clock", "realtime"},
              {"max_error_ns", max_error ? json(max_error->count()) : json(nullptr)},
              {"reported", false}};
  const auto not_reported = [&](const std::string& why) {
    rec["why_not"] = why;
    return rec;
  };
  if (client_one_way.is_null())
    return not_reported("messages shorter than 16 bytes carry no timestamps (message_size >= 16 needed)");
  const JsonReader r(client_one_way, "one_way");
  rec["stamped"] = r.count("stamped");
  if (r.count("stamped") == 0)
    return not_reported("the server's replies carried no receive stamp (" +
                        std::to_string(r.count("unstamped")) + " came back as sent)");
  if (server_anchor.is_null())
    return not_reported("the server printed no clock anchor (its summary was not read)");
  const std::uint64_t anchor_error =
      r.object("anchor").count("error_ns") + JsonReader(server_anchor, "server.anchor").count("error_ns");
  std::vector<Exchange> kept;
  const json& items = r.array("kept");
  for (std::size_t i = 0; i < items.size(); ++i) {
    const JsonReader e = r.element("kept", i);
    kept.push_back({e.count("seq"), i64(e, "t1"), i64(e, "t2"), i64(e, "t4")});
    rec["exchanges"].push_back({{"seq", kept.back().seq},
                                {"t1", kept.back().t1},
                                {"t2", kept.back().t2},
                                {"t4", kept.back().t4},
                                {"round_trip_ns", kept.back().round_trip()}});
  }
  const std::optional<OffsetEstimate> est = estimate_offset(kept, anchor_error);
  if (!est) r.fail("kept", "no exchange although " + std::to_string(r.count("stamped")) + " were stamped");
  rec["offset_ns"] = est->offset_ns;
  rec["bound_ns"] = est->bound_ns;
  rec["anchor_error_ns"] = anchor_error;
  rec["from_exchange"] = {{"seq", est->from.seq}, {"round_trip_ns", est->from.round_trip()}};
  // The same offset between the hosts' monotonic clocks (every probe's and
  // watch's stamps): realtime = monotonic + delta on each host, so host b's
  // monotonic minus host a's is delta_a + offset - delta_b, within the same
  // bound. It places host a's moments on host b's clock (tail/attribute.h).
  // (An anchor without its delta, as a multicast subscriber's, gives none.)
  const std::optional<long long> delta_a = r.object("anchor").opt_int("delta_ns"),
                                 delta_b = JsonReader(server_anchor, "server.anchor").opt_int("delta_ns");
  if (delta_a && delta_b) rec["monotonic_offset_ns"] = *delta_a + est->offset_ns - *delta_b;
  // Every exchange's interval holds the offset of its moment: if they share no
  // point, the offset moved during the run (drift, a step) and one figure is wrong.
  const JsonReader inter = r.object("intersection");
  const std::int64_t lo = i64(inter, "lo_ns"), hi = i64(inter, "hi_ns");
  rec["consistent"] = lo <= hi;
  if (lo > hi)
    return not_reported(
        "the clocks moved against each other during the run: the exchanges' offset intervals " +
        std::string("share no point (apart by ") + dur(lo - hi) + ")");
  if (r.count("out_of_range") > 0)
    return not_reported(std::to_string(r.count("out_of_range")) +
                        " one-way values fell below the probe's reference: the clocks moved during the run");
  if (max_error && est->bound_ns > static_cast<std::uint64_t>(max_error->count()))
    return not_reported("offset bound " + dur(static_cast<std::int64_t>(est->bound_ns)) +
                        " exceeds one_way_max_error " + dur(max_error->count()));
  if (!r.has("reference")) return not_reported("no measured exchange carried a receive stamp");
  const JsonReader ref = r.object("reference");
  const std::int64_t ref_ns = i64(ref, "offset_ns"), bias = i64(ref, "bias_ns");
  // The probe recorded a - ref + bias and b + ref + bias; a - offset and b + offset are the delays.
  rec["a_to_b"] = direction(r.any("a_to_b"), "one_way.a_to_b", est->offset_ns - ref_ns + bias);
  // The mcast publisher keeps the forward direction only (its way back is a unicast reply).
  if (r.has("b_to_a"))
    rec["b_to_a"] = direction(r.any("b_to_a"), "one_way.b_to_a", ref_ns - est->offset_ns + bias);
  rec["reported"] = true;
  return rec;
}

const json& one_way_of_record(const json& measurement) {
  static const json kNone;
  if (!measurement.is_object()) return kNone;
  const auto it = measurement.find("one_way");
  return it == measurement.end() ? kNone : *it;
}

OneWayFigure one_way_figure(const json& rec, profile::Stat stat) {
  using profile::Stat;
  OneWayFigure f;
  const bool forward =
      stat == Stat::kOneWayP50Forward || stat == Stat::kOneWayP99Forward || stat == Stat::kOneWayMaxForward;
  const std::string client = rec.is_object() ? rec.value("client", std::string("a")) : "a",
                    server = rec.is_object() ? rec.value("server", std::string("b")) : "b";
  f.direction = forward ? client + "->" + server : server + "->" + client;
  if (!rec.is_object()) {
    f.why_not = "no one-way record (only the built-in probe's tcp_rr/udp_rr runs estimate it)";
    return f;
  }
  if (rec.contains("bound_ns") && rec["bound_ns"].is_number()) f.bound_ns = rec["bound_ns"].get<double>();
  if (!rec.value("reported", false)) {
    f.why_not = rec.value("why_not", std::string("one-way delay not reported"));
    return f;
  }
  const char* dir = forward ? "a_to_b" : "b_to_a";
  const char* field = stat == Stat::kOneWayP50Forward || stat == Stat::kOneWayP50Reverse   ? "p50_ns"
                      : stat == Stat::kOneWayP99Forward || stat == Stat::kOneWayP99Reverse ? "p99_ns"
                                                                                           : "max_ns";
  const json& d = rec.contains(dir) ? rec[dir] : json();
  if (!d.is_object() || !d.contains(field) || !d[field].is_number() || !f.bound_ns) {
    f.why_not =
        std::string("the record has no ") + (f.bound_ns ? std::string(dir) + "." + field : "bound_ns");
    return f;
  }
  f.value_ns = d[field].get<double>();
  // one_way_record reports only within the limit; a record without one was held to none.
  const json& limit = rec.contains("max_error_ns") ? rec["max_error_ns"] : json();
  if (!limit.is_number())
    f.why_not = "no one_way_max_error: the error bound was held to no limit";
  else if (*f.bound_ns > limit.get<double>())
    f.why_not = "offset bound " + dur(static_cast<std::int64_t>(*f.bound_ns)) +
                " exceeds one_way_max_error " + dur(limit.get<std::int64_t>());
  return f;
}

std::string one_way_line(const json& rec) {
  if (!rec.is_object()) return "";
  const std::string client = rec.value("client", std::string("a")),
                    server = rec.value("server", std::string("b"));
  std::string offset;
  if (rec.contains("offset_ns"))
    offset = "clock offset " + server + "-" + client + " " + dur(rec["offset_ns"].get<std::int64_t>()) +
             " +- " + dur(rec["bound_ns"].get<std::int64_t>());
  if (!rec.value("reported", false))
    return "one-way not reported: " + rec.value("why_not", std::string("unknown")) +
           (offset.empty() ? "" : " (" + offset + ")");
  const auto dir = [&](const char* key, const std::string& from, const std::string& to) {
    const json& d = rec[key];
    return from + "->" + to + " p50 " + dur(d["p50_ns"].get<std::int64_t>()) + " p99 " +
           dur(d["p99_ns"].get<std::int64_t>()) + " max " + dur(d["max_ns"].get<std::int64_t>());
  };
  const std::string reverse = rec.contains("b_to_a") ? ", " + dir("b_to_a", server, client) : "";
  const std::string sampled = rec.contains("sampled") ? ", " + rec["sampled"].get<std::string>() : "";
  // The worst subscriber's record holds each figure's subscriber and no single offset.
  return "one-way " + dir("a_to_b", client, server) + reverse + ", each +- " +
         dur(rec["bound_ns"].get<std::int64_t>()) + (offset.empty() ? "" : " (" + offset + ")") + sampled;
}

}  // namespace labgate::measure

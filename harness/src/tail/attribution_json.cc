// The attribution's record in run.json.
#include "labgate/tail/attribute.h"

namespace labgate::tail {

nlohmann::json to_json(const Evidence& ev) {
  nlohmann::json x = {{"kind", ev.kind}, {"host", ev.host}, {"text", ev.text}};
  if (ev.cpu) x["cpu"] = *ev.cpu;
  if (!ev.irq.empty()) x["irq"] = ev.irq;
  if (ev.pid) {
    x["pid"] = ev.pid;
    x["comm"] = ev.comm;
  }
  return x;
}

nlohmann::json to_json(const Attribution& a) {
  nlohmann::json j;
  j["top"] = a.top;
  j["outliers_total"] = a.outliers.size();
  j["unexplained"] = a.unexplained;
  j["limits"] = a.limits;
  if (a.clock_offset)
    j["clock_offset"] = {{"ns", a.clock_offset->ns},
                         {"bound_ns", a.clock_offset->bound_ns},
                         {"of", "host b's monotonic clock minus host a's"},
                         {"source", a.clock_offset->source}};
  j["ranked"] = nlohmann::json::array();
  for (const RankedCause& r : a.ranked)
    j["ranked"].push_back({{"cause", r.key}, {"kind", r.kind}, {"count", r.count}});
  j["outliers"] = nlohmann::json::array();
  for (const OutlierCause& o : a.outliers) {
    nlohmann::json e = nlohmann::json::array();
    for (const Evidence& ev : o.evidence) e.push_back(to_json(ev));
    j["outliers"].push_back(
        {{"seq", o.seq},
         {"value_ns", o.value_ns},
         {"at_ns", o.at_ns},
         {"split", o.split},
         {"cause", o.evidence.empty() ? std::string("unexplained") : o.evidence.front().text},
         {"evidence", e}});
  }
  return j;
}

}  // namespace labgate::tail

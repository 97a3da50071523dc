// Presenting judged figures: words, direction, JUnit properties.
#include "labgate/report/figure_format.h"

#include "labgate/measure/one_way.h"

namespace labgate::report {
namespace {

struct Presented {
  const char* stat;
  const char* property;  ///< JUnit/dashboard name, unit in it
  double scale;          ///< base unit -> property unit
};

/// Dashboards' names for each figure, in the order JUnit lists them.
constexpr Presented kPresented[] = {
    {"p50", "p50_us", 1e-3},        {"p90", "p90_us", 1e-3},
    {"p99", "p99_us", 1e-3},        {"p99_9", "p99_9_us", 1e-3},
    {"p99_99", "p99_99_us", 1e-3},  {"max", "max_us", 1e-3},
    {"min", "min_us", 1e-3},        {"mean", "mean_us", 1e-3},
    {"stddev", "stddev_us", 1e-3},  {"mdev", "mdev_us", 1e-3},
    {"jitter", "jitter_us", 1e-3},  {"samples", "samples", 1},
    {"sent", "sent", 1},            {"received", "received", 1},
    {"dropped", "dropped", 1},      {"duplicated", "duplicated", 1},
    {"out_of_order", "out_of_order", 1}, {"late", "late", 1},
    {"throughput", "throughput_mbit_s", 1e-6}, {"loss", "loss_pct", 100},
    {"iops", "iops", 1},            {"failures", "failures", 1},
    {"mtu_forward", "mtu_forward_bytes", 1}, {"mtu_reverse", "mtu_reverse_bytes", 1},
    {"transaction_rate", "transaction_rate_per_s", 1},
    {"retransmits", "retransmits", 1}, {"rx_drops", "rx_drops", 1},
    {"rx_errors", "rx_errors", 1},  {"udp_rcvbuf_errors", "udp_rcvbuf_errors", 1},
};

}  // namespace

const std::vector<std::string>& known_figure_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const auto& p : kPresented) v.emplace_back(p.stat);
    return v;
  }();
  return names;
}

std::optional<std::string> figure_name_of(const std::string& name) {
  for (const auto& p : kPresented)
    if (name == p.stat || name == p.property) return std::string(p.stat);
  return std::nullopt;
}

bool higher_is_better(const std::string& stat) {
  return stat == "throughput" || stat == "iops" || stat == "mtu_forward" || stat == "mtu_reverse" ||
         stat == "transaction_rate" || stat == "samples" || stat == "received";
}

std::string figure_text(const stats::Figure& f, Units u) { return format_in_unit(f.value, f.unit, u); }

std::string figure_origin(const stats::Figure& f) {
  return f.detail.empty() ? std::string(stats::to_string(f.source))
                          : f.detail + " (" + stats::to_string(f.source) + ")";
}

/// one_way.offset_ns, one_way.bound_ns and, when reported, one_way.<host>_to_<host>.p50_ns ...,
/// else one_way.why_not: the record of labgate/measure/one_way.h as properties.
static void one_way_properties(const nlohmann::json& ow,
                               std::vector<std::pair<std::string, std::string>>& out) {
  if (!ow.is_object()) return;
  for (const char* key : {"offset_ns", "bound_ns"})
    if (ow.contains(key) && ow[key].is_number())
      out.emplace_back(std::string("one_way.") + key, ow[key].dump());
  if (!ow.value("reported", false)) {
    out.emplace_back("one_way.why_not", ow.value("why_not", std::string()));
    return;
  }
  const std::string a = ow.value("client", std::string("a")), b = ow.value("server", std::string("b"));
  for (const auto& [key, name] : {std::pair<const char*, std::string>{"a_to_b", a + "_to_" + b},
                                  std::pair<const char*, std::string>{"b_to_a", b + "_to_" + a}})
    for (const char* stat : {"p50_ns", "p99_ns", "max_ns"})
      if (ow.contains(key) && ow[key].contains(stat))
        out.emplace_back("one_way." + name + "." + stat, ow[key][stat].dump());
  // A feed's worst record: whose each figure is.
  if (ow.contains("worst") && ow["worst"].is_object())
    for (const auto& [stat, who] : ow["worst"].items())
      out.emplace_back("one_way.worst." + stat, who.is_string() ? who.get<std::string>() : who.dump());
  if (ow.contains("sampled") && ow["sampled"].is_string())
    out.emplace_back("one_way.sampled", ow["sampled"].get<std::string>());
}

std::vector<std::pair<std::string, std::string>> junit_properties(const results::TestRecord& t) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& p : kPresented) {
    const stats::Figure* f = t.figures.find(p.stat);
    if (!f) continue;
    out.emplace_back(p.property, format_plain(f->value * p.scale));
    out.emplace_back(std::string(p.property) + ".source", figure_origin(*f));
  }
  if (t.accounting.checked) {
    out.emplace_back("accounting", t.accounting.pass ? "pass" : "fail");
    out.emplace_back("accounting.message", t.accounting.message);
  }
  if (t.duration_s > 0) out.emplace_back("duration_s", format_plain(t.duration_s));
  out.emplace_back("conforming", results::to_string(t.conformance));
  // Pairs of one round shared the switch at the same time: say so beside the figures.
  if (!t.mesh_schedule.empty()) out.emplace_back("labgate.mesh_schedule", t.mesh_schedule);
  if (t.round > 0) out.emplace_back("labgate.round", std::to_string(t.round));
  one_way_properties(measure::one_way_of_record(t.measurement), out);
  return out;
}

}  // namespace labgate::report

// The judged figures of a measurement and their JSON form.
#include "labgate/stats/figure.h"

#include <cmath>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace labgate::stats {

const char* to_string(FigureSource s) {
  switch (s) {
    case FigureSource::kHistogram: return "histogram";
    case FigureSource::kTool: return "tool";
    case FigureSource::kProbe: return "probe";
    case FigureSource::kCounters: return "counters";
  }
  return "unknown";
}

std::optional<FigureSource> parse_figure_source(std::string_view s) {
  for (FigureSource f : {FigureSource::kHistogram, FigureSource::kTool, FigureSource::kProbe, FigureSource::kCounters})
    if (s == to_string(f)) return f;
  return std::nullopt;
}

const Figure* FigureSet::find(std::string_view stat) const {
  for (const Figure& f : list_)
    if (f.stat == stat) return &f;
  return nullptr;
}

std::optional<double> FigureSet::value(std::string_view stat) const {
  const Figure* f = find(stat);
  if (!f) return std::nullopt;
  return f->value;
}

void FigureSet::put(Figure f) {
  for (Figure& have : list_)
    if (have.stat == f.stat) {
      have = std::move(f);
      return;
    }
  list_.push_back(std::move(f));
}

void FigureSet::erase(std::string_view stat) {
  std::erase_if(list_, [&](const Figure& f) { return f.stat == stat; });
}

nlohmann::json to_json(const FigureSet& set) {
  // An array, so the judge's order (p50, p90, ... samples, dropped) survives run.json.
  nlohmann::json j = nlohmann::json::array();
  for (const Figure& f : set.list())
    j.push_back({{"stat", f.stat}, {"value", f.value}, {"unit", f.unit}, {"source", to_string(f.source)},
                 {"detail", f.detail}});
  return j;
}

namespace {
[[noreturn]] void bad(const std::string& path, const std::string& what) {
  throw std::invalid_argument(path + ": " + what);
}
const nlohmann::json& member(const nlohmann::json& j, const std::string& path, const char* key) {
  const auto it = j.find(key);
  if (it == j.end()) bad(path + "." + key, "missing");
  return *it;
}
std::string text(const nlohmann::json& j, const std::string& path, const char* key) {
  const auto& v = member(j, path, key);
  if (!v.is_string()) bad(path + "." + key, std::string("expected a string, got ") + v.type_name());
  return v.get<std::string>();
}
}  // namespace

nlohmann::json to_json(const SampleAccounting& a) {
  return {{"checked", a.checked},
          {"expected", a.expected ? nlohmann::json(*a.expected) : nlohmann::json(nullptr)},
          {"held", a.held},
          {"tolerance", a.tolerance},
          {"pass", a.pass},
          {"message", a.message}};
}

SampleAccounting sample_accounting_from_json(const nlohmann::json& j, const std::string& path) {
  if (!j.is_object()) bad(path, std::string("expected an object, got ") + j.type_name());
  auto number = [&](const char* key) {
    const auto& v = member(j, path, key);
    if (!v.is_number()) bad(path + "." + key, std::string("expected a number, got ") + v.type_name());
    return v.get<double>();
  };
  auto flag = [&](const char* key) {
    const auto& v = member(j, path, key);
    if (!v.is_boolean()) bad(path + "." + key, std::string("expected true or false, got ") + v.type_name());
    return v.get<bool>();
  };
  SampleAccounting a;
  a.checked = flag("checked");
  if (const auto it = j.find("expected"); it != j.end() && !it->is_null()) a.expected = number("expected");
  a.held = number("held");
  a.tolerance = number("tolerance");
  a.pass = flag("pass");
  a.message = text(j, path, "message");
  return a;
}

FigureSet figure_set_from_json(const nlohmann::json& j, const std::string& path) {
  if (!j.is_array()) bad(path, std::string("expected an array, got ") + j.type_name());
  FigureSet set;
  for (std::size_t i = 0; i < j.size(); ++i) {
    const nlohmann::json& f = j[i];
    const std::string indexed = path + "[" + std::to_string(i) + "]";
    if (!f.is_object()) bad(indexed, std::string("expected an object, got ") + f.type_name());
    const std::string stat = text(f, indexed, "stat");
    const std::string at = path + "." + stat;
    const auto& v = member(f, at, "value");
    if (!v.is_number() || !std::isfinite(v.get<double>()))
      bad(at + ".value", std::string("expected a finite number, got ") + v.dump());
    const auto source = parse_figure_source(text(f, at, "source"));
    if (!source) bad(at + ".source", "expected histogram, tool, probe or counters");
    set.put({stat, v.get<double>(), text(f, at, "unit"), *source, text(f, at, "detail")});
  }
  return set;
}

}  // namespace labgate::stats

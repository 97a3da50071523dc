// Reading the probes' outlier stores and the noise watch's windows.
#include "labgate/tail/tail_records.h"

#include <stdexcept>

#include "labgate/util/json_reader.h"

namespace labgate::tail {
namespace {

using nlohmann::json;
using util::JsonReader;

std::optional<std::uint64_t> opt_u64(const JsonReader& r, const char* key) { return r.opt_count(key); }

std::optional<int> opt_cpu(const JsonReader& r, const char* key) {
  const std::optional<long long> v = r.opt_int(key);
  if (!v) return std::nullopt;
  if (*v < 0 || *v > 65535) r.fail(key, "is not a CPU number");
  return static_cast<int>(*v);
}

/// [a, b, c] of non-negative integers, exactly `n` long (null allowed at `nullable`).
std::vector<std::optional<std::uint64_t>> tuple(const json& v, std::size_t n, const std::string& path,
                                                int nullable = -1) {
  if (!v.is_array() || v.size() != n)
    throw std::invalid_argument(path + ": is not an array of " + std::to_string(n) + " numbers");
  std::vector<std::optional<std::uint64_t>> out;
  for (std::size_t i = 0; i < n; ++i) {
    if (v[i].is_null() && static_cast<int>(i) == nullable) {
      out.push_back(std::nullopt);
      continue;
    }
    if (!v[i].is_number_unsigned())
      throw std::invalid_argument(path + "[" + std::to_string(i) + "]: is not a count");
    out.push_back(v[i].get<std::uint64_t>());
  }
  return out;
}

std::string name_at(const std::vector<std::string>& names, std::uint64_t i, const std::string& path) {
  if (i >= names.size())
    throw std::invalid_argument(path + ": name index " + std::to_string(i) + " is unknown");
  return names[i];
}

int cpu_at(const std::vector<int>& cpus, std::uint64_t i, const std::string& path) {
  if (i >= cpus.size())
    throw std::invalid_argument(path + ": CPU index " + std::to_string(i) + " is not watched");
  return cpus[i];
}

std::vector<std::string> strings(const JsonReader& r, const char* key) {
  std::vector<std::string> out;
  const json& a = r.array(key);
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!a[i].is_string()) r.fail(key, "element " + std::to_string(i) + " is not a string");
    out.push_back(a[i].get<std::string>());
  }
  return out;
}

WatchWindow read_window(const JsonReader& w, const WatchOutput& out,
                        const std::vector<std::string>& irq_names,
                        const std::vector<std::string>& softirq_names, const std::vector<TaskRun>& tasks) {
  WatchWindow win;
  win.t0 = w.count("t0");
  win.t1 = w.count("t1");
  win.tasks_since = w.count("tasks_since");
  const std::optional<std::uint64_t> irq_since = w.opt_count("irq_since");
  win.irq_read = irq_since.has_value() || !out.irq_every;
  win.irq_since = irq_since.value_or(win.t0);
  if (win.irq_since > win.t1) w.fail("irq_since", "is after t1");
  win.items_dropped = w.count("items_dropped");
  if (win.t1 < win.t0) w.fail("t1", "is before t0");
  const json& cpu = w.array("cpu");
  if (cpu.size() != out.cpus.size()) w.fail("cpu", "does not have one entry per watched CPU");
  for (std::size_t i = 0; i < cpu.size(); ++i) {
    const auto t = tuple(cpu[i], 4, w.path_of("cpu") + "[" + std::to_string(i) + "]", 3);
    win.cpu.push_back({*t[0], *t[1], *t[2], t[3]});
  }
  const auto named = [&](const char* key, const std::vector<std::string>& names,
                         std::vector<NamedCount>& into) {
    const json& a = w.array(key);
    for (std::size_t i = 0; i < a.size(); ++i) {
      const std::string path = w.path_of(key) + "[" + std::to_string(i) + "]";
      const auto t = tuple(a[i], 3, path);
      into.push_back({cpu_at(out.cpus, *t[0], path), name_at(names, *t[1], path), *t[2]});
    }
  };
  named("irq", irq_names, win.irq);
  named("softirq", softirq_names, win.softirq);
  const json& a = w.array("tasks");
  for (std::size_t i = 0; i < a.size(); ++i) {
    const std::string path = w.path_of("tasks") + "[" + std::to_string(i) + "]";
    const auto t = tuple(a[i], 3, path);
    if (*t[1] >= tasks.size()) throw std::invalid_argument(path + ": task index is unknown");
    TaskRun run = tasks[*t[1]];
    run.cpu = cpu_at(out.cpus, *t[0], path);
    run.ran_ns = *t[2];
    win.tasks.push_back(run);
  }
  return win;
}

}  // namespace

int WatchOutput::index_of(int cpu) const {
  for (std::size_t i = 0; i < cpus.size(); ++i)
    if (cpus[i] == cpu) return static_cast<int>(i);
  return -1;
}

OutlierSet parse_outliers(const json& doc, const char* member, const std::string& what) {
  try {
    const JsonReader root(doc, "");
    const JsonReader o = root.object(member);
    OutlierSet s;
    s.threshold_ns = o.count("threshold_ns");
    s.floor_ns = o.count("floor_ns");
    s.over_threshold = o.count("over_threshold");
    s.over_not_kept = o.count("over_not_kept");
    const json& items = o.array("items");
    for (std::size_t i = 0; i < items.size(); ++i) {
      const JsonReader it = o.element("items", i);
      OutlierRecord r;
      r.seq = it.count("seq");
      r.at_ns = it.count("at_ns");
      r.value_ns = it.count("value_ns");
      r.worst = it.boolean("worst");
      r.over = it.boolean("over");
      r.sock_wait_ns = opt_u64(it, "sock_wait_ns");
      r.cpu_before = opt_cpu(it, "cpu_before");
      r.cpu_after = opt_cpu(it, "cpu_after");
      r.ctx_from_seq = it.count("ctx_from_seq");
      r.voluntary = opt_u64(it, "voluntary");
      r.involuntary = opt_u64(it, "involuntary");
      if (r.ctx_from_seq > r.seq) it.fail("ctx_from_seq", "is after seq");
      s.items.push_back(r);
    }
    const JsonReader src = root.object("outlier_sources");
    s.cpu_source = src.str("cpu");
    s.switches_source = src.str("context_switches");
    s.sock_wait_source = src.str("sock_wait");
    return s;
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(what + ": " + e.what());
  }
}

WatchOutput parse_watch(std::string_view text, const std::string& host) {
  const std::string what = "watch output from " + host;
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::exception& e) {
    throw std::invalid_argument(what + ": not one JSON document (" + e.what() + ")");
  }
  try {
    const JsonReader r(doc, "");
    if (r.str("format") != "labgate-probe-1" || r.str("probe") != "watch")
      r.fail_here("is not a labgate-probe-1 watch document");
    if (r.str("status") != "ok") r.fail("status", "is not \"ok\"");
    WatchOutput out;
    out.host = host;
    const JsonReader p = r.object("parameters");
    for (const json& c : p.array("cpus")) {
      if (!c.is_number_unsigned()) p.fail("cpus", "holds something that is not a CPU number");
      out.cpus.push_back(c.get<int>());
    }
    out.user_hz = p.integer("user_hz");
    out.irq_every = p.has("irq_every");
    if (out.user_hz <= 0) p.fail("user_hz", "is not positive");
    const JsonReader src = r.object("sources");
    out.softirq_source = src.str("softirqs");
    out.smi_source = src.str("smi");
    out.task_source = src.str("tasks");
    const JsonReader names = r.object("names");
    const std::vector<std::string> irq_names = strings(names, "irq"),
                                   softirq_names = strings(names, "softirq");
    std::vector<TaskRun> tasks;
    const json& ta = r.array("tasks");
    for (std::size_t i = 0; i < ta.size(); ++i) {
      const JsonReader t = r.element("tasks", i);
      tasks.push_back({0, t.integer("pid"), t.str("comm"), 0});
    }
    out.windows_not_kept = r.count("windows_not_kept");
    if (r.has("placement")) out.placement = r.str("placement");
    const json& ws = r.array("windows");
    for (std::size_t i = 0; i < ws.size(); ++i)
      out.windows.push_back(read_window(r.element("windows", i), out, irq_names, softirq_names, tasks));
    return out;
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(what + ": " + e.what());
  }
}

}  // namespace labgate::tail

// Reading [preconditions]: the expected environment of every host (or of the
// hosts it names), checked for types and for names the facts probe can compare.
#include <algorithm>
#include <set>

#include "labgate/profile/cpu_list.h"
#include "sections.h"
#include "suggest.h"

namespace labgate::profile::detail {
namespace {

bool is_word(std::string_view s) {
  return !s.empty() &&
         std::none_of(s.begin(), s.end(), [](char c) { return c == ' ' || c == '\t' || c == '\n'; });
}

// A string list whose every element is a non-empty word; errors name the index.
std::vector<std::string> read_words(TableReader& r, std::string_view key, const char* example) {
  auto v = r.get_strings(key);
  if (!v) return {};
  std::vector<std::string> out;
  for (std::size_t i = 0; i < v->size(); ++i) {
    if (is_word((*v)[i]))
      out.push_back((*v)[i]);
    else
      r.diag().error(r.get(key)->children[i].pos, r.key_path(key) + "[" + std::to_string(i) + "]",
                     std::string("expected a single word like \"") + example + "\"");
  }
  return out;
}

CmdlineRule read_cmdline(const Node& n, Diagnostics& d) {
  TableReader r(&n, "preconditions.kernel_cmdline", d);
  CmdlineRule rule;
  rule.present = read_words(r, "present", "nosoftlockup");
  rule.absent = read_words(r, "absent", "quiet");
  for (const std::string& w : rule.present)
    if (std::find(rule.absent.begin(), rule.absent.end(), w) != rule.absent.end())
      d.error(n.pos, r.path(), "\"" + w + "\" is both present and absent");
  r.finish();
  return rule;
}

void read_same_on_all_hosts(TableReader& r, Preconditions& pre) {
  const std::vector<std::string> words = read_words(r, "same_on_all_hosts", "kernel_release");
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    if (is_known_fact_path(w)) {
      pre.same_on_all_hosts.push_back(w);
      continue;
    }
    // Offer the patterns with this entry's own module/interface name filled in.
    const std::size_t dot1 = w.find('.'), dot2 = w.rfind('.');
    const std::string middle = dot1 != dot2 ? w.substr(dot1 + 1, dot2 - dot1 - 1) : "NAME";
    std::vector<std::string> candidates;
    for (std::string c : same_on_all_hosts_paths()) {
      if (auto open = c.find('<'); open != std::string::npos) c.replace(open, c.find('>') - open + 1, middle);
      candidates.push_back(c);
    }
    std::string msg = "\"" + w + "\" is not a fact that can be compared";
    if (auto s = closest(w, candidates)) msg += "; did you mean \"" + *s + "\"?";
    msg += " Known: " + join(same_on_all_hosts_paths());
    r.diag().error(r.get("same_on_all_hosts")->children[i].pos, r.key_path("same_on_all_hosts"), msg);
  }
}

// Adds "a.b.c" = value for every leaf, so both "net.ipv4.tcp_sack" = 0 and a
// bare dotted key net.ipv4.tcp_sack = 0 (which TOML nests) mean the same sysctl.
void flatten_sysctl(const Node& n, const std::string& prefix, Preconditions& pre, Diagnostics& d) {
  for (const Node& c : n.children) {
    const std::string name = prefix.empty() ? c.key : prefix + "." + c.key;
    const std::string key = join_key("preconditions.sysctl", name);
    if (c.is_table()) {
      flatten_sysctl(c, name, pre, d);
      continue;
    }
    SysctlExpectation e{name, {}, c.pos};
    if (c.type == Node::Type::kInteger) {
      e.fields.push_back(std::to_string(c.integer));
    } else if (c.type == Node::Type::kString) {
      std::string field;
      for (char ch : c.text + " ") {
        if (ch == ' ' || ch == '\t') {
          if (!field.empty()) e.fields.push_back(field);
          field.clear();
        } else {
          field += ch;
        }
      }
      if (e.fields.empty()) {
        d.error(c.pos, key, "empty value; expected a number or fields like \"4096 87380 16777216\"");
        continue;
      }
    } else {
      wrong_type(c, key, "an integer or a string like \"4096 87380 16777216\"", d);
      continue;
    }
    pre.sysctl.push_back(std::move(e));
  }
}

// parameters = { tg3_disable_eee = "1" }: values are strings (or integers, as text).
std::map<std::string, std::string> read_string_map(const Node* n, const std::string& key, Diagnostics& d) {
  std::map<std::string, std::string> out;
  if (!n) return out;
  for (const Node& c : n->children) {
    if (c.type == Node::Type::kString)
      out[c.key] = c.text;
    else if (c.type == Node::Type::kInteger)
      out[c.key] = std::to_string(c.integer);
    else
      wrong_type(c, join_key(key, c.key), "a string like \"1\"", d);
  }
  return out;
}

ModuleRule read_module(const Node& n, Diagnostics& d) {
  ModuleRule m;
  m.name = n.key;
  m.pos = n.header ? n.pos : n.key_pos;
  TableReader r(&n, join_key("preconditions.modules", n.key), d);
  m.loaded = r.get_bool("loaded");
  m.version = r.get_string("version");
  m.parameters = read_string_map(r.get_table("parameters"), r.key_path("parameters"), d);
  m.configured = read_string_map(r.get_table("configured"), r.key_path("configured"), d);
  r.finish();
  if (n.children.empty())
    d.error(m.pos, r.path(), "checks nothing; set loaded, version, parameters or configured");
  return m;
}

// "100Gbit/s", "25000Mb/s", "1000" or 1000 (Mb/s) -> Mb/s.
std::optional<long long> speed_of(const Node& v) {
  if (v.type == Node::Type::kInteger) return v.integer > 0 ? std::optional<long long>(v.integer) : std::nullopt;
  if (v.type != Node::Type::kString) return std::nullopt;
  std::size_t used = 0;
  long long n = 0;
  try {
    n = std::stoll(v.text, &used);
  } catch (...) {
    return std::nullopt;
  }
  const std::string unit = v.text.substr(used);
  if (n <= 0) return std::nullopt;
  if (unit.empty() || unit == "Mbit/s" || unit == "Mb/s") return n;
  if (unit == "Gbit/s" || unit == "Gb/s") return n * 1000;
  return std::nullopt;
}

void read_link(TableReader& r, InterfaceRule& i, Diagnostics& d) {
  const Node* n = r.get("link");
  if (!n) return;
  auto state = [&](const Node& v, const std::string& key) {
    if (v.type == Node::Type::kString && (v.text == "up" || v.text == "down"))
      i.link = v.text;
    else
      d.error(v.pos, key, "expected \"up\" or \"down\", found " + v.brief());
  };
  if (!n->is_table()) {
    state(*n, r.key_path("link"));
    return;
  }
  TableReader t(n, r.key_path("link"), d);
  if (const Node* v = t.get("state")) state(*v, t.key_path("state"));
  if (const Node* v = t.get("speed")) {
    i.speed_mbps = speed_of(*v);
    if (!i.speed_mbps) d.error(v->pos, t.key_path("speed"), "expected a speed like \"100Gbit/s\" or \"1000Mb/s\", found " + v->brief());
  }
  if (auto v = t.get_string("duplex")) {
    if (*v == "full" || *v == "half")
      i.duplex = *v;
    else
      d.error(t.get("duplex")->pos, t.key_path("duplex"), "expected \"full\" or \"half\", found \"" + *v + "\"");
  }
  t.finish();
}

// coalesce = { rx_usecs = 0, adaptive_rx = false }: each field of its group, as the facts show it.
void read_settings(TableReader& r, const char* group, InterfaceRule& i, Diagnostics& d) {
  const Node* n = r.get_table(group);
  if (!n) return;
  TableReader t(n, r.key_path(group), d);
  std::map<std::string, std::string>& out = i.settings[group];
  for (const SettingField& f : interface_setting_fields()) {
    if (std::string_view(f.group) != group) continue;
    if (f.is_switch) {
      if (auto v = t.get_bool(f.field)) out[f.field] = *v ? "on" : "off";
    } else if (auto v = t.get_int(f.field, 0, 1 << 24)) {
      out[f.field] = std::to_string(*v);
    }
  }
  t.finish();
  if (n->children.empty()) d.error(n->pos, t.path(), "checks nothing; name a field");
}

std::optional<std::string> read_cpu_list(TableReader& r, std::string_view key) {
  auto v = r.get_string(key);
  if (!v) return std::nullopt;
  if (!parse_cpu_list(*v)) {
    r.diag().error(r.get(key)->pos, r.key_path(key),
                   "expected a CPU list like \"2-15\" or \"0,2,4-7\", found \"" + *v + "\"");
    return std::nullopt;
  }
  return v;
}

// multicast = { flag, route, rp_filter, force_igmp_version, igmp_max_memberships }.
MulticastRule read_multicast(TableReader& r, const Node& n, Diagnostics& d) {
  TableReader t(&n, r.key_path("multicast"), d);
  MulticastRule m;
  m.flag = t.get_bool("flag");
  m.route = t.get_bool("route");
  if (auto v = t.get_string("rp_filter")) {
    if (*v == "off" || *v == "loose" || *v == "strict")
      m.rp_filter = *v;
    else
      d.error(t.get("rp_filter")->pos, t.key_path("rp_filter"),
              "expected \"off\", \"loose\" or \"strict\", found \"" + *v + "\"");
  }
  if (auto v = t.get_int("force_igmp_version", 0, 3)) m.force_igmp_version = static_cast<int>(*v);
  m.igmp_max_memberships = t.get_int("igmp_max_memberships", 1, 1 << 20);
  t.finish();
  if (n.children.empty()) d.error(n.pos, t.path(), "checks nothing; name a field");
  return m;
}

InterfaceRule read_interface(const Node& n, Diagnostics& d) {
  InterfaceRule i;
  i.name = n.key;
  i.pos = n.header ? n.pos : n.key_pos;
  TableReader r(&n, join_key("preconditions.interfaces", n.key), d);
  i.driver = r.get_string("driver");
  i.driver_version = r.get_string("driver_version");
  i.firmware_version = r.get_string("firmware_version");
  if (auto mtu = r.get_int("mtu", 68, 65535)) i.mtu = static_cast<int>(*mtu);
  read_link(r, i, d);
  for (const char* g : {"coalesce", "ring", "channels", "offload", "pause"}) read_settings(r, g, i, d);
  if (auto v = r.get_int("numa_node", 0, 1023)) i.numa_node = static_cast<int>(*v);
  i.irq_cpus = read_cpu_list(r, "irq_cpus");
  i.network = r.get_string("network");
  if (const Node* m = r.get_table("multicast")) i.multicast = read_multicast(r, *m, d);
  r.finish();
  if (n.children.empty())
    d.error(i.pos, r.path(),
            "checks nothing; set driver, driver_version, firmware_version, mtu, link, coalesce, ring, channels, "
            "offload, pause, numa_node, irq_cpus, network or multicast");
  return i;
}

// [preconditions.modules] / [preconditions.interfaces]: one sub-table per name.
template <typename Rule, typename ReadOne>
std::vector<Rule> read_named_tables(const Node* n, const std::string& key, Diagnostics& d, ReadOne read_one) {
  std::vector<Rule> out;
  if (!n) return out;
  for (const Node& c : n->children) {
    if (!c.is_table()) {
      wrong_type(c, join_key(key, c.key), "a table like [" + join_key(key, "NAME") + "]", d);
      continue;
    }
    out.push_back(read_one(c, d));
  }
  return out;
}

CpuRule read_cpu(const Node& n, Diagnostics& d) {
  TableReader r(&n, "preconditions.cpu", d);
  CpuRule cpu;
  cpu.hyperthreading = r.get_bool("hyperthreading");
  if (auto v = r.get_int("max_cstate", 0, 100)) cpu.max_cstate = static_cast<int>(*v);
  cpu.governor = r.get_string("governor");
  cpu.isolated = read_cpu_list(r, "isolated");
  cpu.nohz_full = read_cpu_list(r, "nohz_full");
  cpu.clocksource = r.get_string("clocksource");
  if (auto v = r.get_string("transparent_hugepage")) {
    if (*v == "never" || *v == "madvise" || *v == "always")
      cpu.transparent_hugepage = *v;
    else
      d.error(r.get("transparent_hugepage")->pos, r.key_path("transparent_hugepage"),
              "expected \"never\", \"madvise\" or \"always\", found \"" + *v + "\"");
  }
  cpu.tuned_profile = r.get_string("tuned_profile");
  cpu.test_cpus_isolated = r.get_bool("test_cpus_isolated").value_or(false);
  cpu.test_cpus_nic_local = r.get_bool("test_cpus_nic_local").value_or(false);
  r.finish();
  return cpu;
}

// [preconditions.clock]: synchronized, max_error, source.
ClockRule read_clock(const Node& n, Diagnostics& d) {
  TableReader r(&n, "preconditions.clock", d);
  ClockRule c;
  c.pos = n.header ? n.pos : n.key_pos;
  c.synchronized = r.get_bool("synchronized");
  if (c.synchronized) c.synchronized_pos = r.get("synchronized")->pos;
  if (const Node* v = r.get("max_error")) {
    c.max_error = read_duration(*v, r.key_path("max_error"), d);
    c.max_error_pos = v->pos;
    if (c.max_error && c.max_error->count() <= 0) {
      d.error(v->pos, r.key_path("max_error"), "expected a bound above zero like \"100us\"");
      c.max_error.reset();
    }
  }
  if (auto v = r.get_string("source")) {
    c.source_pos = r.get("source")->pos;
    if (*v == "chrony" || *v == "ntpd" || *v == "ptp4l" || *v == "any")
      c.source = *v;
    else
      d.error(c.source_pos, r.key_path("source"),
              "expected \"chrony\", \"ntpd\", \"ptp4l\" or \"any\", found \"" + *v + "\"");
  }
  r.finish();
  if (n.children.empty()) d.error(c.pos, r.path(), "checks nothing; set synchronized, max_error or source");
  return c;
}

// [preconditions.bios]: NAME = "value" as conrep -s names them.
std::vector<BiosExpectation> read_bios(const Node& n, Diagnostics& d) {
  std::vector<BiosExpectation> out;
  for (const Node& c : n.children) {
    const std::string key = join_key("preconditions.bios", c.key);
    if (c.type != Node::Type::kString) {
      wrong_type(c, key, "a string as conrep -s prints it, like \"Disabled\"", d);
      continue;
    }
    if (c.text.empty() || c.text.find_first_of("\n\r") != std::string::npos) {
      d.error(c.pos, key, "expected one line of text as conrep -s prints it, like \"Disabled\"");
      continue;
    }
    out.push_back(BiosExpectation{c.key, c.text, c.key_pos});
  }
  return out;
}

// network = "direct" on an interface must name a network some host has.
void check_interface_networks(const Profile& p, Diagnostics& d) {
  std::set<std::string> known;
  for (const Host& h : p.hosts)
    for (const TestNetwork& n : h.networks) known.insert(n.name);
  for (const InterfaceRule& i : p.preconditions.interfaces) {
    if (!i.network || known.count(*i.network)) continue;
    const std::vector<std::string> names(known.begin(), known.end());
    d.error(i.pos, join_key(join_key("preconditions.interfaces", i.name), "network"),
            "\"" + *i.network + "\" is not a test network of any host" +
                (names.empty() ? std::string("; name networks with test_address = { direct = \"...\" }")
                               : "; known: " + join(names)));
  }
}

}  // namespace

void read_preconditions(const Node* pre_node, Profile& p, Diagnostics& d) {
  if (pre_node && !pre_node->is_table()) {
    wrong_type(*pre_node, "preconditions", "a table", d);
    return;
  }
  TableReader r(pre_node, "preconditions", d);
  Preconditions& pre = p.preconditions;
  std::set<std::string> seen;
  for (const std::string& h : read_words(r, "hosts", "a")) {
    const SourcePos pos = r.get("hosts")->pos;
    if (!seen.insert(h).second)
      d.error(pos, "preconditions.hosts", "\"" + h + "\" is listed twice");
    else if (check_host_ref(p, h, pos, "preconditions.hosts", d))
      pre.hosts.push_back(h);
  }
  pre.os_release = r.get_string("os_release");
  pre.kernel_release = r.get_string("kernel_release");
  if (const Node* n = r.get_table("kernel_cmdline")) pre.kernel_cmdline = read_cmdline(*n, d);
  read_same_on_all_hosts(r, pre);
  if (const Node* n = r.get_table("sysctl")) flatten_sysctl(*n, "", pre, d);
  pre.modules =
      read_named_tables<ModuleRule>(r.get_table("modules"), "preconditions.modules", d, read_module);
  pre.interfaces = read_named_tables<InterfaceRule>(r.get_table("interfaces"), "preconditions.interfaces", d,
                                                    read_interface);
  if (const Node* n = r.get_table("services")) {
    TableReader s(n, "preconditions.services", d);
    pre.services_disabled = read_words(s, "disabled", "cups");
    pre.services_enabled = read_words(s, "enabled", "tuned");
    for (const std::string& e : pre.services_enabled)
      if (std::find(pre.services_disabled.begin(), pre.services_disabled.end(), e) != pre.services_disabled.end())
        d.error(n->pos, "preconditions.services", "\"" + e + "\" is both enabled and disabled");
    s.finish();
  }
  if (const Node* n = r.get_table("cpu")) pre.cpu = read_cpu(*n, d);
  if (const Node* n = r.get_table("clock")) pre.clock = read_clock(*n, d);
  if (const Node* n = r.get_table("bios")) pre.bios = read_bios(*n, d);
  if (auto v = r.get_bool("buffers_cover_bdp")) {
    pre.buffers_cover_bdp = *v;
    pre.buffers_cover_bdp_pos = r.get("buffers_cover_bdp")->pos;
  }
  r.finish();
  check_interface_networks(p, d);
}

}  // namespace labgate::profile::detail

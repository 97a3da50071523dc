// Parsing a facts snapshot into the typed model (see parse.h).
#include "labgate/facts/parse.h"

#include <nlohmann/json.hpp>

#include "labgate/facts/clock_daemons.h"
#include "labgate/util/excerpt.h"
#include "reader.h"

namespace labgate::facts {
namespace {

using internal::join;
using internal::Reader;
using nlohmann::json;

// nlohmann's parser recurses per nesting level; a hostile "[[[[..." of a few
// MiB would exhaust the stack. The snapshot nests 6 deep; refuse past 64.
constexpr int kMaxDepth = 64;

bool too_deep(std::string_view text) {
  int depth = 0;
  bool in_string = false, escaped = false;
  for (char c : text) {
    if (in_string) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxDepth) return true;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return false;
}

void read_os(const Reader& r, const json& top, Facts& f) {
  const json& os = top.at("os");
  r.expect_object(os, "os");
  f.os.redhat_release = r.text(os, "os", "redhat_release");
  f.os.pretty_name = r.text(os, "os", "pretty_name");
  f.os.id = r.text(os, "os", "id");
  f.os.version_id = r.text(os, "os", "version_id");
}

void read_kernel(const Reader& r, const json& top, Facts& f) {
  const json& k = top.at("kernel");
  r.expect_object(k, "kernel");
  f.kernel.release = r.text(k, "kernel", "release");
  f.kernel.version = r.text(k, "kernel", "version");
  f.kernel.cmdline = r.text(k, "kernel", "cmdline");
}

void read_boot(const Reader& r, const json& top, Facts& f) {
  const json& b = top.at("boot");
  r.expect_object(b, "boot");
  f.boot.loader = r.text(b, "boot", "loader");
  f.boot.default_entry = r.integer(b, "boot", "default_entry");
  f.boot.default_title = r.text(b, "boot", "default_title");
  f.boot.kernel_image = r.text(b, "boot", "kernel_image");
  f.boot.kernel_args = r.text(b, "boot", "kernel_args");
}

void read_modules(const Reader& r, const json& top, Facts& f) {
  const json& m = top.at("modules");
  r.expect_object(m, "modules");
  f.loaded_modules = r.strings(m, "modules", "loaded_list");
  const json* items = r.member(m, "modules", "items");
  if (!items) return;
  r.expect_object(*items, "modules.items");
  for (auto it = items->begin(); it != items->end(); ++it) {
    const std::string path = join("modules.items", it.key());
    r.expect_object(*it, path);
    ModuleFacts mf;
    mf.loaded = r.boolean(*it, path, "loaded");
    mf.version = r.text(*it, path, "version");
    mf.parameters = r.text_map(*it, path, "parameters");
    mf.configured = r.text_map(*it, path, "configured");
    f.modules[it.key()] = std::move(mf);
  }
}

void read_interfaces(const Reader& r, const json& top, Facts& f) {
  const json& all = top.at("interfaces");
  r.expect_object(all, "interfaces");
  for (auto it = all.begin(); it != all.end(); ++it) {
    const std::string path = join("interfaces", it.key());
    r.expect_object(*it, path);
    InterfaceFacts i;
    i.exists = r.boolean(*it, path, "exists");
    i.driver = r.text(*it, path, "driver");
    i.driver_version = r.text(*it, path, "driver_version");
    i.firmware_version = r.text(*it, path, "firmware_version");
    i.bus = r.text(*it, path, "bus");
    i.speed_mbps = r.integer(*it, path, "speed_mbps");
    i.mtu = r.integer(*it, path, "mtu");
    i.admin = r.text(*it, path, "admin");
    i.link = r.text(*it, path, "link");
    i.ipv4_address = r.text(*it, path, "ipv4_address");
    if (it->contains("ipv6_addresses")) i.ipv6_addresses = r.strings(*it, path, "ipv6_addresses");
    i.multicast = r.boolean(*it, path, "multicast");
    i.multicast_route = r.boolean(*it, path, "multicast_route");
    i.duplex = r.text(*it, path, "duplex");
    i.coalesce = r.settings(*it, path, "coalesce");
    i.ring = r.settings(*it, path, "ring");
    i.channels = r.settings(*it, path, "channels");
    i.offload = r.settings(*it, path, "offload");
    i.pause = r.settings(*it, path, "pause");
    i.numa_node = r.integer(*it, path, "numa_node");
    i.irqs = r.strings(*it, path, "irqs");
    i.irq_affinity = r.text_map(*it, path, "irq_affinity");
    i.irq_managed = r.bool_map(*it, path, "irq_managed");
    f.interfaces[it.key()] = std::move(i);
  }
}

void read_services(const Reader& r, const json& top, Facts& f) {
  const json& s = top.at("services");
  r.expect_object(s, "services");
  f.services.init = r.text(s, "services", "init");
  f.services.default_runlevel = r.integer(s, "services", "default_runlevel");
  const json* units = r.member(s, "services", "units");
  if (!units) return;
  r.expect_object(*units, "services.units");
  for (auto it = units->begin(); it != units->end(); ++it) {
    const std::string path = join("services.units", it.key());
    r.expect_object(*it, path);
    ServiceFacts u;
    u.kind = r.string(*it, path, "kind");
    if (u.kind != "sysv" && u.kind != "xinetd" && u.kind != "systemd" && u.kind != "absent")
      r.fail(join(path, "kind"), "unknown kind \"" + u.kind + "\"");
    u.running = r.boolean(*it, path, "running");
    if (u.kind == "sysv") {
      u.installed = r.boolean(*it, path, "installed");
      u.runlevels = r.optional_strings(*it, path, "runlevels");
      if (u.runlevels.value && u.runlevels.value->size() != 7)
        r.fail(join(path, "runlevels.value"),
               "expected 7 runlevels, got " + std::to_string(u.runlevels.value->size()));
      const json* rl = r.member(*it, path, "runlevels");
      if (const json* links = rl ? r.member(*rl, join(path, "runlevels"), "links") : nullptr) {
        if (!links->is_array() || links->size() != 7)
          r.fail(join(path, "runlevels.links"), "expected an array of 7");
        for (const json& l : *links)
          u.links.push_back(l.is_string() ? std::optional(l.get<std::string>()) : std::nullopt);
      }
    } else {
      u.enabled = r.text(*it, path, "enabled");
      if (u.kind == "systemd") {
        u.unit = r.string(*it, path, "unit");
        u.unit_file = r.text(*it, path, "unit_file");
      }
    }
    f.services.units[it.key()] = std::move(u);
  }
}

void read_processes(const Reader& r, const json& top, Facts& f) {
  const json& p = top.at("processes");
  r.expect_object(p, "processes");
  if (const json* t = r.member(p, "processes", "truncated"); t && t->is_boolean())
    f.processes_truncated = t->get<bool>();
  const json* list = r.member(p, "processes", "list");
  if (!list) return;
  if (!list->is_array()) r.fail("processes.list", std::string("expected an array, got ") + list->type_name());
  for (std::size_t i = 0; i < list->size(); ++i) {
    const std::string path = "processes.list[" + std::to_string(i) + "]";
    const json& e = (*list)[i];
    const json* pid = r.member(e, path, "pid");
    if (!pid || !pid->is_number_integer()) r.fail(join(path, "pid"), "expected an integer");
    f.processes.push_back({pid->get<long long>(), r.string(e, path, "comm"),
                           r.string_or_empty(e, path, "argv0"), r.string(e, path, "source")});
  }
}

void read_cpu(const Reader& r, const json& top, Facts& f) {
  const json& c = top.at("cpu");
  r.expect_object(c, "cpu");
  f.cpu.model = r.text(c, "cpu", "model");
  f.cpu.logical_cpus = r.integer(c, "cpu", "logical_cpus");
  f.cpu.sockets = r.integer(c, "cpu", "sockets");
  f.cpu.cores = r.integer(c, "cpu", "cores");
  f.cpu.threads_per_core = r.integer(c, "cpu", "threads_per_core");
  f.cpu.hyperthreading = r.boolean(c, "cpu", "hyperthreading");
  f.cpu.intel_idle_max_cstate = r.text(c, "cpu", "intel_idle_max_cstate");
  f.cpu.processor_max_cstate = r.text(c, "cpu", "processor_max_cstate");
  f.cpu.cpuidle_driver = r.text(c, "cpu", "cpuidle_driver");
  f.cpu.cpufreq = r.boolean(c, "cpu", "cpufreq");
  f.cpu.governors = r.text_map(c, "cpu", "governors");
  f.cpu.clocksource = r.text(c, "cpu", "clocksource");
  f.cpu.online = r.text(c, "cpu", "online");
  f.cpu.isolated = r.text(c, "cpu", "isolated");
  f.cpu.nohz_full = r.text(c, "cpu", "nohz_full");
  f.cpu.nodes = r.text_map(c, "cpu", "nodes");
  f.cpu.cstates = r.text_map(c, "cpu", "cstates");
  f.cpu.freq_range = r.text_map(c, "cpu", "freq_range");
  f.cpu.transparent_hugepage = r.text(c, "cpu", "transparent_hugepage");
  f.cpu.tuned_profile = r.text(c, "cpu", "tuned_profile");
}

// "clock": the probe's adjtimex facts, and "daemons" when labgate's clock step added them.
void read_clock(const Reader& r, const json& top, Facts& f) {
  const json& c = top.at("clock");
  r.expect_object(c, "clock");
  f.clock.synchronized = r.boolean(c, "clock", "synchronized");
  f.clock.status = r.integer(c, "clock", "status");
  f.clock.state = r.integer(c, "clock", "state");
  f.clock.maxerror_us = r.integer(c, "clock", "maxerror_us");
  f.clock.esterror_us = r.integer(c, "clock", "esterror_us");
  const json* list = r.member(c, "clock", "daemons");
  if (!list) return;
  if (!list->is_array()) r.fail("clock.daemons", std::string("expected an array, got ") + list->type_name());
  f.clock.daemons_asked = true;
  for (std::size_t i = 0; i < list->size(); ++i) {
    const std::string path = "clock.daemons[" + std::to_string(i) + "]";
    const json& e = (*list)[i];
    r.expect_object(e, path);
    const json* exit = r.member(e, path, "exit");
    if (!exit || !exit->is_number_integer()) r.fail(path + ".exit", "expected an integer");
    ClockDaemonReport d;
    d.daemon = r.string(e, path, "daemon");
    d.command = r.string(e, path, "command");
    d.exit_status = exit->get<int>();
    d.output = r.string(e, path, "output");
    read_daemon_report(d);
    f.clock.daemons.push_back(std::move(d));
  }
}

}  // namespace

const Settings* InterfaceFacts::settings(const std::string& group) const {
  if (group == "coalesce") return &coalesce;
  if (group == "ring") return &ring;
  if (group == "channels") return &channels;
  if (group == "offload") return &offload;
  if (group == "pause") return &pause;
  return nullptr;
}

Facts parse_facts(std::string_view text, const std::string& origin) {
  const std::string where = "facts from " + origin + ": ";
  if (text.size() > kMaxSnapshotBytes)
    throw FactsError(where + "snapshot of " + std::to_string(text.size()) + " bytes exceeds the limit of " +
                     std::to_string(kMaxSnapshotBytes) + " bytes");
  if (too_deep(text))
    throw FactsError(where + "not a facts snapshot: nested deeper than " + std::to_string(kMaxDepth) +
                     " levels");
  json top;
  try {
    top = json::parse(text);
  } catch (const json::exception& e) {
    // nlohmann quotes the bytes it last read: from a hostile probe, raw garbage.
    throw FactsError(where + "not valid JSON: " + excerpt(e.what(), 400));
  }
  Reader r(origin);
  if (!top.is_object())
    throw FactsError(where + "not a facts snapshot: the top level is a " + top.type_name() +
                     ", not an object");
  Facts f;
  f.schema = r.string(top, "", "schema");
  if (f.schema != kSchema)
    throw FactsError(where + "snapshot schema \"" + f.schema + "\" is not \"" + kSchema +
                     "\": the facts probe on the host does not match this labgate");
  f.probe = r.string(top, "", "probe");
  f.root = r.string(top, "", "root");
  // Older probes do not say who they ran as; then nothing is assumed.
  if (auto it = top.find("euid"); it != top.end() && it->is_number_integer() && it->get<long long>() != 0)
    r.set_unprivileged(true);
  try {
    for (auto it = top.begin(); it != top.end(); ++it) f.sections.insert(it.key());
    if (f.has("hostname")) f.hostname = r.text(top, "", "hostname");
    if (f.has("os")) read_os(r, top, f);
    if (f.has("kernel")) read_kernel(r, top, f);
    if (f.has("boot")) read_boot(r, top, f);
    if (f.has("sysctl")) f.sysctl = r.text_map(top, "", "sysctl");
    if (f.has("sysctl_conf")) f.sysctl_conf = r.text_map(top, "", "sysctl_conf");
    if (f.has("modules")) read_modules(r, top, f);
    if (f.has("interfaces")) read_interfaces(r, top, f);
    if (f.has("services")) read_services(r, top, f);
    if (f.has("processes")) read_processes(r, top, f);
    if (f.has("cpu")) read_cpu(r, top, f);
    if (f.has("clock")) read_clock(r, top, f);
  } catch (const json::exception& e) {
    // A type nlohmann itself rejected on access; Reader checks types first, so
    // this is a last line of defence that still names the origin.
    throw FactsError(where + "malformed snapshot: " + e.what());
  }
  return f;
}

}  // namespace labgate::facts

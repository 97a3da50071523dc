// modules: loaded (/proc/modules), version (/sys/module/<m>/version), live
// parameters (/sys/module/<m>/parameters) and the options configured for the
// next load (`options <m> p=v` in /etc/modprobe.conf or /etc/modprobe.d).
#include "rules.h"

namespace labgate::checks::internal {
namespace {

std::string reload(const std::string& m) {
  return "# Reloading drops every port the driver runs: do it from the console, not over that network.\n"
         "modprobe -r " +
         sh_quote(m) + " && modprobe " + sh_quote(m);
}

// The modprobe config line that makes `p=v` the option for the next load.
std::string configure(const Ctx& c, const std::string& m, const std::string& p, const std::string& v,
                      const facts::Text* current) {
  const std::string option = p + "=" + v;
  if (current && current->value) {
    const auto colon = current->source.rfind(':');
    if (colon != std::string::npos && to_int(current->source.substr(colon + 1))) {
      const std::string line = current->source.substr(colon + 1), file = current->source.substr(0, colon);
      return "sed -i " +
             sh_quote(line + "s/" + sed_escape(p) + "=[^[:space:]]*/" + sed_escape(option) + "/") + " " +
             sh_quote(file);
    }
  }
  const std::string file =
      style_of(c.f) == Style::kRhelSysv ? "/etc/modprobe.conf" : "/etc/modprobe.d/" + m + ".conf";
  return "echo " + sh_quote("options " + m + " " + option) + " >> " + file;
}

void judge_map_entry(Ctx& c, const profile::ModuleRule& m, const facts::ModuleFacts& mf, bool live,
                     const std::string& p, const std::string& want) {
  const std::string kind = live ? "parameters" : "configured";
  CheckResult& r = start(c, "modules/" + m.name + "/" + kind + "/" + p, want);
  const auto& map = live ? mf.parameters : mf.configured;
  auto it = map.find(p);
  auto conf = mf.configured.find(p);
  const facts::Text* current_conf = conf == mf.configured.end() ? nullptr : &conf->second;
  if (it != map.end() && unreadable(it->second)) {
    not_checkable(r, why_unreadable(it->second), it->second.source);
    return;
  }
  if (it != map.end() && it->second.value == want) {
    pass(r, it->second.source, want, it->second.source);
    return;
  }
  if (live) {
    const std::string path = "/sys/module/" + m.name + "/parameters/" + p;
    if (mf.loaded.value == false) {
      fail_with(r, m.name + " is not loaded (" + mf.loaded.source + ")", "(not loaded)", mf.loaded.source,
                "modprobe " + sh_quote(m.name));
    } else if (it == map.end() || !it->second.value) {
      const std::string version = mf.version.value ? " " + *mf.version.value : "";
      fail_with(r, path + " does not exist: " + m.name + version + " has no parameter " + p, "(absent)", path,
                note("Install a " + m.name + " driver that has " + p +
                     (m.version ? " (the profile wants " + m.version.value() + ")" : "") +
                     ", configure it, and reload:") +
                    "\n" +
                    (current_conf && current_conf->value == want
                         ? ""
                         : configure(c, m.name, p, want, current_conf) + "\n") +
                    reload(m.name));
    } else {
      fail(r, path, *it->second.value, it->second.source,
           (current_conf && current_conf->value == want
                ? note(current_conf->source + " already sets " + p + "=" + want + ": reload to apply it.") +
                      "\n"
                : configure(c, m.name, p, want, current_conf) + "\n") +
               reload(m.name));
    }
    r.needs_reboot = false;
    return;
  }
  const std::string where = style_of(c.f) == Style::kRhelSysv ? "/etc/modprobe.conf" : "/etc/modprobe.d";
  if (it == map.end() || !it->second.value) {
    fail_with(
        r, "no `options " + m.name + " " + p + "=...` in /etc/modprobe.conf or /etc/modprobe.d", "(absent)",
        where,
        configure(c, m.name, p, want, nullptr) + "\n" + note("Applies when " + m.name + " is next loaded."));
  } else {
    fail(r, it->second.source + ": " + p, *it->second.value, it->second.source,
         configure(c, m.name, p, want, &it->second) + "\n" +
             note("Applies when " + m.name + " is next loaded."));
  }
}

}  // namespace

void check_modules(Ctx& c) {
  for (const profile::ModuleRule& m : c.pre.modules) {
    auto found = c.f.modules.find(m.name);
    if (found == c.f.modules.end()) {
      CheckResult& r = start(c, "modules/" + m.name, "reported");
      not_checkable(r, "the snapshot does not report module " + m.name, "");
      continue;
    }
    const facts::ModuleFacts& mf = found->second;
    if (m.loaded) {
      CheckResult& r = start(c, "modules/" + m.name + "/loaded", *m.loaded ? "loaded" : "not loaded");
      if (!mf.loaded.value)
        not_checkable(r, why_unreadable(mf.loaded), mf.loaded.source);
      else if (*mf.loaded.value == *m.loaded)
        pass(r, m.name, r.expected, mf.loaded.source);
      else
        fail(r, m.name + " (" + mf.loaded.source + ")", *mf.loaded.value ? "loaded" : "not loaded",
             mf.loaded.source, (*m.loaded ? "modprobe " : "modprobe -r ") + sh_quote(m.name));
    }
    if (m.version) {
      CheckResult& r = start(c, "modules/" + m.name + "/version", *m.version);
      const facts::Text& v = mf.version;
      if (unreadable(v)) {
        not_checkable(r, why_unreadable(v), v.source);
      } else if (v.value == m.version) {
        pass(r, v.source, *v.value, v.source);
      } else {
        const std::string fix =
            note("Install the " + m.name + " " + *m.version + " driver (on RHEL 5 the vendor's kmod-" +
                 m.name + " package for this kernel), then load it:") +
            "\n" + reload(m.name);
        if (mf.loaded.value == false)
          fail_with(r, m.name + " is not loaded (" + mf.loaded.source + ")", "(not loaded)", mf.loaded.source,
                    fix);
        else if (!v.value)
          fail_with(r, v.source + " does not exist (a driver built without a version)", "(absent)", v.source,
                    fix);
        else
          fail(r, v.source, *v.value, v.source, fix);
      }
    }
    for (const auto& [p, want] : m.parameters) judge_map_entry(c, m, mf, true, p, want);
    for (const auto& [p, want] : m.configured) judge_map_entry(c, m, mf, false, p, want);
  }
}

}  // namespace labgate::checks::internal

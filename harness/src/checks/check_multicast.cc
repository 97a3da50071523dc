// interfaces IF multicast: what a subscriber on IF needs to receive a feed:
// the MULTICAST flag, a reverse path filter no stricter than asked (a strict
// rp_filter drops a feed whose source is reached by another route: "joined,
// nothing arrives"), the IGMP version forced, enough memberships per socket,
// and the route 224.0.0.0/4 takes leaving by IF.
#include "rules.h"

namespace labgate::checks::internal {
namespace {

// rp_filter values, loosest first: 0 off, 2 loose, 1 strict.
int strictness(long long v) { return v == 0 ? 0 : v == 2 ? 1 : 2; }
const char* rp_name(long long v) { return v == 0 ? "off" : v == 1 ? "strict" : v == 2 ? "loose" : "unknown"; }
long long rp_value(const std::string& name) { return name == "off" ? 0 : name == "strict" ? 1 : 2; }

const facts::Text* sysctl_of(const Ctx& c, const std::string& key) {
  auto it = c.f.sysctl.find(key);
  return it == c.f.sysctl.end() ? nullptr : &it->second;
}

// The value of a sysctl as an integer, or not checkable on `r` (then nullopt).
std::optional<long long> sysctl_int(const Ctx& c, CheckResult& r, const std::string& key) {
  const facts::Text* t = sysctl_of(c, key);
  if (!t) {
    not_checkable(r, "the snapshot does not report sysctl " + key, "");
    return std::nullopt;
  }
  if (!t->value) {
    not_checkable(r, why_unreadable(*t), t->source);
    return std::nullopt;
  }
  auto v = to_int(*t->value);
  if (!v) not_checkable(r, t->source + ": \"" + *t->value + "\" is not a number", t->source);
  return v;
}

std::string sysctl_fix(const Ctx& c, const std::string& key, const std::string& value) {
  return "sysctl -w " + sh_quote(key + "=" + value) + "\n" + persist_sysctl_fix(c.f, key, value);
}

void judge_rp_filter(Ctx& c, const std::string& ifname, const std::string& want) {
  CheckResult& r = start(c, "interfaces/" + ifname + "/multicast.rp_filter", want);
  const std::string all_key = "net.ipv4.conf.all.rp_filter",
                    if_key = "net.ipv4.conf." + ifname + ".rp_filter";
  const auto all = sysctl_int(c, r, all_key);
  if (!all) return;
  const auto one = sysctl_int(c, r, if_key);
  if (!one) return;
  // The kernel applies the larger of conf/all and conf/IF (fib_validate_source).
  const long long eff = std::max(*all, *one);
  const std::string found = std::string(rp_name(eff)) + " (all " + std::to_string(*all) + ", " + ifname +
                            " " + std::to_string(*one) + ")";
  const std::string what = "the reverse path filter on " + ifname;
  if (strictness(eff) <= strictness(rp_value(want))) {
    pass(r, what, found, sysctl_of(c, if_key)->source);
    return;
  }
  const std::string v = std::to_string(rp_value(want));
  std::string fix = note("a strict rp_filter drops a feed whose source is routed out another interface");
  if (*all > rp_value(want) || strictness(*all) > strictness(rp_value(want)))
    fix += "\n" + sysctl_fix(c, all_key, v);
  fix += "\n" + sysctl_fix(c, if_key, v);
  fail(r, what, found, sysctl_of(c, if_key)->source, fix);
}

void judge_igmp_version(Ctx& c, const std::string& ifname, int want) {
  CheckResult& r = start(c, "interfaces/" + ifname + "/multicast.force_igmp_version", std::to_string(want));
  const std::string all_key = "net.ipv4.conf.all.force_igmp_version",
                    if_key = "net.ipv4.conf." + ifname + ".force_igmp_version";
  const auto all = sysctl_int(c, r, all_key);
  if (!all) return;
  const auto one = sysctl_int(c, r, if_key);
  if (!one) return;
  // Either forcing wins (IGMP_V1_SEEN/IGMP_V2_SEEN test both); conf/all first.
  const long long eff = *all != 0 ? *all : *one;
  const std::string found = std::to_string(eff) + " (all " + std::to_string(*all) + ", " + ifname + " " +
                            std::to_string(*one) + ")";
  if (eff == want) {
    pass(r, "the IGMP version forced on " + ifname, found, sysctl_of(c, if_key)->source);
    return;
  }
  std::string fix = sysctl_fix(c, if_key, std::to_string(want));
  if (*all != 0 && *all != want) fix = sysctl_fix(c, all_key, "0") + "\n" + fix;
  fail(r, "the IGMP version forced on " + ifname, found, sysctl_of(c, if_key)->source, fix);
}

void judge_memberships(Ctx& c, const std::string& ifname, long long want) {
  const std::string key = "net.ipv4.igmp_max_memberships";
  CheckResult& r =
      start(c, "interfaces/" + ifname + "/multicast.igmp_max_memberships", ">= " + std::to_string(want));
  const auto v = sysctl_int(c, r, key);
  if (!v) return;
  if (*v >= want)
    pass(r, "groups one socket may join (" + key + ")", std::to_string(*v), sysctl_of(c, key)->source);
  else
    fail(r, "groups one socket may join (" + key + ")", std::to_string(*v), sysctl_of(c, key)->source,
         sysctl_fix(c, key, std::to_string(want)));
}

void judge_bool(Ctx& c, const std::string& ifname, const std::string& field, bool want,
                const facts::Bool& have, const std::string& fix) {
  CheckResult& r = start(c, "interfaces/" + ifname + "/multicast." + field, want ? "true" : "false");
  if (!have.value) {
    not_checkable(r, have.error.empty() ? "the snapshot does not report it" : why_unreadable(have),
                  have.source);
    return;
  }
  const std::string what = field == "flag" ? "the MULTICAST flag of " + ifname
                                           : "224.0.0.0/4 leaving by " + ifname + " (" + have.note + ")";
  if (*have.value == want)
    pass(r, what, *have.value ? "true" : "false", have.source);
  else
    fail(r, what, *have.value ? "true" : "false", have.source, fix);
}

}  // namespace

void check_multicast(Ctx& c, const profile::InterfaceRule& rule, const facts::InterfaceFacts& i) {
  if (!rule.multicast) return;
  const profile::MulticastRule& m = *rule.multicast;
  const std::string n = sh_quote(rule.name);
  const bool sysv = style_of(c.f) == Style::kRhelSysv;
  if (m.flag)
    judge_bool(c, rule.name, "flag", *m.flag, i.multicast,
               sysv ? "ifconfig " + n + (*m.flag ? " multicast" : " -multicast")
                    : "ip link set dev " + n + " multicast " + (*m.flag ? "on" : "off"));
  if (m.route)
    judge_bool(c, rule.name, "route", *m.route, i.multicast_route,
               sysv ? "route add -net 224.0.0.0 netmask 240.0.0.0 dev " + n +
                          "\n# and for the next boot:\necho '224.0.0.0/4 dev " + rule.name +
                          "' >> /etc/sysconfig/network-scripts/route-" + rule.name
                    : "ip route replace 224.0.0.0/4 dev " + n +
                          "\n# and for the next boot:\nnmcli connection modify " + n +
                          " +ipv4.routes 224.0.0.0/4");
  if (m.rp_filter) judge_rp_filter(c, rule.name, *m.rp_filter);
  if (m.force_igmp_version) judge_igmp_version(c, rule.name, *m.force_igmp_version);
  if (m.igmp_max_memberships) judge_memberships(c, rule.name, *m.igmp_max_memberships);
}

}  // namespace labgate::checks::internal

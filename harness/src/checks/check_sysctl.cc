// sysctl: the live value under /proc/sys, compared field by field (numbers as
// numbers), with the boot-time setting from sysctl.conf reported beside it.
#include "rules.h"

namespace labgate::checks::internal {
namespace {

bool same_field(const std::string& a, const std::string& b) {
  const auto x = to_int(a), y = to_int(b);
  return x && y ? *x == *y : a == b;
}

// 0 when equal, else the 1-based index of the first differing field (or the
// field count + 1 when the counts differ).
std::size_t first_difference(const std::vector<std::string>& want, const std::vector<std::string>& have) {
  for (std::size_t i = 0; i < want.size() && i < have.size(); ++i)
    if (!same_field(want[i], have[i])) return i + 1;
  return want.size() == have.size() ? 0 : std::min(want.size(), have.size()) + 1;
}

// "/etc/sysctl.conf:34" -> {"/etc/sysctl.conf", 34}.
std::pair<std::string, int> file_line(const std::string& source) {
  const auto colon = source.rfind(':');
  if (colon == std::string::npos) return {source, 0};
  const auto line = to_int(source.substr(colon + 1));
  return line ? std::pair{source.substr(0, colon), static_cast<int>(*line)} : std::pair{source, 0};
}

}  // namespace

std::string persist_sysctl_fix(const facts::Facts& f, const std::string& key, const std::string& value) {
  const std::string line = key + " = " + value;
  auto it = f.sysctl_conf.find(key);
  if (it != f.sysctl_conf.end() && it->second.value) {
    if (first_difference(words(value), words(*it->second.value)) == 0)
      return note(it->second.source + " already sets it for the next boot.");
    auto [path, n] = file_line(it->second.source);
    if (n > 0)
      return note("and for the next boot (" + it->second.source + " sets " + *it->second.value + "):") +
             "\nsed -i " + sh_quote(std::to_string(n) + "s/.*/" + sed_escape(line) + "/") + " " +
             sh_quote(path);
  }
  return "# and for the next boot:\necho " + sh_quote(line) + " >> /etc/sysctl.conf";
}

void check_sysctl(Ctx& c) {
  for (const profile::SysctlExpectation& e : c.pre.sysctl) {
    const std::string want = joined_words(e.fields);
    CheckResult& r = start(c, "sysctl/" + e.key, want);
    auto it = c.f.sysctl.find(e.key);
    if (it == c.f.sysctl.end()) {
      not_checkable(r, "the snapshot does not report " + e.key, "");
      continue;
    }
    const facts::Text& t = it->second;
    if (unreadable(t)) {
      not_checkable(r, why_unreadable(t), t.source);
      continue;
    }
    if (!t.value) {
      fail_with(r, t.source + " does not exist: this kernel has no " + e.key, "(absent)", t.source,
                note("This kernel has no " + e.key + "; no setting can add it."));
      continue;
    }
    const std::size_t diff = first_difference(e.fields, words(*t.value));
    if (diff == 0) {
      pass(r, t.source, *t.value, t.source);
    } else {
      fail(r, t.source, *t.value, t.source,
           "sysctl -w " + sh_quote(e.key + "=" + want) + "\n" + persist_sysctl_fix(c.f, e.key, want));
      if (e.fields.size() > 1) r.message += " (field " + std::to_string(diff) + " differs)";
    }
    // Live values decide; the files say whether they survive a reboot.
    if (auto conf = c.f.sysctl_conf.find(e.key);
        conf != c.f.sysctl_conf.end() && !conf->second.error.size()) {
      if (!conf->second.value)
        r.notes.push_back(
            "not set in /etc/sysctl.conf or sysctl.d: the next boot reverts it to the kernel default");
      else if (first_difference(e.fields, words(*conf->second.value)) != 0)
        r.notes.push_back("the next boot changes it: " + conf->second.source + " sets " +
                          *conf->second.value);
    }
  }
}

}  // namespace labgate::checks::internal

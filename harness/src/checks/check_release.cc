// os_release and kernel_release: exact strings, from the release files and
// /proc/sys/kernel/osrelease.
#include "rules.h"

namespace labgate::checks::internal {

void check_release(Ctx& c) {
  if (c.pre.os_release) {
    CheckResult& r = start(c, "os_release", *c.pre.os_release);
    const facts::Text& rel = c.f.os.release();
    if (!c.f.has("os")) {
      not_checkable(r, "the snapshot has no os section", "");
    } else if (unreadable(rel)) {
      not_checkable(r, why_unreadable(rel), rel.source);
    } else if (rel.value == c.pre.os_release) {
      pass(r, rel.source, *rel.value, rel.source);
    } else {
      fail(r, rel.value ? rel.source : "/etc/redhat-release and /etc/os-release", shown(rel),
           rel.value ? rel.source : "/etc/redhat-release",
           note("The host runs " + shown(rel) + "; the profile wants " + *c.pre.os_release + ".") +
               "\n# Reinstall it from the profile's kickstart: no package update changes the release.");
    }
  }
  if (c.pre.kernel_release) {
    const std::string& want = *c.pre.kernel_release;
    CheckResult& r = start(c, "kernel_release", want);
    const facts::Text& rel = c.f.kernel.release;
    if (!c.f.has("kernel")) {
      not_checkable(r, "the snapshot has no kernel section", "");
    } else if (!rel.value) {
      not_checkable(r, why_unreadable(rel), rel.source);
    } else if (*rel.value == want) {
      pass(r, rel.source, want, rel.source);
    } else {
      const std::string image = c.f.boot.kernel_image.value.value_or("");
      std::string fix;
      if (image.find(want) != std::string::npos) {
        fix = note("The default boot entry (" + c.f.boot.kernel_image.source + ") already boots " + image +
                   ": reboot to run it.");
      } else {
        fix = note("Install kernel " + want + " and make it the default boot entry, e.g.") + "\n" +
              (style_of(c.f) == Style::kRhelSysv ? "#   yum install " + sh_quote("kernel-" + want) + "\n"
                                                 : "") +
              "grubby --set-default=" + sh_quote("/boot/vmlinuz-" + want);
      }
      fail(r, rel.source, *rel.value, rel.source, fix);
      r.needs_reboot = true;
    }
  }
}

}  // namespace labgate::checks::internal

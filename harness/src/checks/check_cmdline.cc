// kernel_cmdline present/absent: whole words of the running kernel's command
// line (/proc/cmdline) decide; the boot loader's default kernel line is what
// the next boot will get, so a difference is reported beside the verdict.
#include <algorithm>

#include "rules.h"

namespace labgate::checks::internal {
namespace {

std::string key_of(const std::string& word) { return word.substr(0, word.find('=')); }

// An argument "matches" a word when equal; "quiet" (no '=') also matches "quiet=1".
bool matches(const std::string& arg, const std::string& word) {
  return word == arg || (arg.find('=') == std::string::npos && key_of(word) == arg);
}

bool has(const std::vector<std::string>& ws, const std::string& arg) {
  return std::any_of(ws.begin(), ws.end(), [&](const std::string& w) { return matches(arg, w); });
}

std::string first_match(const std::vector<std::string>& ws, const std::string& arg) {
  for (const std::string& w : ws)
    if (matches(arg, w)) return w;
  return "";
}

// What the command line has in place of `arg`: the word with the same key.
std::string same_key(const std::vector<std::string>& ws, const std::string& arg) {
  for (const std::string& w : ws)
    if (key_of(w) == key_of(arg)) return w;
  return "";
}

std::string grubby_path(const std::string& image) {
  // GRUB paths are relative to the /boot partition (RHEL puts /boot on its own
  // partition); grubby wants the path in the running file system.
  return image.rfind("/boot/", 0) == 0 ? image : "/boot" + image;
}

// How the boot line is named in messages.
std::string boot_label(const facts::Facts& f) {
  return f.boot.loader.value == "grub2" ? " (GRUB 2 defaults)" : " (the default entry)";
}

}  // namespace

std::string boot_args_fix(const facts::Facts& f, const std::vector<std::string>& add,
                          const std::vector<std::string>& remove) {
  const std::string loader = f.boot.loader.value.value_or("");
  const std::string args_flags = (add.empty() ? "" : " --args=" + sh_quote(joined_words(add))) +
                                 (remove.empty() ? "" : " --remove-args=" + sh_quote(joined_words(remove)));
  if (loader == "grub-legacy" && f.boot.kernel_image.value && f.boot.kernel_args.value) {
    std::vector<std::string> next;
    for (const std::string& w : words(*f.boot.kernel_args.value)) {
      const bool dropped =
          std::any_of(remove.begin(), remove.end(), [&](auto& a) { return matches(a, w); }) ||
          std::any_of(add.begin(), add.end(), [&](auto& a) { return key_of(a) == key_of(w); });
      if (!dropped) next.push_back(w);
    }
    next.insert(next.end(), add.begin(), add.end());
    return note(f.boot.kernel_args.source + " (the default entry) should read:") + "\n" +
           note("  kernel " + *f.boot.kernel_image.value + " " + joined_words(next)) +
           "\ngrubby --update-kernel=" + sh_quote(grubby_path(*f.boot.kernel_image.value)) + args_flags;
  }
  if (loader == "grub2") {
    const std::string id = f.os.id.value.value_or("");
    const bool rhel_like =
        id == "rhel" || id == "centos" || id == "rocky" || id == "almalinux" || id == "fedora";
    if (rhel_like) return "grubby --update-kernel=ALL" + args_flags;
    std::string text = "In /etc/default/grub (" + f.boot.kernel_args.source + "), GRUB_CMDLINE_LINUX:";
    if (!add.empty()) text += " add " + joined_words(add) + ";";
    if (!remove.empty())
      text += " remove " + joined_words(remove) + " (also from GRUB_CMDLINE_LINUX_DEFAULT);";
    return note(text) + "\n# then regenerate the boot menu:\nupdate-grub";
  }
  return note("On the boot loader's kernel line:" + (add.empty() ? "" : " add " + joined_words(add)) +
              (remove.empty() ? "" : " remove " + joined_words(remove))) +
         "\n# (no /boot/grub/grub.conf or /etc/default/grub was found to say where)";
}

void check_cmdline(Ctx& c) {
  if (!c.pre.kernel_cmdline) return;
  const facts::Text& cmd = c.f.kernel.cmdline;
  const facts::Text& boot = c.f.boot.kernel_args;
  const std::vector<std::string> running = words(cmd.value.value_or(""));
  const std::vector<std::string> next = words(boot.value.value_or(""));
  const bool next_known = c.f.has("boot") && boot.value.has_value();

  auto judge = [&](const std::string& arg, bool want_present) {
    CheckResult& r = start(c, std::string("kernel_cmdline/") + (want_present ? "present/" : "absent/") + arg,
                           want_present ? arg : "no " + arg);
    if (!cmd.value) {
      not_checkable(r, c.f.has("kernel") ? why_unreadable(cmd) : "the snapshot has no kernel section",
                    cmd.source);
      return;
    }
    const bool now = has(running, arg);
    const bool ok = now == want_present;
    // What stands there: the matching word, another value of the same key, or nothing.
    std::string found = now ? first_match(running, arg) : same_key(running, arg);
    if (found.empty()) found = "(absent)";
    if (ok) {
      r.verdict = Verdict::kPass;
      r.found = found;
      r.source = cmd.source;
      r.message = on_host(c.host, cmd.source + (now ? " has " : " lacks ") + arg + " as the profile wants");
    } else {
      const bool next_fixes = next_known && has(next, arg) == want_present;
      const std::string fix =
          next_fixes ? note(boot.source + boot_label(c.f) + " already " + (want_present ? "has " : "lacks ") +
                            arg + ": reboot to apply it.")
                     : boot_args_fix(c.f, want_present ? std::vector{arg} : std::vector<std::string>{},
                                     want_present ? std::vector<std::string>{} : std::vector{arg});
      const std::string text = !want_present         ? " has " + found + ", profile wants it absent"
                               : found == "(absent)" ? " lacks " + arg + ", profile wants it present"
                                                     : " has " + found + ", profile wants " + arg;
      fail_with(r, cmd.source + text, found, cmd.source, fix);
      r.needs_reboot = true;
    }
    // The running line decides; the boot line says whether that will last.
    if (next_known && has(next, arg) != now)
      r.notes.push_back("the next boot changes this: " + boot.source + boot_label(c.f) + " " +
                        (now ? "lacks " : "has ") + arg);
  };
  for (const std::string& arg : c.pre.kernel_cmdline->present) judge(arg, true);
  for (const std::string& arg : c.pre.kernel_cmdline->absent) judge(arg, false);
}

}  // namespace labgate::checks::internal

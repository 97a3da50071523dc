// Lease holder identity (see holder.h).
#include "labgate/lease/holder.h"

#include <pwd.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <ctime>
#include <mutex>
#include <set>
#include <sstream>

namespace labgate::lease {

namespace {

std::mutex g_mutex;
std::set<std::string>& active_runs() {
  static std::set<std::string> runs;
  return runs;
}

std::string this_host() {
  char name[256] = {0};
  if (gethostname(name, sizeof name - 1) != 0) return "unknown-host";
  return name;
}

// Keeps one line per field whatever a hostname or run id holds.
std::string one_line(std::string s) {
  for (char& c : s) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return s;
}

}  // namespace

Holder Holder::current(const std::string& run_id) {
  Holder h;
  const passwd* pw = getpwuid(geteuid());
  h.user = pw ? pw->pw_name : std::to_string(geteuid());
  h.host = this_host();
  h.pid = static_cast<long>(getpid());
  h.started = static_cast<std::int64_t>(std::time(nullptr));
  h.run_id = run_id;
  return h;
}

std::string Holder::serialize() const {
  return "run_id=" + one_line(run_id) + "\nuser=" + one_line(user) + "\nhost=" + one_line(host) +
         "\npid=" + std::to_string(pid) + "\nstarted=" + std::to_string(started) + "\n" +
         (lab.empty() ? "" : "lab=" + one_line(lab) + "\n") +
         (stale_after_s > 0 ? "stale_after=" + std::to_string(stale_after_s) + "\n" : "");
}

std::optional<Holder> Holder::parse(const std::string& text) {
  Holder h;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    const auto eq = line.find('=');
    if (eq == std::string::npos) continue;
    const std::string key = line.substr(0, eq), value = line.substr(eq + 1);
    try {
      if (key == "run_id")
        h.run_id = value;
      else if (key == "user")
        h.user = value;
      else if (key == "host")
        h.host = value;
      else if (key == "pid")
        h.pid = std::stol(value);
      else if (key == "started")
        h.started = std::stoll(value);
      else if (key == "lab")
        h.lab = value;
      else if (key == "stale_after")
        h.stale_after_s = std::stol(value);
    } catch (const std::exception&) {
      // A damaged number leaves the field at 0; the holder is still named.
    }
  }
  if (h.run_id.empty() || h.host.empty()) return std::nullopt;
  return h;
}

std::string Holder::describe() const {
  char when[64] = "an unknown time";
  const std::time_t t = static_cast<std::time_t>(started);
  std::tm tm{};
  if (started > 0 && gmtime_r(&t, &tm)) std::strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S UTC", &tm);
  return user + "@" + host + " pid " + std::to_string(pid) + ", run " + run_id +
         (lab.empty() ? "" : " of lab " + lab) + ", since " + when;
}

bool Holder::dead_on_this_machine() const {
  if (host != this_host() || pid <= 0) return false;
  if (pid == static_cast<long>(getpid())) {
    std::lock_guard lock(g_mutex);
    return active_runs().count(run_id) == 0;
  }
  return ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH;
}

void set_run_active(const std::string& run_id, bool active) {
  std::lock_guard lock(g_mutex);
  if (active) {
    active_runs().insert(run_id);
  } else {
    active_runs().erase(run_id);
  }
}

}  // namespace labgate::lease

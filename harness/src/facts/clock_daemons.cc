// Reading chronyc, ntpq and pmc reports (see clock_daemons.h). Each error
// bound is the daemon's own worst case to its reference: chrony's and ntpd's
// |offset| + root dispersion + root delay / 2 (chrony's documented clock error
// bound; ntpd's "root distance" with the offset), ptp4l's |master offset|.
#include "labgate/facts/clock_daemons.h"

#include <cmath>
#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "labgate/util/text.h"

namespace labgate::facts {
namespace {

constexpr const char* kBegin = "@@labgate-clock ";
constexpr const char* kEnd = "@@labgate-clock-exit ";

struct Client {
  const char* daemon;
  const char* program;
  const char* args;  // for sh, already quoted
};
constexpr Client kClients[] = {{"chrony", "chronyc", "-c tracking"},
                               {"ntpd", "ntpq", "-c rv"},
                               {"ptp4l", "pmc", "-u -b 0 'GET TIME_STATUS_NP'"}};

std::optional<double> number(const std::string& s) {
  const std::string t = util::trim(s);
  if (t.empty()) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(t.c_str(), &end);
  if (end != t.c_str() + t.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

void not_read(ClockDaemonReport& r, const std::string& why) {
  r.read = false;
  r.not_read = why;
}

// chronyc -c tracking: 14 comma-separated fields (chrony 2.2 to 4.x).
void read_chronyc(ClockDaemonReport& r) {
  std::vector<std::string> f;
  std::string field;
  std::istringstream in(util::first_nonblank_line(r.output));
  while (std::getline(in, field, ',')) f.push_back(field);
  if (f.size() < 14) {
    not_read(
        r, "chronyc: " + (util::first_nonblank_line(r.output).empty() ? "no output"
                                                                      : util::first_nonblank_line(r.output)));
    return;
  }
  const auto offset = number(f[4]), delay = number(f[10]), disp = number(f[11]);
  const std::string leap = util::trim(f[13]), refid = util::trim(f[0]);
  if (!offset || !delay || !disp) {
    not_read(r, "chronyc -c tracking: unexpected fields in \"" + util::first_nonblank_line(r.output) + "\"");
    return;
  }
  r.read = true;
  // 7F7F0101 ("LOCL"): chronyd serves its own free-running clock (`local`).
  const bool local = refid == "7F7F0101";
  r.synchronized = leap != "Not synchronised" && refid != "00000000" && !local;
  r.state = "leap status " + leap + ", reference " + (f[1].empty() ? refid : f[1]) + " (stratum " + f[2] +
            ")" + (local ? ": its own local clock, not UTC" : "");
  r.error_bound_us = (std::fabs(*offset) + *disp + *delay / 2) * 1e6;
  r.bound = "|system time " + f[4] + " s| + root dispersion " + f[11] + " s + root delay " + f[10] + " s / 2";
}

// ntpq -c rv: "key=value," pairs over several lines; times in milliseconds.
// ntp 4.2.2 (RHEL 5) says rootdispersion, 4.2.6 and ntpsec rootdisp.
void read_ntpq(ClockDaemonReport& r) {
  const std::string first = util::first_nonblank_line(r.output);
  if (first.rfind("***", 0) == 0 || first.find("timed out") != std::string::npos) {
    not_read(r, "ntpq: " + first);
    return;
  }
  std::map<std::string, std::string> v;
  std::string text = r.output;
  for (char& c : text)
    if (c == '\n' || c == '\r') c = ',';
  std::istringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    const std::size_t eq = item.find('=');
    if (eq != std::string::npos) v[util::trim(item.substr(0, eq))] = util::trim(item.substr(eq + 1));
  }
  const std::string disp_key = v.count("rootdisp") ? "rootdisp" : "rootdispersion";
  const auto offset = number(v["offset"]), delay = number(v["rootdelay"]), disp = number(v[disp_key]);
  if (!v.count("leap") || !offset || !delay || !disp) {
    not_read(r, "ntpq -c rv: no leap, offset, rootdelay and root dispersion in \"" + first + "\"");
    return;
  }
  r.read = true;
  // leap=11 is the alarm condition: ntpd has not set the clock from a source.
  r.synchronized = v["leap"] != "11" && v["stratum"] != "16";
  r.state = "leap=" + v["leap"] + ", stratum " + v["stratum"] + ", refid " + v["refid"];
  r.error_bound_us = (std::fabs(*offset) + *disp + *delay / 2) * 1e3;
  r.bound = "|offset " + v["offset"] + " ms| + " + disp_key + " " + v[disp_key] + " ms + rootdelay " +
            v["rootdelay"] + " ms / 2";
}

// pmc TIME_STATUS_NP: "master_offset N" (ns) and "gmPresent true|false".
void read_pmc(ClockDaemonReport& r) {
  std::map<std::string, std::string> v;
  std::istringstream in(r.output);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string k, val;
    if (words >> k >> val) v[k] = val;
  }
  if (r.output.find("RESPONSE MANAGEMENT TIME_STATUS_NP") == std::string::npos) {
    const std::string err = util::first_nonblank_line(r.output);
    not_read(
        r, "pmc: ptp4l did not answer" +
               (err.empty() || err.rfind("sending:", 0) == 0 ? std::string(" (not running?)") : ": " + err));
    return;
  }
  const auto offset = number(v["master_offset"]);
  if (!offset || !v.count("gmPresent")) {
    not_read(r, "pmc: TIME_STATUS_NP without master_offset and gmPresent");
    return;
  }
  r.read = true;
  r.synchronized = v["gmPresent"] == "true";
  r.state = "gmPresent " + v["gmPresent"] + ", grandmaster " + v["gmIdentity"] +
            (r.synchronized.value() ? "" : ": no grandmaster but itself");
  r.error_bound_us = std::fabs(*offset) / 1e3;
  r.bound =
      "|master_offset " + v["master_offset"] +
      " ns| (the PTP hardware clock to the grandmaster; phc2sys's step to the system clock is not reported)";
}

}  // namespace

std::vector<std::string> clock_daemons_command() {
  // The clients live in /usr/sbin on RHEL (pmc); a non-root PATH may lack it.
  std::string script = "PATH=$PATH:/usr/sbin:/sbin; ";
  for (const Client& c : kClients) {
    script += std::string("echo '") + kBegin + c.daemon + " " + c.program + " " + c.args + "'; ";
    script += std::string("if command -v ") + c.program + " >/dev/null 2>&1; then " + c.program + " " +
              c.args + " 2>&1 </dev/null; echo \"" + kEnd + "$?\"; else echo '" + kEnd + "127'; fi; ";
  }
  return {"/bin/sh", "-c", script};
}

void read_daemon_report(ClockDaemonReport& r) {
  r.read = false;
  r.synchronized.reset();
  r.error_bound_us.reset();
  const std::string program = r.command.substr(0, r.command.find(' '));
  if (r.exit_status == 127) return not_read(r, program + " is not installed");
  if (r.exit_status < 0) return not_read(r, r.output.empty() ? "the clock step failed" : r.output);
  if (r.daemon == "chrony") return read_chronyc(r);
  if (r.daemon == "ntpd") return read_ntpq(r);
  if (r.daemon == "ptp4l") return read_pmc(r);
  not_read(r, "unknown daemon \"" + r.daemon + "\"");
}

std::vector<ClockDaemonReport> read_clock_step(int step_exit, const std::string& out,
                                               const std::string& step_error) {
  std::vector<ClockDaemonReport> reports;
  for (const Client& c : kClients) {
    ClockDaemonReport r;
    r.daemon = c.daemon;
    r.command = std::string(c.program) + " " + c.args;
    const std::string begin = kBegin + r.daemon + " ";
    const std::size_t b = out.find(begin);
    const std::size_t body = b == std::string::npos ? b : out.find('\n', b);
    const std::size_t e = body == std::string::npos ? body : out.find(kEnd, body);
    if (e == std::string::npos) {
      r.exit_status = -1;
      r.output = step_error.empty() ? "the clock step ended (exit " + std::to_string(step_exit) +
                                          ") before " + c.program + " reported"
                                    : step_error;
    } else {
      r.output = out.substr(body + 1, e - body - 1);
      r.exit_status = std::atoi(out.c_str() + e + std::char_traits<char>::length(kEnd));
    }
    read_daemon_report(r);
    reports.push_back(std::move(r));
  }
  return reports;
}

std::string add_daemons_to_snapshot(const std::string& snapshot_json,
                                    const std::vector<ClockDaemonReport>& d) {
  nlohmann::json top = nlohmann::json::parse(snapshot_json);
  if (!top.is_object() || !top.contains("clock") || !top["clock"].is_object()) return snapshot_json;
  nlohmann::json list = nlohmann::json::array();
  for (const ClockDaemonReport& r : d)
    list.push_back(
        {{"daemon", r.daemon}, {"command", r.command}, {"exit", r.exit_status}, {"output", r.output}});
  top["clock"]["daemons"] = std::move(list);
  return top.dump();
}

}  // namespace labgate::facts

// Running conrep on a host and judging [preconditions.bios] against its settings.
#include <algorithm>
#include <cctype>
#include <sstream>

#include "labgate/bios/conrep.h"
#include "labgate/util/text.h"

namespace labgate::bios {
namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Section names sharing a word with `wanted` ("Intel_Hyperthreading" ~ "Intel_Hyperthreading_Options").
std::vector<std::string> similar(const std::string& wanted,
                                 const std::map<std::string, std::string>& sections) {
  std::vector<std::string> words;
  std::string w;
  for (char c : lower(wanted) + "_") {
    if (c == '_' || c == ' ') {
      if (w.size() > 3 && w != "intel") words.push_back(w);
      w.clear();
    } else {
      w += c;
    }
  }
  std::vector<std::string> out;
  for (const auto& [name, value] : sections) {
    const std::string n = lower(name);
    if (std::any_of(words.begin(), words.end(),
                    [&](const std::string& x) { return n.find(x) != std::string::npos; }))
      out.push_back(name);
    if (out.size() == 5) break;
  }
  return out;
}

std::string where(const profile::SourcePos& pos) { return pos.line > 0 ? " [" + pos.str() + "]" : ""; }

}  // namespace

std::vector<std::string> conrep_command(const std::string& data_file) {
  // RHEL 5's /bin/sh is bash 3.2: `command -v` is there. The file is saved and
  // removed inside the run's private directory; only its XML comes back.
  const std::string script =
      "for c in conrep hp-conrep /sbin/hp-conrep /usr/sbin/conrep /usr/bin/conrep "
      "/opt/hp/hp-scripting-tools/bin/conrep; do "
      "if command -v \"$c\" >/dev/null 2>&1; then "
      "\"$c\" -s -f \"$1\" >&2 || { rm -f \"$1\"; exit 4; }; cat \"$1\"; rm -f \"$1\"; exit 0; fi; "
      "done; exit 127";
  return {"/bin/sh", "-c", script, "labgate-conrep", data_file};
}

ConrepRead read_conrep_run(const std::string& host, int exit_status, const std::string& out,
                           const std::string& err) {
  ConrepRead r;
  if (exit_status == 127) {
    r.not_checkable =
        "conrep is not installed on " + host +
        " (HP Scripting Toolkit); BIOS settings cannot be read there, so these rules are not checked";
    return r;
  }
  if (exit_status != 0) {
    const std::string why = util::first_nonblank_line(err).empty() ? util::first_nonblank_line(out)
                                                                   : util::first_nonblank_line(err);
    r.not_checkable = "conrep failed on " + host + " (exit " + std::to_string(exit_status) + ")" +
                      (why.empty() ? "" : ": " + why) + "; these rules are not checked";
    return r;
  }
  try {
    r.settings = parse_conrep_xml(out, "conrep -s on " + host);
  } catch (const ConrepError& e) {
    r.not_checkable = std::string("conrep's output could not be read: ") + e.what();
  }
  return r;
}

std::vector<BiosVerdict> check_bios(const std::string& host,
                                    const std::vector<profile::BiosExpectation>& rules,
                                    const ConrepRead& read) {
  std::vector<BiosVerdict> out;
  for (const profile::BiosExpectation& rule : rules) {
    BiosVerdict v;
    v.name = rule.name;
    v.expected = rule.value;
    v.pos = rule.pos;
    if (!read.settings) {
      v.status = BiosStatus::kNotCheckable;
      v.message = host + ": " + rule.name + " not checked: " + read.not_checkable + where(rule.pos);
      out.push_back(std::move(v));
      continue;
    }
    const auto& sections = read.settings->sections;
    auto it = sections.find(rule.name);
    if (it == sections.end()) {
      v.status = BiosStatus::kFail;
      v.message = host + ": conrep reports no setting " + rule.name + where(rule.pos);
      const std::vector<std::string> near = similar(rule.name, sections);
      if (!near.empty()) {
        v.message += "; similar: ";
        for (std::size_t i = 0; i < near.size(); ++i) v.message += (i ? ", " : "") + near[i];
      }
      out.push_back(std::move(v));
      continue;
    }
    v.observed = it->second;
    const bool same = lower(util::trim(it->second)) == lower(util::trim(rule.value));
    v.status = same ? BiosStatus::kPass : BiosStatus::kFail;
    v.message = host + ": " + rule.name + " is " + it->second + (same ? "" : ", expected " + rule.value) +
                where(rule.pos);
    out.push_back(std::move(v));
  }
  return out;
}

}  // namespace labgate::bios

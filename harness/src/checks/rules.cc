// Result builders and shell helpers shared by the rule families (see rules.h).
#include "rules.h"

#include <charconv>

namespace labgate::checks {

const char* to_string(Verdict v) {
  switch (v) {
    case Verdict::kPass:
      return "pass";
    case Verdict::kFail:
      return "fail";
    case Verdict::kNotCheckable:
      return "not_checkable";
  }
  return "?";
}

std::string CheckResult::test_name() const { return host == "pair" ? rule : host + "/" + rule; }

namespace internal {

CheckResult& start(Ctx& c, const std::string& rule, const std::string& expected) {
  CheckResult r;
  r.host = c.host;
  r.rule = rule;
  r.expected = expected;
  c.out.push_back(std::move(r));
  return c.out.back();
}

std::string on_host(const std::string& host, const std::string& text) { return "host " + host + ": " + text; }

void pass(CheckResult& r, const std::string& what, const std::string& found, const std::string& source) {
  r.verdict = Verdict::kPass;
  r.found = found;
  r.source = source;
  r.message = on_host(r.host, what + " is " + found + " as the profile wants");
}

void fail(CheckResult& r, const std::string& what, const std::string& found, const std::string& source,
          const std::string& fix) {
  fail_with(r, what + " is " + found + ", profile wants " + r.expected, found, source, fix);
}

void fail_with(CheckResult& r, const std::string& text, const std::string& found, const std::string& source,
               const std::string& fix) {
  r.verdict = Verdict::kFail;
  r.found = found;
  r.source = source;
  r.message = on_host(r.host, text);
  r.fix = fix;
}

void not_checkable(CheckResult& r, const std::string& reason, const std::string& source) {
  r.verdict = Verdict::kNotCheckable;
  r.found = "(unknown)";
  r.source = source;
  r.reason = reason;
  r.message = on_host(r.host, r.rule + " not checkable: " + reason);
}

const facts::ServiceFacts* reported_service(const Ctx& c, CheckResult& r, const std::string& name) {
  auto it = c.f.services.units.find(name);
  if (c.f.has("services") && it != c.f.services.units.end()) return &it->second;
  not_checkable(r, "the snapshot does not report service " + name, "");
  return nullptr;
}

std::string shown(const facts::Text& t) { return t.value ? *t.value : "(absent)"; }

Style style_of(const facts::Facts& f) {
  return f.services.init.value.value_or("") == "systemd" ? Style::kSystemd : Style::kRhelSysv;
}

std::string note(std::string_view text) {
  std::string out = "# ";
  for (char ch : text) out += (ch == '\n' || ch == '\r') ? ' ' : ch;
  return out;
}

std::string sh_quote(std::string_view s) {
  std::string out = "'";
  for (char ch : s) {
    if (ch == '\'')
      out += "'\\''";
    else
      out += ch;
  }
  return out + "'";
}

std::string sed_escape(std::string_view s) {
  std::string out;
  for (char ch : s) {
    if (ch == '.' || ch == '[' || ch == ']' || ch == '*' || ch == '^' || ch == '$' || ch == '\\' ||
        ch == '/' || ch == '&')
      out += '\\';
    out += ch;
  }
  return out;
}

std::vector<std::string> words(std::string_view s) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n')) ++i;
    std::size_t j = i;
    while (j < s.size() && s[j] != ' ' && s[j] != '\t' && s[j] != '\n') ++j;
    if (j > i) out.emplace_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

std::string joined_words(const std::vector<std::string>& ws) {
  std::string out;
  for (const std::string& w : ws) out += (out.empty() ? "" : " ") + w;
  return out;
}

std::optional<long long> to_int(std::string_view s) {
  long long v = 0;
  const char* end = s.data() + s.size();
  if (s.empty()) return std::nullopt;
  auto [p, ec] = std::from_chars(s.data(), end, v);
  if (ec != std::errc() || p != end) return std::nullopt;
  return v;
}

}  // namespace internal
}  // namespace labgate::checks

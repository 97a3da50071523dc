// The trend as CSV (RFC 4180 quoting), one row per test and run, for
// spreadsheets and scripts; figures in seconds.
#include "labgate/report/format.h"
#include "labgate/report/trend.h"

namespace labgate::report {

namespace {

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (const char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string value(const std::map<std::string, double>& m, const std::string& k) {
  const auto it = m.find(k);
  if (it == m.end()) return "";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", it->second);
  return buf;
}

}  // namespace

std::string trend_csv(const TrendData& d) {
  std::string s = "test,run_id,start,conforming,imported,verdict";
  for (const auto& st : trend_statistics()) s += "," + st + "_s";
  for (const auto& st : trend_statistics()) s += ",budget_" + st + "_s";
  s += "\n";
  for (const auto& t : d.tests)
    for (const auto& p : t.points) {
      const TrendRun& r = d.runs[p.run];
      s += csv_field(t.key) + "," + csv_field(r.run_id) + "," + results::format_time(r.start) + "," +
           conformance_words(r.conforming) + "," + (r.imported ? "yes" : "no") + "," + p.verdict;
      for (const auto& st : trend_statistics()) s += "," + value(p.seconds, st);
      for (const auto& st : trend_statistics()) s += "," + value(p.budget_s, st);
      s += "\n";
    }
  return s;
}

}  // namespace labgate::report

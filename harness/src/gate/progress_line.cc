// Formats probe progress lines for the console (see progress_line.h).
#include "labgate/gate/progress_line.h"

#include <nlohmann/json.hpp>

#include <cstdio>

#include "labgate/report/format.h"

namespace labgate::gate {

std::optional<std::string> format_progress(std::string_view case_name, std::string_view line) {
  if (line.empty() || line.front() != '{') return std::nullopt;
  const auto j = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object() || !j.contains("progress")) return std::nullopt;
  try {
    using report::format_ns;
    using report::Units;
    char clock[64];
    std::snprintf(clock, sizeof clock, "%.1f/%.1f s", j.at("elapsed_s").get<double>(),
                  j.at("total_s").get<double>());
    std::string out = std::string(case_name);
    const std::string label = j.at("progress").get<std::string>();
    // The jitter probe reports one line per CPU ("jitter cpu 2"); say which.
    if (const auto cpu = label.find("cpu "); cpu != std::string::npos) out += " (" + label.substr(cpu) + ")";
    out += ": " + std::string(clock) + ", p99 so far " +
           format_ns(j.at("p99_ns_so_far").get<double>(), Units::kAscii) + ", max so far " +
           format_ns(j.at("max_ns_so_far").get<double>(), Units::kAscii) + " (last interval: " +
           std::to_string(j.at("count").get<unsigned long long>()) + " samples, p99 " +
           format_ns(j.at("p99_ns").get<double>(), Units::kAscii) + ", max " +
           format_ns(j.at("max_ns").get<double>(), Units::kAscii) + ")";
    return out;
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;  // not the probe's progress format: not for the console
  }
}

}  // namespace labgate::gate

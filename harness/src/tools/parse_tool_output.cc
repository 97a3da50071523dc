// One entry point for every external tool's parser, chosen by the profile's `tool`.
#include "labgate/tools/parsers.h"

#include "text_scan.h"

namespace labgate::tools {

std::optional<profile::Tool> detect_tool(const ToolText& text) {
  const std::size_t first = text.raw.find_first_not_of(" \t\r\n");
  if (first != std::string::npos && text.raw[first] == '{' && text.raw.find("\"start\"") != std::string::npos)
    return profile::Tool::kIperf3;
  // iperf3's text log: its client's first line, and its own last word.
  for (const std::string& line : text.lines)
    if (line.rfind("Connecting to host ", 0) == 0 || line == "iperf Done.") return profile::Tool::kIperf3;
  for (const std::string& line : text.lines)
    if (line.find("sockperf:") != std::string::npos) return profile::Tool::kSockperf;
  // sfnt-pingpong: its own header, which no other tool prints.
  for (const std::string& line : text.lines)
    if (line == "# reporting: 1/2 RTT" || line == "# reporting: RTT" ||
        line.find("cmdline: sfnt-pingpong") != std::string::npos)
      return profile::Tool::kSfntPingpong;
  // netperf: its banner ("... TEST from ..."), a -k key, its histogram, its table header.
  for (const std::string& line : text.lines)
    if (line.find(" TEST from ") != std::string::npos || line.find("_LATENCY=") != std::string::npos ||
        line.rfind("HIST_TOTAL", 0) == 0 || line.find("THROUGHPUT=") != std::string::npos ||
        scan::contains_nocase(line, "netperf"))
      return profile::Tool::kNetperf;
  return std::nullopt;
}

measure::Measurement parse_tool_output(profile::Tool tool, const ToolText& text,
                                       const ParseOptions& options) {
  switch (tool) {
    case profile::Tool::kNetperf:
      return parse_netperf(text, options);
    case profile::Tool::kSockperf:
      return parse_sockperf(text, options);
    case profile::Tool::kIperf3:
      return parse_iperf3(text, options);
    case profile::Tool::kSfntPingpong:
      return parse_sfnt_pingpong(text, options);
    case profile::Tool::kBuiltin:
      break;
    case profile::Tool::kSysbench:  // disk kinds: labgate/storage/sysbench_parser.h
      text.fail(0, "sysbench fileio output is parsed by labgate::storage::parse_sysbench_fileio");
  }
  text.fail(0, "the built-in probes write labgate's own JSON; there is no tool output to parse");
}

std::vector<measure::Measurement> parse_tool_runs(profile::Tool tool, const ToolText& text,
                                                  const ParseOptions& options) {
  if (tool == profile::Tool::kIperf3) return parse_iperf3_runs(text, options);
  std::vector<measure::Measurement> one;
  one.push_back(parse_tool_output(tool, text, options));
  return one;
}

}  // namespace labgate::tools

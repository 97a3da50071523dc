// One entry point for every external tool's parser, chosen by the profile's `tool`.
#include "labgate/tools/parsers.h"

namespace labgate::tools {

measure::Measurement parse_tool_output(profile::Tool tool, const ToolText& text,
                                       const ParseOptions& options) {
  switch (tool) {
    case profile::Tool::kNetperf:
      return parse_netperf(text, options);
    case profile::Tool::kSockperf:
      return parse_sockperf(text, options);
    case profile::Tool::kIperf3:
      return parse_iperf3(text, options);
    case profile::Tool::kBuiltin:
      break;
    case profile::Tool::kSysbench:  // disk kinds: labgate/storage/sysbench_parser.h
      text.fail(0, "sysbench fileio output is parsed by labgate::storage::parse_sysbench_fileio");
  }
  text.fail(0, "the built-in probes write labgate's own JSON; there is no tool output to parse");
}

}  // namespace labgate::tools

// libFuzzer target: the built-in probes' JSON through the one wrapper parser
// (measure::read_probe_document) and every reader on it: pingpong, stream,
// jitter, disk, cmdrun, and the servers' "listening" line. Each parses or throws
// ProbeOutputError; any other exception or a crash is a bug.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "labgate/cmdlatency/cmdrun_probe.h"
#include "labgate/measure/probe_output.h"
#include "labgate/storage/disk_probe.h"

namespace {

template <typename Parse>
void must_parse_or_refuse(Parse parse) {
  try {
    (void)parse();
  } catch (const labgate::measure::ProbeOutputError&) {
  }
}

labgate::profile::TestSpec command_spec(bool counted) {
  labgate::profile::TestSpec s;
  s.name = "fuzz";
  s.kind = labgate::profile::TestKind::kCommand;
  s.duration = std::chrono::seconds(1);
  s.command.argv = {"true"};
  if (counted) s.command.count = 5;
  return s;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  labgate::measure::ParseContext ctx;
  ctx.host = "a";
  ctx.peer = "b";
  static const labgate::profile::TestSpec by_count = command_spec(true), by_time = command_spec(false);
  must_parse_or_refuse([&] { return labgate::measure::parse_probe_output(text, ctx); });
  must_parse_or_refuse([&] { return labgate::measure::parse_listening_line(text); });
  must_parse_or_refuse([&] { return labgate::storage::parse_disk_probe(text, "a"); });
  must_parse_or_refuse(
      [&] { return labgate::cmdlatency::parse_cmdrun(text, size % 2 ? by_count : by_time, "a"); });
  return 0;
}

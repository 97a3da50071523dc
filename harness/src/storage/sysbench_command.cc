// sysbench fileio command lines for 0.4.x and 1.0.x, run in the test's directory.
#include <cmath>
#include <regex>

#include "labgate/storage/sysbench.h"

namespace labgate::storage {
namespace {

using profile::TestKind;
using profile::TestSpec;

const char* sysbench_test_mode(TestKind k) {
  switch (k) {
    case TestKind::kDiskRandomRead:
      return "rndrd";
    case TestKind::kDiskRandomWrite:
      return "rndwr";
    default:
      return "rndrw";
  }
}

std::string ratio_text(double read_mix) {
  // reads per write: 60% reads -> 1.5, sysbench's default.
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", read_mix / (1.0 - read_mix));
  return buf;
}

// `cd DIR && exec ARGV...` with every word passed as an argument, never as script text.
std::vector<std::string> in_dir(const std::string& dir, const std::vector<std::string>& argv) {
  std::vector<std::string> out{"/bin/sh", "-c", "cd \"$1\" || exit 3; shift; exec \"$@\"", "labgate-sysbench",
                               dir};
  out.insert(out.end(), argv.begin(), argv.end());
  return out;
}

}  // namespace

std::optional<SysbenchVersion> parse_sysbench_version(const std::string& text) {
  static const std::regex kVersion(R"(sysbench\s+(\d+)\.(\d+))");
  std::smatch m;
  if (!std::regex_search(text, m, kVersion)) return std::nullopt;
  if (m[1] == "0" && m[2] == "4") return SysbenchVersion::k04;
  if (m[1] == "1" && m[2] == "0") return SysbenchVersion::k10;
  return std::nullopt;
}

SysbenchCommands sysbench_commands(const TestSpec& spec, SysbenchVersion version) {
  const profile::DiskParams& d = spec.disk;
  SysbenchCommands c;
  c.dir = d.path.substr(0, d.path.rfind('/'));
  if (c.dir.empty()) c.dir = "/";
  const bool v10 = version == SysbenchVersion::k10;
  const auto seconds = std::max<long long>(
      1, static_cast<long long>(std::ceil(static_cast<double>(spec.duration.count()) / 1e9)));
  std::vector<std::string> files{"--file-total-size=" + std::to_string(d.file_size), "--file-num=1",
                                 "--file-block-size=" + std::to_string(d.block_size)};
  if (d.direct) files.push_back("--file-extra-flags=direct");
  auto with = [&](std::vector<std::string> head, std::vector<std::string> tail) {
    head.insert(head.end(), files.begin(), files.end());
    head.insert(head.end(), tail.begin(), tail.end());
    return in_dir(c.dir, head);
  };
  const std::vector<std::string> head = v10 ? std::vector<std::string>{"sysbench", "fileio"}
                                            : std::vector<std::string>{"sysbench", "--test=fileio"};
  std::vector<std::string> run{std::string("--file-test-mode=") + sysbench_test_mode(spec.kind),
                               "--file-fsync-freq=0"};
  if (spec.kind == TestKind::kDiskRandomRw) run.push_back("--file-rw-ratio=" + ratio_text(d.read_mix));
  const std::string threads = std::to_string(d.threads), time = std::to_string(seconds);
  if (v10)
    run.insert(run.end(), {"--threads=" + threads, "--time=" + time, "--events=0", "--percentile=99",
                           "--histogram=on", "run"});
  else
    run.insert(run.end(), {"--num-threads=" + threads, "--max-time=" + time, "--max-requests=0",
                           "--percentile=99", "run"});
  c.prepare = with(head, {"prepare"});
  c.run = with(head, run);
  c.cleanup = with(head, {"cleanup"});
  // Writing the file at a slow 5 MiB/s still finishes; anything slower is hung.
  c.prepare_timeout = std::chrono::seconds(60 + static_cast<long long>(d.file_size / (5u << 20)));
  c.run_timeout = std::chrono::seconds(seconds + 60);
  c.cleanup_timeout = std::chrono::seconds(60);
  return c;
}

}  // namespace labgate::storage

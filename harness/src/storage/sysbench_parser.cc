// sysbench fileio output (0.4.x and 1.0.x) -> Measurement.
#include <cmath>
#include <cstdlib>
#include <regex>
#include <sstream>

#include "labgate/storage/sysbench.h"
#include "labgate/util/not_measured.h"

namespace labgate::storage {
namespace {

using profile::TestKind;

constexpr std::size_t kMaxOutput = 16u << 20;  // a --histogram run prints a few KiB
constexpr double kMiB = 1024.0 * 1024.0;

// "0.12ms" / "1.5s" / "350us" / "0.22" (1.0 prints bare ms under "Latency (ms):").
std::optional<double> to_ns(const std::string& number, const std::string& unit) {
  char* end = nullptr;
  const double v = std::strtod(number.c_str(), &end);
  if (end == number.c_str() || *end != '\0') return std::nullopt;  // "." or "1.2.3": not a number
  if (unit.empty() || unit == "ms") return v * 1e6;
  if (unit == "s") return v * 1e9;
  if (unit == "us") return v * 1e3;
  if (unit == "ns") return v;
  return std::nullopt;
}

std::string clean(const std::string& raw) {
  std::string s;
  s.reserve(raw.size());
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] == '\xC2' && i + 1 < raw.size() && raw[i + 1] == '\xA0') {  // NBSP from a web copy
      s += ' ';
      ++i;
    } else if (raw[i] != '\r') {
      s += raw[i];
    }
  }
  return s;
}

std::optional<TestKind> mode_kind(const std::string& text) {
  if (text.find("Doing random read test") != std::string::npos) return TestKind::kDiskRandomRead;
  if (text.find("Doing random write test") != std::string::npos) return TestKind::kDiskRandomWrite;
  if (text.find("Doing random r/w test") != std::string::npos) return TestKind::kDiskRandomRw;
  return std::nullopt;
}

class Parse {
 public:
  Parse(const std::string& text, const std::string& origin) : text_(text), origin_(origin) {}

  [[noreturn]] void fail(SysbenchFailure kind, const std::string& why) const {
    throw SysbenchError(kind, origin_ + ": " + why);
  }
  std::optional<std::smatch> find(const std::regex& re) const {
    std::smatch m;
    if (std::regex_search(text_, m, re)) return m;
    return std::nullopt;
  }

  void refuse_failures() const {
    std::istringstream in(text_);
    std::string line;
    while (std::getline(in, line)) {
      if (line.find("FATAL") == std::string::npos) continue;
      if (line.find("errno = 22") != std::string::npos || line.find("Invalid argument") != std::string::npos)
        fail(
            SysbenchFailure::kDirectUnsupported,
            "sysbench could not open its file with O_DIRECT (\"" + line +
                "\"); this filesystem refuses direct I/O (tmpfs does): set direct = false, or use a dir on a "
                "disk filesystem");
      fail(SysbenchFailure::kToolFailed, "sysbench failed: \"" + line + "\"");
    }
  }

  void latency(measure::Measurement& m) const {
    // A figure may be a "not measured" marker (-nan, inf, -1 from a run with no
    // request): matched, so it is named and left absent, never silently skipped.
    static const std::regex kStat(R"((min|avg|max):\s+(-?nan|-?inf|-?[\d.]+)(ms|s|us)?\b)");
    static const std::regex kPct(
        R"((?:approx\.\s+(\d+) percentile|(\d+)th percentile):\s+(-?nan|-?inf|-?[\d.]+)(ms|s|us)?)");
    const auto record = [&](const std::string& name, const std::string& number, const std::string& unit) {
      if (util::is_not_measured(number) || number.starts_with('-')) {
        m.warnings.push_back(util::not_measured_warning(origin_, "sysbench", name, number));
        return;
      }
      if (auto ns = to_ns(number, unit)) m.reported[name] = std::round(*ns);
    };
    for (auto it = std::sregex_iterator(text_.begin(), text_.end(), kStat); it != std::sregex_iterator();
         ++it) {
      const std::smatch& s = *it;
      // 0.4's OLTP-style "Threads fairness" lines have no "min:"; these are per-request figures.
      record(s[1] == "avg" ? "mean" : s[1].str(), s[2], s[3]);
    }
    if (auto p = find(kPct)) {
      const std::string rank = (*p)[1].matched ? (*p)[1].str() : (*p)[2].str();
      record("p" + rank, (*p)[3], (*p)[4]);
      m.parameters["percentile_rank"] = rank;
    }
  }

  // 1.0's --histogram: "value |****   count" rows, values in ms.
  void histogram(measure::Measurement& m) const {
    if (text_.find("Latency histogram") == std::string::npos) return;
    static const std::regex kRow(R"((?:^|\n)\s+([\d.]+) \|[* ]*\s(\d+)(?=\n))");
    for (auto it = std::sregex_iterator(text_.begin(), text_.end(), kRow); it != std::sregex_iterator(); ++it)
      m.histogram.record_n(static_cast<std::uint64_t>(std::llround(std::stod((*it)[1]) * 1e6)),
                           std::stoull((*it)[2]));
  }

 private:
  const std::string& text_;
  const std::string& origin_;
};

void read_v10(const Parse& p, measure::Measurement& m) {
  static const std::regex kOps(R"(reads/s:\s+([\d.]+)\s+writes/s:\s+([\d.]+)(?:\s+fsyncs/s:\s+([\d.]+))?)");
  static const std::regex kRates(R"(read, MiB/s:\s+([\d.]+)\s+written, MiB/s:\s+([\d.]+))");
  const auto ops = p.find(kOps);
  if (!ops)
    p.fail(SysbenchFailure::kMalformed, "no \"reads/s:\" / \"writes/s:\" figures; did the run finish?");
  const double reads = std::stod((*ops)[1]), writes = std::stod((*ops)[2]);
  m.reported["iops"] = reads + writes;
  m.parameters["reads_per_s"] = (*ops)[1];
  m.parameters["writes_per_s"] = (*ops)[2];
  if ((*ops)[3].matched) m.parameters["fsyncs_per_s"] = (*ops)[3];
  if (auto mib = p.find(kRates))
    m.throughput_bps = (std::stod((*mib)[1]) + std::stod((*mib)[2])) * kMiB * 8.0;
}

void read_v04(const Parse& p, measure::Measurement& m) {
  static const std::regex kReq(R"(([\d.]+) Requests/sec executed)");
  static const std::regex kOps(R"((\d+) Read, (\d+) Write, (\d+) Other = (\d+) Total)");
  static const std::regex kRate(R"(Total transferred [\d.]+\w*\s+\(([\d.]+)(Kb|Mb|Gb|b)/sec\))");
  const auto req = p.find(kReq);
  if (!req) p.fail(SysbenchFailure::kMalformed, "no \"Requests/sec executed\" line; did the run finish?");
  m.reported["iops"] = std::stod((*req)[1]);  // 0.4: (reads + writes) / time, fsyncs ("Other") excluded
  if (auto ops = p.find(kOps)) {
    m.parameters["reads"] = (*ops)[1];
    m.parameters["writes"] = (*ops)[2];
    m.parameters["other"] = (*ops)[3];
  }
  if (auto rate = p.find(kRate)) {  // 0.4 writes "Mb" for MiB: 15177.50 x 16 KiB = 237.15 "Mb/sec"
    const std::string unit = (*rate)[2];
    const double scale = unit == "Gb" ? kMiB * 1024 : unit == "Mb" ? kMiB : unit == "Kb" ? 1024.0 : 1.0;
    m.throughput_bps = std::stod((*rate)[1]) * scale * 8.0;
  }
}

}  // namespace

measure::Measurement parse_sysbench_fileio(const std::string& output, const std::string& origin,
                                           std::optional<TestKind> kind) {
  if (output.size() > kMaxOutput)
    throw SysbenchError(SysbenchFailure::kMalformed, origin + ": " + std::to_string(output.size()) +
                                                         " bytes is not sysbench fileio output");
  const std::string text = clean(output);
  const Parse p(text, origin);
  p.refuse_failures();
  measure::Measurement m;
  m.source = "sysbench";
  m.metric = measure::Metric::kIoTime;  // one request to the disk and its completion
  const auto mode = mode_kind(text);
  if (kind && mode && *kind != *mode)
    p.fail(SysbenchFailure::kMalformed, std::string("the output is a ") + profile::to_string(*mode) +
                                            " run, not " + profile::to_string(*kind));
  if (mode || kind) m.kind = profile::to_string(mode ? *mode : *kind);
  const auto version = parse_sysbench_version(text);
  const bool v10 =
      version == SysbenchVersion::k10 || (!version && text.find("reads/s:") != std::string::npos);
  m.parameters["sysbench"] = v10 ? "1.0" : "0.4";
  v10 ? read_v10(p, m) : read_v04(p, m);
  p.latency(m);
  p.histogram(m);
  static const std::regex kTime(R"(total time:\s+([\d.]+)s)");
  if (auto t = p.find(kTime)) m.duration_s = std::stod((*t)[1]);
  static const std::regex kThreads(R"(Number of threads:\s+(\d+))");
  if (auto t = p.find(kThreads)) m.parameters["threads"] = (*t)[1];
  static const std::regex kFlags(R"(Extra file open flags:\s*(\S+))");
  if (auto f = p.find(kFlags)) {
    const std::string flags = (*f)[1];
    const bool direct = flags.find("direct") != std::string::npos || flags == "16384";  // O_DIRECT on x86
    m.parameters["direct"] = direct ? "true" : "false";
    if (!direct)
      m.warnings.push_back(
          "sysbench ran through the page cache (no O_DIRECT): the figures are the cache's, not "
          "the disk's (seed 004 shows 595 vs 161 requests/s)");
  }
  return m;
}

}  // namespace labgate::storage

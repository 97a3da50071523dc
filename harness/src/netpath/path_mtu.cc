// Path MTU: the DF probe's command line and reading, the binary search, the verdict.
#include "labgate/netpath/path_mtu.h"

#include <sstream>

#include "labgate/profile/test_address.h"

namespace labgate::netpath {
namespace {

std::string first_line_with(const std::string& text, std::initializer_list<const char*> needles) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line))
    for (const char* n : needles)
      if (line.find(n) != std::string::npos) return line;
  return "";
}

std::string first_line(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line))
    if (!line.empty()) return line;
  return "";
}

// One size, retried while it fails, so one lost echo does not count as "too big".
MtuStep try_size(int mtu, const DfProbe& probe, int attempts, std::vector<MtuStep>& steps) {
  MtuStep step{mtu, DfResult::kNoReply, ""};
  for (int i = 0; i < std::max(1, attempts); ++i) {
    step.detail.clear();
    step.result = probe(mtu, &step.detail);
    steps.push_back(step);
    if (step.result != DfResult::kNoReply) break;
  }
  return step;
}

std::string direction(const std::string& a, const std::string& b, const MtuSearch& s) {
  if (!s.error.empty()) return a + "->" + b + " could not be measured (" + s.error + ")";
  if (!s.mtu) return a + "->" + b + " carries no packet of the smallest size tried";
  return a + "->" + b + " carries " + std::to_string(*s.mtu) + " bytes";
}

}  // namespace

std::vector<std::string> df_probe_command(const std::string& to_address, int mtu) {
  const bool v6 = profile::is_ipv6(to_address);
  return {v6 ? "ping6" : "ping",
          "-n",
          "-c",
          "1",
          "-W",
          "1",
          "-M",
          "do",
          "-s",
          std::to_string(mtu - (v6 ? kIcmp6Overhead : kIcmpOverhead)),
          to_address};
}

DfResult read_df_probe(int exit_status, const std::string& out, const std::string& err, std::string* detail) {
  const std::string all = out + "\n" + err;
  const std::string too_big =
      first_line_with(all, {"message too long", "Message too long", "Frag needed", "frag needed", "Packet too big"});
  if (!too_big.empty()) {
    if (detail) *detail = too_big;
    return DfResult::kTooBig;
  }
  if (exit_status == 0 &&
      (out.find(" 1 received") != std::string::npos || out.find(" 1 packets received") != std::string::npos))
    return DfResult::kPasses;
  if (exit_status == 1) {  // iputils: sent, no reply
    if (detail) *detail = "no reply within 1s";
    return DfResult::kNoReply;
  }
  if (detail) {
    const std::string line = first_line(err).empty() ? first_line(out) : first_line(err);
    *detail = "ping exited with " + std::to_string(exit_status) + (line.empty() ? "" : ": " + line);
  }
  return DfResult::kError;
}

MtuSearch find_path_mtu(int low, int high, const DfProbe& probe, int attempts, std::optional<int> hint) {
  MtuSearch s;
  if (low < 68 || high < low) {
    s.error = "search range [" + std::to_string(low) + ", " + std::to_string(high) + "] is not valid";
    return s;
  }
  // lo: the largest size known to pass; hi: the smallest known not to.
  std::optional<int> lo, hi;
  bool broken = false;
  auto test = [&](int mtu) {
    const MtuStep st = try_size(mtu, probe, attempts, s.steps);
    if (st.result == DfResult::kError) {
      s.error = st.detail.empty() ? "ping could not run" : st.detail;
      broken = true;
      return false;
    }
    (st.result == DfResult::kPasses ? lo : hi) = mtu;
    return st.result == DfResult::kPasses;
  };
  // The expected MTU and one above settle a healthy path in two probes.
  if (hint && *hint >= low && *hint <= high && test(*hint) && *hint < high) test(*hint + 1);
  if (broken) return s;
  if (lo && *lo == high) {
    s.mtu = high;
    return s;
  }
  if (!lo && (!test(low) || broken)) return s;  // nothing passes (or ping cannot run)
  if (!hi && !test(high)) {
    if (broken) return s;
  } else if (!hi) {
    s.mtu = high;
    return s;
  }
  while (*hi - *lo > 1) {
    test(*lo + (*hi - *lo) / 2);
    if (broken) return s;
  }
  s.mtu = lo;
  return s;
}

MtuVerdict judge_path_mtu(int expected, const std::string& from, const std::string& to,
                          const MtuSearch& forward, const MtuSearch& reverse) {
  MtuVerdict v;
  const bool fwd_ok = forward.error.empty() && forward.mtu == expected;
  const bool rev_ok = reverse.error.empty() && reverse.mtu == expected;
  v.pass = fwd_ok && rev_ok;
  v.message = direction(from, to, forward) + " and " + direction(to, from, reverse) + "; expected " +
              std::to_string(expected) + " (mtu = " + std::to_string(expected) + ")";
  if (v.pass) return v;
  auto narrower = [&](const MtuSearch& s) { return s.error.empty() && s.mtu && *s.mtu < expected; };
  auto wider = [&](const MtuSearch& s) { return s.error.empty() && s.mtu && *s.mtu > expected; };
  if (narrower(forward) || narrower(reverse))
    v.message +=
        ": the path is narrower than the profile expects (an interface or switch port on the way has "
        "a smaller MTU; big packets would be fragmented or dropped)";
  else if (wider(forward) || wider(reverse))
    v.message +=
        ": the path carries more than the profile expects (set mtu to what the interfaces are meant "
        "to have, or fix the interface MTU)";
  return v;
}

}  // namespace labgate::netpath

// Reading the keys a [[test]] and [defaults.test] share into a TestDraft: each
// present key overrides the value in force and remembers where it was written.
#include "labgate/profile/kind_traits.h"
#include "sections.h"
#include "suggest.h"
#include "test_draft.h"

namespace labgate::profile::detail {
namespace {

// Every key a test may hold (besides name, budget, budget_by, and the keys a
// registered kind owns: KindTraits::own), for positions.
constexpr const char* kFieldKeys[] = {"kind",
                                      "tool",
                                      "from",
                                      "to",
                                      "on",
                                      "duration",
                                      "warmup",
                                      "message_size",
                                      "cpu",
                                      "rate",
                                      "interval",
                                      "nodelay",
                                      "busy_poll",
                                      "port",
                                      "socket_buffer",
                                      "congestion",
                                      "mtu",
                                      "count",
                                      "size",
                                      "dir",
                                      "path",
                                      "file_size",
                                      "block_size",
                                      "threads",
                                      "direct",
                                      "read_mix",
                                      "pairs",
                                      "directions",
                                      "hosts",
                                      "network",
                                      "sample_tolerance",
                                      "mesh_schedule",
                                      "outlier",
                                      "full_log",
                                      "one_way_max_error",
                                      "tool_path",
                                      "wrapper",
                                      "preload"};

template <typename E>
std::vector<std::string> names_of(std::span<const E> all) {
  std::vector<std::string> out;
  for (E e : all) out.emplace_back(to_string(e));
  return out;
}

// kind = "..." / tool = "...": one of `all`, else an error listing them.
template <typename E, typename Parse>
std::optional<E> read_enum(TableReader& r, std::string_view key, std::span<const E> all, Parse parse) {
  auto v = r.get_string(key);
  if (!v) return std::nullopt;
  if (auto e = parse(*v)) return e;
  const std::vector<std::string> names = names_of(all);
  std::string msg = "unknown " + std::string(key) + " \"" + *v + "\"";
  if (auto s = closest(*v, names)) msg += "; did you mean \"" + *s + "\"?";
  r.diag().error(r.get(key)->pos, r.key_path(key), msg + " Expected one of: " + join(names));
  return std::nullopt;
}

void read_cpu_placement(const Node& n, const std::string& key, CpuPlacement& cpu, Diagnostics& d) {
  TableReader r(&n, key, d);
  if (auto v = r.get_int("client", 0, 4095)) cpu.client = static_cast<int>(*v);
  if (auto v = r.get_int("server", 0, 4095)) cpu.server = static_cast<int>(*v);
  r.finish();
}

std::optional<std::uint64_t> size_of(TableReader& r, std::string_view key) {
  const Node* n = r.get(key);
  return n ? read_size(*n, r.key_path(key), r.diag()) : std::nullopt;
}

// A remote directory or file: absolute, no "..", no whitespace (the probe and
// sysbench get it as one argument; ".." would let a path climb out of `dir`).
std::optional<std::string> remote_path(TableReader& r, std::string_view key, std::string_view key_shown) {
  auto v = r.get_string(key);
  if (!v) return std::nullopt;
  const std::string& p = *v;
  const bool climbs = p == ".." || p.find("/../") != std::string::npos || p.ends_with("/..");
  const bool space = p.find_first_of(" \t\n\r") != std::string::npos;
  if (p.empty() || p[0] != '/' || climbs || space) {
    r.diag().error(r.get(key)->pos, r.key_path(key_shown),
                   "expected an absolute path on the host without \"..\" or spaces, like \"/u01/labgate\"");
    return std::nullopt;
  }
  std::string out = p;
  while (out.size() > 1 && out.back() == '/') out.pop_back();
  return out;
}

// The keys of the kinds added for the seeds' field practice (ping, disk; `count`
// is a ping_flood's and a command's).
void read_extra_fields(TableReader& r, TestDraft& t, bool from_defaults) {
  TestSpec& s = t.spec;
  if (auto v = size_of(r, "socket_buffer")) s.socket_buffer = *v;
  if (auto v = r.get_string("congestion")) s.congestion = *v;
  if (auto v = r.get_string("tool_path")) s.tool_path = *v;
  if (auto v = r.get_int("mtu", 68, 65535)) s.mtu = static_cast<int>(*v);
  if (auto v = r.get_int("count", 1)) {
    s.ping.count = static_cast<std::uint64_t>(*v);
    s.command.count = static_cast<std::uint64_t>(*v);
  }
  if (auto v = size_of(r, "size")) s.ping.size = *v;
  // The configured directory is `disk_dir` in [defaults.test], `dir` in a test.
  const char* dir_key = from_defaults ? "disk_dir" : "dir";
  if (from_defaults && r.node() && r.node()->find("disk_dir"))
    t.where["dir"] = r.node()->find("disk_dir")->pos;
  if (from_defaults)
    r.forbid("dir", "in [defaults.test] the directory disk tests may use is written disk_dir = \"...\"");
  if (auto v = remote_path(r, dir_key, dir_key)) s.disk.dir = *v;
  if (auto v = remote_path(r, "path", "path")) s.disk.path = *v;
  if (auto v = size_of(r, "file_size")) s.disk.file_size = *v;
  if (auto v = size_of(r, "block_size")) s.disk.block_size = *v;
  if (auto v = r.get_int("threads", 1, 1024)) s.disk.threads = static_cast<int>(*v);
  if (auto v = r.get_bool("direct")) s.disk.direct = *v;
  if (const Node* n = r.get("read_mix")) {
    if (auto v = read_percentage(*n, r.key_path("read_mix"), r.diag())) s.disk.read_mix = *v;
  }
}

}  // namespace

SourcePos TestDraft::pos_of(const std::string& k) const {
  auto it = where.find(k);
  return it != where.end() ? it->second : spec.pos;
}

std::string TestDraft::key_of(const std::string& k) const {
  const std::string full = key + "." + k;
  return written.count(k) || !where.count(k) ? full : full + " (inherited from [defaults.test])";
}

void read_test_fields(TableReader& r, TestDraft& t, bool from_defaults) {
  // Remember where each present key is, before its value is checked.
  const auto remember = [&](const char* k) {
    const Node* n = r.node() ? r.node()->find(k) : nullptr;
    if (!n || (from_defaults && std::string_view(k) == "dir")) return;  // disk_dir there
    t.where[k] = n->pos;
    if (!from_defaults) t.written.insert(k);
  };
  for (const char* k : kFieldKeys) remember(k);
  for (TestKind k : all_test_kinds())
    if (const KindTraits* traits = find_kind(k))
      for (const KindKey& own : traits->own) remember(own.key);
  TestSpec& s = t.spec;
  if (r.get("kind")) {
    t.has_kind = true;
    auto v = read_enum<TestKind>(r, "kind", all_test_kinds(), parse_test_kind);
    t.kind_bad = !v;
    if (v) s.kind = *v;
  }
  if (r.get("tool")) {
    auto v = read_enum<Tool>(r, "tool", all_tools(), parse_tool);
    t.tool_bad = !v;
    if (v) s.tool = *v;
  }
  if (auto v = r.get_string("from")) s.from = *v;
  if (auto v = r.get_string("network")) s.network = *v;
  if (const Node* n = r.get("to")) {
    // to = "b" (one server), or udp_multicast's subscribers to = ["b", "c"].
    if (n->type == Node::Type::kString)
      s.to = n->text;
    else if (auto v = read_strings(*n, r.key_path("to"), r.diag()))
      s.multicast.subscribers = *v;
  }
  if (const Node* n = r.get("on")) {
    // on = "a" (one host, as a command test runs) or on = ["a", "b"].
    if (n->type == Node::Type::kString)
      s.on = {n->text};
    else if (auto v = read_strings(*n, r.key_path("on"), r.diag()))
      s.on = *v;
  }
  if (auto v = r.get_duration("duration")) s.duration = *v;
  if (auto v = r.get_duration("warmup")) s.warmup = *v;
  if (auto v = r.get_duration("interval")) {
    s.interval = *v;
    // ping_flood: ping -i. Only the test's own interval paces a flood; one in
    // [defaults.test] is the series interval of the other tests.
    if (!from_defaults) s.ping.interval = *v;
  }
  if (auto v = size_of(r, "message_size")) s.message_size = *v;
  if (const Node* n = r.get_table("cpu")) read_cpu_placement(*n, r.key_path("cpu"), s.cpu, r.diag());
  if (const Node* n = r.get("rate")) {
    if (auto v = read_event_rate(*n, r.key_path("rate"), r.diag())) s.rate_per_sec = *v;
  }
  if (auto v = r.get_bool("nodelay")) s.nodelay = *v;
  if (auto v = r.get_bool("busy_poll")) s.busy_poll = *v;
  if (auto v = r.get_bool("full_log")) s.full_log = *v;
  if (auto v = r.get_duration("outlier")) {
    if (v->count() > 0)
      s.outlier = *v;
    else
      r.diag().error(r.get("outlier")->pos, r.key_path("outlier"), "must be above 0, e.g. \"200us\"");
  }
  if (auto v = r.get_duration("one_way_max_error")) {
    if (v->count() > 0)
      s.one_way_max_error = *v;
    else
      r.diag().error(r.get("one_way_max_error")->pos, r.key_path("one_way_max_error"),
                     "must be above 0, e.g. \"5us\"");
  }
  if (auto v = r.get_int("port", 1, 65535)) s.port = static_cast<int>(*v);
  if (const Node* n = r.get("sample_tolerance")) {
    if (auto v = read_percentage(*n, r.key_path("sample_tolerance"), r.diag())) {
      if (*v >= 1.0)
        r.diag().error(n->pos, r.key_path("sample_tolerance"),
                       "must be below 100% (a run that may lose every sample proves nothing), e.g. \"1%\"");
      else
        s.sample_tolerance = *v;
    }
  }
  read_extra_fields(r, t, from_defaults);
  for (TestKind k : all_test_kinds())  // the registered kinds' own keys (kinds/<kind>.cc)
    if (const KindTraits* traits = find_kind(k); traits && traits->read) traits->read(r, t);
  read_launch_keys(r, s);
  read_mesh_fields(r, t);
}

}  // namespace labgate::profile::detail

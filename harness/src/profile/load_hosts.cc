// Reading [lab], [defaults.ssh] and [hosts.*]: each host starts from the
// defaults and overrides any SSH key inline; secrets are refused outright.
#include <algorithm>

#include "labgate/profile/limits.h"
#include "labgate/profile/proxy_jump.h"
#include "labgate/profile/test_address.h"
#include "paths.h"
#include "sections.h"
#include "suggest.h"

namespace labgate::profile::detail {
namespace {

const std::string kNoSecrets =
    "a profile never holds a secret (it is copied into results, logs and reports); put it in an "
    "environment variable and name that variable with ";

bool is_env_name(std::string_view s) {
  if (s.empty() || (s[0] >= '0' && s[0] <= '9')) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
}

bool has_space(std::string_view s) {
  return std::any_of(s.begin(), s.end(),
                     [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; });
}

std::optional<Nanos> positive_duration(TableReader& r, std::string_view key) {
  auto v = r.get_duration(key);
  if (v && v->count() <= 0) {
    r.diag().error(r.get(key)->pos, r.key_path(key), "must be above 0, e.g. \"10s\"");
    return std::nullopt;
  }
  return v;
}

void read_env_name(TableReader& r, std::string_view key, std::optional<std::string>& out) {
  auto v = r.get_string(key);
  if (!v) return;
  if (!is_env_name(*v)) {
    r.diag().error(r.get(key)->pos, r.key_path(key),
                   "expected the NAME of an environment variable like \"LABGATE_KEY_PASSPHRASE\" "
                   "(letters, digits, _), not the secret itself");
    return;
  }
  out = *v;
}

void read_local_path(TableReader& r, std::string_view key, const std::string& base_dir,
                     std::optional<std::string>& out) {
  auto v = r.get_string(key);
  if (!v) return;
  ResolvedPath p = resolve_local_path(*v, base_dir);
  if (!p.path) {
    r.diag().error(r.get(key)->pos, r.key_path(key), p.error);
    return;
  }
  out = *p.path;
}

// An absolute remote directory (probe_dir, lease_dir); true if read.
bool read_remote_dir(TableReader& r, std::string_view key, std::string& out) {
  auto v = r.get_string(key);
  if (!v) return false;
  std::string why = remote_dir_refusal(*v);
  if (why.empty() && has_space(*v))
    why = "expected an absolute directory on the host like \"/var/tmp\" (it is a remote path: no ~)";
  if (!why.empty()) {
    r.diag().error(r.get(key)->pos, r.key_path(key), why);
    return false;
  }
  out = *v;
  if (out.size() > 1 && out.back() == '/') out.pop_back();  // the one trailing '/' normal form allows
  return true;
}

// The connection keys an ssh_config may also supply: which table set each one
// is recorded, since what the profile says explicitly wins over ssh_config.
void note_origins(TableReader& r, SshSettings& s, const std::string& table) {
  for (const char* key : {"user", "port", "identity", "known_hosts", "proxy_jump"})
    if (r.get(key)) s.origin[key] = table;
}

void read_proxy_jump(TableReader& r, SshSettings& s) {
  auto v = r.get_string("proxy_jump");
  if (!v) return;
  const ParsedJumps j = parse_proxy_jump(*v);
  if (!j.error.empty()) {
    r.diag().error(r.get("proxy_jump")->pos, r.key_path("proxy_jump"), j.error);
    return;
  }
  s.proxy_jump = *v;
}

// The SSH keys, valid both in [defaults.ssh] and inline in a [hosts.NAME].
void read_ssh_keys(TableReader& r, SshSettings& s, const std::string& base_dir, const std::string& table) {
  note_origins(r, s, table);
  read_proxy_jump(r, s);
  read_local_path(r, "ssh_config", base_dir, s.ssh_config);
  if (auto v = r.get_string("user")) {
    if (v->empty() || has_space(*v))
      r.diag().error(r.get("user")->pos, r.key_path("user"), "expected a user name like \"root\"");
    else
      s.user = *v;
  }
  if (auto v = r.get_int("port", 1, 65535)) s.port = static_cast<int>(*v);
  read_local_path(r, "identity", base_dir, s.identity);
  std::optional<std::string> known_hosts;
  read_local_path(r, "known_hosts", base_dir, known_hosts);
  if (known_hosts) s.known_hosts = *known_hosts;
  read_env_name(r, "passphrase_env", s.passphrase_env);
  read_env_name(r, "password_env", s.password_env);
  if (auto v = r.get_bool("legacy_algorithms")) s.legacy_algorithms = *v;
  if (auto v = r.get_bool("accept_new_host_keys")) s.accept_new_host_keys = *v;
  if (auto v = positive_duration(r, "connect_timeout")) s.connect_timeout = *v;
  if (auto v = positive_duration(r, "command_timeout")) s.command_timeout = *v;
  read_remote_dir(r, "probe_dir", s.probe_dir);
  std::string lease_dir;
  if (read_remote_dir(r, "lease_dir", lease_dir)) s.lease_dir = lease_dir;
  if (auto v = r.get_string("become")) {
    if (*v == "sudo")
      s.become = *v;
    else if (v->empty() || *v == "none")
      s.become.reset();
    else
      r.diag().error(r.get("become")->pos, r.key_path("become"),
                     "expected \"sudo\" (what needs root runs through `sudo -n`) or \"none\"; labgate never "
                     "types a password, so su and sudo with a password prompt are not offered");
  }
  r.forbid("password", kNoSecrets + "password_env = \"LABGATE_SSH_PASSWORD\"");
  r.forbid("passphrase", kNoSecrets + "passphrase_env = \"LABGATE_KEY_PASSPHRASE\"");
}

// A required, non-empty, space-free string such as an address.
std::optional<std::string> read_word(TableReader& r, std::string_view key, const char* example) {
  auto v = r.get_string(key);
  if (v && (v->empty() || has_space(*v))) {
    r.diag().error(r.get(key)->pos, r.key_path(key),
                   std::string("expected something like \"") + example + "\"");
    return std::nullopt;
  }
  return v;
}

// A numeric IPv4 or IPv6 address, or a host name (resolved on the host at run
// time); anything else would only fail later, far from the profile.
bool usable_test_address(const Node& n, const std::string& key, Diagnostics& d) {
  std::string why;
  if (classify_address(n.text, &why)) return true;
  d.error(n.pos, key, "\"" + n.text + "\" is " + why);
  return false;
}

// test_address = "1.1.1.1" | "fd00::2" | "ic-b" (one network), or
// { direct = "1.1.1.1", switch = "10.20.0.11" }.
void read_test_addresses(TableReader& r, Host& h, Diagnostics& d) {
  const Node* n = r.get("test_address");
  if (!n) return;
  h.test_address_given = true;  // refused or not, it is not missing
  const std::string key = r.key_path("test_address");
  const char* example = "an address like \"192.168.1.1\" or \"fd00::2\", or a host name";
  if (n->type == Node::Type::kString) {
    if (usable_test_address(*n, key, d)) h.test_address = n->text;
    return;
  }
  if (!n->is_table()) {
    wrong_type(*n, key, std::string(example) + ", or a table of networks like { direct = \"1.1.1.1\" }", d);
    return;
  }
  for (const Node& c : n->children) {
    const std::string k = join_key(key, c.key);
    if (!is_plain_name(c.key))
      d.error(c.key_pos, k, "a network name must be a plain name like \"direct\"");
    else if (c.type != Node::Type::kString)
      wrong_type(c, k, example, d);
    else if (usable_test_address(c, k, d))
      h.networks.push_back({c.key, c.text});
  }
  if (n->children.empty()) d.error(n->pos, key, "an empty table names no network; give e.g. { direct = \"1.1.1.1\" }");
  if (!h.networks.empty()) h.test_address = h.networks.front().address;
}

Host read_host(const Node& n, const SshSettings& defaults, const std::string& base_dir, Diagnostics& d) {
  Host h;
  h.name = n.key;
  h.pos = n.header ? n.pos : n.key_pos;
  h.ssh = defaults;
  TableReader r(&n, join_key("hosts", n.key), d);
  r.require({"address"});
  if (auto v = read_word(r, "address", "10.0.0.1\" or \"local")) h.address = *v;
  read_test_addresses(r, h, d);
  if (auto v = r.get_string("netns")) {
    if (is_plain_name(*v))
      h.netns = *v;
    else
      d.error(r.get("netns")->pos, r.key_path("netns"), "expected a network namespace name like \"lg-a\"");
  }
  read_ssh_keys(r, h.ssh, base_dir, join_key("hosts", n.key));
  r.finish();
  return h;
}

// The required top-level table `key`, or nullptr after recording why not.
const Node* top_table(const Node& root, const char* key, const std::string& how_to_add, const char* expected,
                      Diagnostics& d) {
  const Node* n = root.find(key);
  if (!n) {
    d.error(root.pos, key, "missing; " + how_to_add);
    return nullptr;
  }
  if (!n->is_table()) {
    wrong_type(*n, key, expected, d);
    return nullptr;
  }
  return n;
}

}  // namespace

bool is_plain_name(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-' || c == '.';
  });
}

bool check_host_ref(const Profile& p, const std::string& name, const SourcePos& pos, const std::string& key,
                    Diagnostics& d) {
  if (p.find_host(name)) return true;
  std::vector<std::string> names;
  for (const Host& h : p.hosts) names.push_back(h.name);
  std::string msg =
      "\"" + name + "\" is not a defined host; defined hosts: " + (names.empty() ? "none" : join(names));
  if (auto s = closest(name, names)) msg += "; did you mean \"" + *s + "\"?";
  d.error(pos, key, msg);
  return false;
}

void read_lab(const Node& root, Profile& p, Diagnostics& d) {
  const Node* lab = top_table(
      root, "lab", "add a [lab] table with name = \"...\" (it names the lease and results)", "a table", d);
  if (!lab) return;
  TableReader r(lab, "lab", d);
  r.require({"name"});
  if (auto v = r.get_string("name")) {
    if (is_plain_name(*v))
      p.lab_name = *v;
    else
      d.error(r.get("name")->pos, "lab.name",
              "expected a name of letters, digits, '_', '-', '.' like \"ctp-pair-1\"");
  }
  if (auto v = r.get_string("description")) p.description = *v;
  if (auto v = r.get_duration("lease_wait")) p.lease_wait = *v;
  r.finish();
}

void read_hosts(const Node& root, const Node* defaults_ssh, const std::string& base_dir, Profile& p,
                Diagnostics& d) {
  SshSettings defaults;
  if (ResolvedPath kh = resolve_local_path(defaults.known_hosts, base_dir); kh.path)
    defaults.known_hosts = *kh.path;
  TableReader dr(defaults_ssh, "defaults.ssh", d);
  read_ssh_keys(dr, defaults, base_dir, "defaults.ssh");
  dr.finish();

  const Node* hosts =
      top_table(root, "hosts", "define at least one host, e.g. [hosts.a] with address = \"...\"",
                "a table of hosts like [hosts.a]", d);
  if (!hosts) return;
  if (hosts->children.empty())
    d.error(hosts->pos, "hosts", "no host defined; add e.g. [hosts.a] with address = \"...\"");
  for (const Node& n : hosts->children) {
    const std::string key = join_key("hosts", n.key);
    if (!n.is_table()) {
      wrong_type(n, key, "a table like [" + key + "] with address = \"...\"", d);
      continue;
    }
    if (const std::string why = name_length_refusal(n.key, kMaxHostNameBytes, "a host name"); !why.empty())
      d.error(n.header ? n.pos : n.key_pos, join_key("hosts", n.key.substr(0, 48) + "..."), why);
    else if (!is_plain_name(n.key))
      d.error(n.header ? n.pos : n.key_pos, key, "a host name may hold only letters, digits, '_', '-', '.'");
    p.hosts.push_back(read_host(n, defaults, base_dir, d));
  }
}

}  // namespace labgate::profile::detail

// labgate::profile::load: reads the file, parses it, runs every section reader
// and returns the typed profile or every error found, in file order.
#include <filesystem>
#include <fstream>
#include <sstream>

#include "labgate/util/exit_code.h"
#include "paths.h"
#include "sections.h"

namespace labgate::profile {
namespace {

// Profiles are a few KiB; a bigger "profile" is a wrong path (a log, /dev/zero).
constexpr std::uintmax_t kMaxProfileBytes = 4u << 20;

LoadResult one_error(const std::string& path, std::string message) {
  return LoadResult{std::nullopt, {ProfileError{SourcePos{path, 0, 0}, "", std::move(message)}}};
}

}  // namespace

LoadResult load(const std::string& path) { return load(path, {}); }

LoadResult load(const std::string& path, const std::vector<RunOverride>& overrides) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (ec || !fs::exists(st)) return one_error(path, "cannot read profile: no such file");
  if (fs::is_directory(st)) return one_error(path, "cannot read profile: it is a directory");
  if (!fs::is_regular_file(st)) return one_error(path, "cannot read profile: not a regular file");
  const std::uintmax_t size = fs::file_size(path, ec);
  if (ec) return one_error(path, "cannot read profile: " + ec.message());
  if (size > kMaxProfileBytes)
    return one_error(path,
                     "cannot read profile: " + std::to_string(size) + " bytes is too large for a profile");
  std::ifstream in(path, std::ios::binary);
  if (!in) return one_error(path, "cannot read profile: permission denied or unreadable");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return one_error(path, "cannot read profile: read error");
  return load_from_string(text.str(), path, overrides);
}

LoadResult load_from_string(const std::string& text, const std::string& path,
                            const std::vector<RunOverride>& overrides) {
  using namespace detail;
  ParsedToml doc = parse_toml(text, path);
  if (doc.error) return LoadResult{std::nullopt, {*doc.error}};
  Node& root = *doc.root;
  Diagnostics d;
  Profile p;
  p.path = path;
  // Before anything reads the tests: an override is then read, swept and checked
  // exactly as if every test that has the parameter had it written.
  apply_run_overrides(root, overrides, p.overrides, d);

  TableReader r(&root, "", d);
  r.get("lab");
  read_lab(root, p, d);
  const Node* defaults = r.get_table("defaults");
  TableReader dr(defaults, "defaults", d);
  const Node* defaults_ssh = dr.get_table("ssh");
  const Node* defaults_test = dr.get_table("test");
  dr.finish();
  r.get("hosts");
  read_hosts(root, defaults_ssh, profile_dir(path), p, d);
  read_preconditions(r.get("preconditions"), p, d);
  read_tests(r.get("test"), defaults_test, p, d);
  check_networks(p, d);
  r.finish();

  LoadResult out;
  out.errors = d.take();
  if (out.errors.empty()) out.profile = std::move(p);
  return out;
}

Profile load_or_throw(const std::string& path, const std::vector<RunOverride>& overrides) {
  LoadResult r = load(path, overrides);
  if (r.profile) return std::move(*r.profile);
  std::string message;
  for (const ProfileError& e : r.errors) message += (message.empty() ? "" : "\n") + e.str();
  throw Failure(ExitCode::kUsageError, message);
}

}  // namespace labgate::profile

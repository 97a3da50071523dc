// Which lab pair CTest's resource allocation gave a test, and that pair's files.
#include "labgate/pool/pool_slot.h"

#include <cstdlib>
#include <filesystem>

#include "labgate/util/exit_code.h"

namespace labgate::pool {
namespace {

[[noreturn]] void usage(const std::string& what) { throw Failure(ExitCode::kUsageError, "pool: " + what); }

std::string upper(std::string s) {
  for (char& c : s)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  return s;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t end = s.find(sep, start);
    out.push_back(s.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) return out;
    start = end + 1;
  }
}

// "id:pair6,slots:1;id:pair7,slots:1" -> the ids.
std::vector<std::string> ids_of(const std::string& var, const std::string& value) {
  std::vector<std::string> ids;
  for (const std::string& item : split(value, ';')) {
    const auto fields = split(item, ',');
    if (fields.size() != 2 || !fields[0].starts_with("id:") || !fields[1].starts_with("slots:"))
      usage(var + "=\"" + value + "\": expected id:ID,slots:N items separated by ';'");
    const std::string id = fields[0].substr(3);
    if (!valid_pair_id(id))
      usage(var + ": \"" + id + "\" is not a valid pair id (lowercase letters, digits, '_')");
    ids.push_back(id);
  }
  return ids;
}

}  // namespace

bool valid_pair_id(const std::string& id) {
  if (id.empty()) return false;
  for (char c : id)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return true;
}

std::optional<std::vector<std::string>> allocated_ids(const std::string& type, const EnvLookup& env) {
  const char* count_text = env("CTEST_RESOURCE_GROUP_COUNT");
  if (!count_text) return std::nullopt;
  char* end = nullptr;
  const long count = std::strtol(count_text, &end, 10);
  if (!*count_text || *end || count < 0 || count > 4096)
    usage(std::string("CTEST_RESOURCE_GROUP_COUNT=\"") + count_text + "\" is not a group count");
  std::vector<std::string> ids;
  for (long g = 0; g < count; ++g) {
    const std::string group_var = "CTEST_RESOURCE_GROUP_" + std::to_string(g);
    const char* types = env(group_var.c_str());
    if (!types) usage(group_var + " is not set though CTEST_RESOURCE_GROUP_COUNT is " + count_text);
    bool has_type = false;
    for (const std::string& t : split(types, ','))
      if (t == type) has_type = true;
    if (!has_type) continue;  // a group of some other resource
    const std::string var = group_var + "_" + upper(type);
    const char* value = env(var.c_str());
    if (!value) usage(var + " is not set though " + group_var + " names " + type);
    for (std::string& id : ids_of(var, value)) ids.push_back(std::move(id));
  }
  return ids;
}

PoolSlot resolve_slot(const PoolRequest& request, const EnvLookup& env_in) {
  const EnvLookup env = env_in ? env_in : EnvLookup([](const char* n) { return std::getenv(n); });
  const auto ids = allocated_ids(kResourceType, env);
  if (!ids)
    usage("no pair was allocated: run ctest with --resource-spec-file " + request.pool_dir +
          "/resources.json (the tests ask for RESOURCE_GROUPS pairs:1)");
  std::string pair = request.pair;
  if (pair.empty()) {
    if (ids->size() != 1)
      usage("this test holds " + std::to_string(ids->size()) + " pairs; name the one to use with --pair");
    pair = ids->front();
  } else {
    bool held = false;
    for (const auto& id : *ids) held = held || id == pair;
    if (!held) usage("--pair " + pair + " is not among the pairs ctest allocated to this test");
  }
  if (!valid_pair_id(pair)) usage("\"" + pair + "\" is not a valid pair id (lowercase letters, digits, '_')");
  namespace fs = std::filesystem;
  PoolSlot slot{pair, (fs::path(request.pool_dir) / (pair + ".toml")).string(),
                (fs::path(request.state_dir) / (pair + ".run")).string()};
  if (!fs::is_regular_file(slot.profile))
    usage("pair " + pair + " has no profile " + slot.profile + " (every id in the resource spec needs one)");
  return slot;
}

}  // namespace labgate::pool

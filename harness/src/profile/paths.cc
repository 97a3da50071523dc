// Local path resolution for profile values: ~ expansion and profile-relative paths.
#include "paths.h"

#include <pwd.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace labgate::profile::detail {
namespace {

std::optional<std::string> home_dir() {
  if (const char* h = std::getenv("HOME"); h != nullptr && h[0] == '/') return std::string(h);
  if (const passwd* pw = getpwuid(getuid()); pw != nullptr && pw->pw_dir != nullptr && pw->pw_dir[0] == '/')
    return std::string(pw->pw_dir);
  return std::nullopt;
}

}  // namespace

ResolvedPath resolve_local_path(std::string_view value, const std::string& base_dir) {
  namespace fs = std::filesystem;
  ResolvedPath r;
  if (value.empty()) {
    r.error = "empty path; expected a file path like \"~/.ssh/id_rsa\"";
    return r;
  }
  if (value.find('\0') != std::string_view::npos) {
    r.error = "path contains a NUL byte";
    return r;
  }
  fs::path p;
  if (value[0] == '~') {
    if (value.size() > 1 && value[1] != '/') {
      r.error = "\"" + std::string(value) + "\": ~user is not supported; write the full path or \"~/...\"";
      return r;
    }
    auto home = home_dir();
    if (!home) {
      r.error = "\"" + std::string(value) + "\": cannot expand ~ (HOME is not set); write the full path";
      return r;
    }
    p = fs::path(*home) / std::string(value.size() > 2 ? value.substr(2) : std::string_view{});
  } else if (value[0] == '/') {
    p = fs::path(std::string(value));
  } else {
    p = fs::path(base_dir) / std::string(value);
  }
  std::string out = p.lexically_normal().string();
  // "~/" and "dir/" normalise with a trailing slash; a file path should not keep it.
  while (out.size() > 1 && out.back() == '/') out.pop_back();
  r.path = out;
  return r;
}

std::string profile_dir(const std::string& profile_path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path abs = fs::absolute(fs::path(profile_path), ec);
  if (ec) abs = fs::path(profile_path);
  return abs.lexically_normal().parent_path().string();
}

}  // namespace labgate::profile::detail

// Finding the mount that holds a path in /proc/mounts text (see mounts.h).
#include "labgate/deploy/mounts.h"

#include <sstream>
#include <string_view>

namespace labgate::deploy {

namespace {

std::string unescape(const std::string& field) {
  std::string out;
  for (std::size_t i = 0; i < field.size(); ++i) {
    const bool octal =
        field[i] == '\\' && i + 3 < field.size() &&
        std::string_view(field).substr(i + 1, 3).find_first_not_of("01234567") == std::string_view::npos;
    if (octal) {
      out += static_cast<char>(std::stoi(field.substr(i + 1, 3), nullptr, 8));
      i += 3;
    } else {
      out += field[i];
    }
  }
  return out;
}

bool is_under(const std::string& path, const std::string& mount_point) {
  if (mount_point == "/") return !path.empty() && path[0] == '/';
  return path.compare(0, mount_point.size(), mount_point) == 0 &&
         (path.size() == mount_point.size() || path[mount_point.size()] == '/');
}

}  // namespace

bool MountEntry::has_option(std::string_view option) const {
  std::size_t start = 0;
  while (start <= options.size()) {
    const std::size_t end = std::min(options.find(',', start), options.size());
    if (std::string_view(options).substr(start, end - start) == option) return true;
    start = end + 1;
  }
  return false;
}

std::optional<MountEntry> mount_for(const std::string& path, const std::string& proc_mounts) {
  std::optional<MountEntry> best;
  std::istringstream lines(proc_mounts);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream fields(line);
    MountEntry m;
    if (!(fields >> m.device >> m.mount_point >> m.fstype >> m.options)) continue;
    m.mount_point = unescape(m.mount_point);
    if (!is_under(path, m.mount_point)) continue;
    if (!best || m.mount_point.size() >= best->mount_point.size()) best = m;
  }
  return best;
}

}  // namespace labgate::deploy

// A stat(1) line read as a FileInfo (see stat_line.h).
#include "labgate/transport/stat_line.h"

#include <sys/stat.h>

#include <sstream>
#include <stdexcept>

#include "labgate/util/excerpt.h"

namespace labgate::transport {

std::optional<Transport::FileInfo> parse_stat_line(const std::string& out) {
  std::istringstream in(out);
  std::string mode_hex;
  if (!(in >> mode_hex)) return std::nullopt;
  if (mode_hex == "ABSENT") return std::nullopt;
  long uid = -1;
  unsigned long long size = 0;
  if (!(in >> uid >> size)) throw std::invalid_argument("unexpected stat output: " + excerpt(out, 200));
  const unsigned long raw = std::stoul(mode_hex, nullptr, 16);
  Transport::FileInfo info;
  info.is_dir = S_ISDIR(raw);
  info.is_symlink = S_ISLNK(raw);
  info.mode = static_cast<unsigned>(raw & 07777);
  info.uid = uid;
  info.size = size;
  return info;
}

}  // namespace labgate::transport

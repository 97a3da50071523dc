// Finds the built probes next to the running labgate binary (or where told).
#include "labgate/gate/probe_locator.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <vector>

#include "labgate/util/exit_code.h"

namespace labgate::gate {

std::string local_probe(const std::string& name) {
  namespace fs = std::filesystem;
  std::vector<fs::path> candidates;
  if (const char* dir = std::getenv("LABGATE_PROBE_DIR"); dir && *dir) candidates.push_back(fs::path(dir) / name);
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) candidates.push_back(self.parent_path().parent_path() / "probes" / name);
  std::string looked;
  for (const auto& c : candidates) {
    if (::access(c.c_str(), X_OK) == 0) return c.string();
    looked += (looked.empty() ? "" : ", ") + c.string();
  }
  throw Failure(ExitCode::kCouldNotRun, "probe '" + name + "' not found (looked at: " + looked +
                                            "); build it (cmake --build) or set LABGATE_PROBE_DIR");
}

}  // namespace labgate::gate

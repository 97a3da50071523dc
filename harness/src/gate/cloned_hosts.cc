// Naming hosts that present the same host key (see cloned_hosts.h).
#include "labgate/gate/cloned_hosts.h"

#include <map>

namespace labgate::gate {

std::vector<std::string> cloned_host_warnings(const std::vector<std::pair<std::string, std::string>>& hosts) {
  std::map<std::string, std::vector<std::string>> by_key;
  std::vector<std::string> order;  // identities in the order their first host came
  for (const auto& [name, identity] : hosts) {
    if (identity.empty()) continue;  // the transport cannot tell
    auto& names = by_key[identity];
    if (names.empty()) order.push_back(identity);
    names.push_back(name);
  }
  std::vector<std::string> out;
  for (const std::string& identity : order) {
    const auto& names = by_key[identity];
    if (names.size() < 2) continue;
    std::string list;
    for (std::size_t i = 0; i < names.size(); ++i)
      list += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
    out.push_back("hosts " + list + " present the same host key (" + identity +
                  "): cloned image? The run goes on; on storage they share, each host's sweep leaves the "
                  "others' run directories alone (told apart by boot, not by key), and they share one lab "
                  "lease there. Give each host its own key (ssh-keygen -A after removing the cloned ones)");
  }
  return out;
}

}  // namespace labgate::gate

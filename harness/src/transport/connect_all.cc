// Parallel connection to a run's hosts, failures gathered and named together.
#include "labgate/transport/connect_all.h"

#include <future>
#include <optional>

#include "labgate/util/exit_code.h"

namespace labgate::transport {

std::string join_failures(const std::vector<std::string>& messages) {
  if (messages.size() == 1) return messages[0];
  std::string out = std::to_string(messages.size()) + " hosts cannot be reached:";
  for (const std::string& m : messages) out += "\n- " + m;
  return out;
}

Connected connect_all(const std::vector<profile::Host>& hosts, Maker make) {
  std::vector<std::future<std::unique_ptr<Transport>>> pending;
  for (const profile::Host& h : hosts) {
    pending.push_back(std::async(std::launch::async, [&h, &make] {
      auto t = make(h);
      t->connect();
      return t;
    }));
  }
  Connected out;
  std::vector<std::string> errors;
  std::optional<ExitCode> code;
  for (std::size_t i = 0; i < hosts.size(); ++i) {
    try {
      out[hosts[i].name] = pending[i].get();
    } catch (const Failure& f) {
      if (!code) code = f.code();
      errors.push_back(f.what());
    } catch (const std::exception& e) {
      if (!code) code = ExitCode::kCouldNotRun;
      errors.push_back("host " + hosts[i].name + ": " + e.what());
    }
  }
  if (!errors.empty()) throw Failure(*code, join_failures(errors));
  return out;
}

}  // namespace labgate::transport

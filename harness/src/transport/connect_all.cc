// Parallel steps over a run's hosts, failures gathered and named together.
#include "labgate/transport/connect_all.h"

#include <future>

namespace labgate::transport {

std::string join_failures(const std::vector<std::string>& messages, const std::string& what) {
  if (messages.size() == 1) return messages[0];
  std::string out = std::to_string(messages.size()) + " " + what + ":";
  for (const std::string& m : messages) out += "\n- " + m;
  return out;
}

void HostFailures::throw_if_any(const std::string& what) const {
  if (!messages.empty()) throw Failure(*code, join_failures(messages, what));
}

HostFailures on_each_host(std::size_t n, const std::function<void(std::size_t)>& step,
                          const std::function<std::string(std::size_t)>& name) {
  std::vector<std::future<void>> pending;
  pending.reserve(n);
  // One host alone needs no thread (and a fake's test sees it on its own thread).
  if (n == 1) {
    std::promise<void> done;
    try {
      step(0);
      done.set_value();
    } catch (...) {
      done.set_exception(std::current_exception());
    }
    pending.push_back(done.get_future());
  } else {
    for (std::size_t i = 0; i < n; ++i) pending.push_back(std::async(std::launch::async, [&step, i] { step(i); }));
  }
  HostFailures out;
  for (std::size_t i = 0; i < n; ++i) {
    try {
      pending[i].get();
    } catch (const Failure& f) {
      if (!out.code) out.code = f.code();
      out.messages.push_back(f.what());
    } catch (const std::exception& e) {
      if (!out.code) out.code = ExitCode::kCouldNotRun;
      out.messages.push_back("host " + name(i) + ": " + e.what());
    }
  }
  return out;
}

Connected connect_all(const std::vector<profile::Host>& hosts, Maker make) {
  std::vector<std::unique_ptr<Transport>> made(hosts.size());
  const auto failures = on_each_host(
      hosts.size(),
      [&](std::size_t i) {
        auto t = make(hosts[i]);
        t->connect();
        made[i] = std::move(t);
      },
      [&](std::size_t i) { return hosts[i].name; });
  failures.throw_if_any();
  Connected out;
  for (std::size_t i = 0; i < hosts.size(); ++i) out[hosts[i].name] = std::move(made[i]);
  return out;
}

}  // namespace labgate::transport

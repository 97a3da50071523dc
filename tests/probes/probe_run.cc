// Starting probe servers and running probe clients for the integration tests.
#include "probe_run.h"

#include <stdexcept>

namespace labgate::probes_test {

using namespace std::chrono_literals;

std::string probe_path(const std::string& name) { return std::string(LABGATE_PROBE_DIR) + "/" + name; }

Server start_server(transport::Transport& host, const std::vector<std::string>& argv) {
  Server s;
  s.process = host.start(argv, {});
  if (!s.process->wait_for_output("\n", 5s)) {
    const transport::RunResult r = s.process->stop(500ms);
    throw std::runtime_error("server `" + s.process->command() + "` printed no listening line within 5 s (" +
                             r.describe() + "): " + r.out + r.err);
  }
  const std::string out = s.process->stdout_so_far();
  s.listening = measure::parse_listening_line(out.substr(0, out.find('\n')));
  return s;
}

const measure::Measurement& ClientRun::m() const {
  if (measurements.empty())
    throw std::runtime_error("the client gave no measurement (" + result.describe() + "): " + parse_error +
                             "; stderr: " + result.err);
  return measurements.front();
}

ClientRun run_client(transport::Transport& host, const std::vector<std::string>& argv,
                     std::chrono::nanoseconds timeout) {
  ClientRun c;
  transport::RunOptions options;
  options.timeout = timeout;
  c.result = host.run(argv, options);
  c.doc = nlohmann::json::parse(c.result.out, nullptr, false);
  try {
    c.measurements = measure::parse_probe_output(c.result.out, {host.host_name(), ""});
  } catch (const measure::ProbeOutputError& e) {
    c.parse_error = e.what();
  }
  return c;
}

}  // namespace labgate::probes_test

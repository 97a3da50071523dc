// Routing libssh's log callback into spdlog or the run's labgate.log.
#include "labgate/transport/libssh_log.h"

#include <libssh/callbacks.h>
#include <libssh/libssh.h>
#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/spdlog.h>

#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>

namespace labgate::transport {
namespace {

// Set in a suite child: the run's labgate.log, appended to by every process of the run.
std::shared_ptr<spdlog::logger> g_run_log;

void to_spdlog(int priority, const char* /*function*/, const char* buffer, void* /*userdata*/) {
  // libssh 0.10 already prefixes the function name to the message.
  const char* text = buffer ? buffer : "(null)";
  if (g_run_log)
    g_run_log->debug("libssh[{}]: {}", priority, text);
  else
    spdlog::debug("libssh[{}]: {}", priority, text);
}

void install() {
  ssh_set_log_callback(to_spdlog);
  ssh_set_log_level(SSH_LOG_PROTOCOL);
}

}  // namespace

void enable_libssh_log() {
  ::setenv("LABGATE_LIBSSH_LOG", "1", 1);
  install();
}

void enable_libssh_log_from_env() {
  static std::once_flag once;
  std::call_once(once, [] {
    const char* want = std::getenv("LABGATE_LIBSSH_LOG");
    if (!want || std::string(want) != "1") return;
    if (const char* dir = std::getenv("LABGATE_RUN_DIR"); dir && *dir) {
      try {
        auto sink = std::make_shared<spdlog::sinks::basic_file_sink_mt>(std::string(dir) + "/labgate.log");
        sink->set_pattern("%Y-%m-%dT%H:%M:%S.%e %l [pid %P] %v");
        g_run_log = std::make_shared<spdlog::logger>("libssh", sink);
        g_run_log->set_level(spdlog::level::debug);
        g_run_log->flush_on(spdlog::level::debug);  // several processes append: whole lines, at once
      } catch (const spdlog::spdlog_ex& e) {
        spdlog::warn("-vv: cannot append libssh's log to {}/labgate.log: {}", dir, e.what());
      }
    }
    install();
  });
}

}  // namespace labgate::transport

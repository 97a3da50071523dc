// Routing libssh's log callback into spdlog.
#include "labgate/transport/libssh_log.h"

#include <libssh/callbacks.h>
#include <libssh/libssh.h>
#include <spdlog/spdlog.h>

namespace labgate::transport {
namespace {

void to_spdlog(int priority, const char* /*function*/, const char* buffer, void* /*userdata*/) {
  // libssh 0.10 already prefixes the function name to the message.
  spdlog::debug("libssh[{}]: {}", priority, buffer ? buffer : "(null)");
}

}  // namespace

void enable_libssh_log() {
  ssh_set_log_callback(to_spdlog);
  ssh_set_log_level(SSH_LOG_PROTOCOL);
}

}  // namespace labgate::transport

// The process's log as Messages (see messages.h).
#include "labgate/util/messages.h"

#include <spdlog/spdlog.h>

namespace labgate::util {
namespace {

class LogMessages : public Messages {
 public:
  void info(const std::string& m) override { spdlog::info("{}", m); }
  void warning(const std::string& m) override { spdlog::warn("{}", m); }
  void error(const std::string& m) override { spdlog::error("{}", m); }
  void debug(const std::string& m) override { spdlog::debug("{}", m); }
};

}  // namespace

Messages& log_messages() {
  static LogMessages log;
  return log;
}

}  // namespace labgate::util

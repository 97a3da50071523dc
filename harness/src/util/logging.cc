// Console logging set-up for the CLI: stderr, concise, with an optional log file.
#include "labgate/util/logging.h"

#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

namespace labgate {

namespace {
// The log file alone, for lines the console shows by other means; it shares
// the default logger's file sink, so the lines keep their order in the file.
std::shared_ptr<spdlog::logger>& file_only() {
  static std::shared_ptr<spdlog::logger> logger;
  return logger;
}
}  // namespace

void setup_console_logging(Verbosity v) {
  auto logger = spdlog::stderr_color_mt("labgate");
  switch (v) {
    case Verbosity::kQuiet: logger->set_level(spdlog::level::warn); break;
    case Verbosity::kNormal: logger->set_level(spdlog::level::info); break;
    case Verbosity::kVerbose: logger->set_level(spdlog::level::debug); break;
  }
  logger->set_pattern(v == Verbosity::kVerbose ? "%H:%M:%S.%e %^%l%$ %v" : "%^%l%$: %v");
  spdlog::set_default_logger(logger);
}

void add_log_file(const std::string& path) {
  auto sink = std::make_shared<spdlog::sinks::basic_file_sink_mt>(path, /*truncate=*/false);
  sink->set_level(spdlog::level::debug);
  sink->set_pattern("%Y-%m-%dT%H:%M:%S.%e %l %v");
  auto logger = spdlog::default_logger();
  logger->sinks().push_back(sink);
  file_only() = std::make_shared<spdlog::logger>("labgate-log-file", sink);
  file_only()->set_level(spdlog::level::debug);
  if (logger->level() > spdlog::level::debug) {
    // The console sink keeps its own level; the file wants everything.
    for (auto& s : logger->sinks())
      if (s != sink) s->set_level(logger->level());
    logger->set_level(spdlog::level::debug);
  }
}

void write_log_file_only(const std::string& line) {
  if (auto& l = file_only()) {
    l->info("{}", line);
    l->flush();
  }
}

}  // namespace labgate

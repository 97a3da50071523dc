// Console logging set-up for the CLI (spdlog): concise by default, --verbose and
// --quiet, and a per-run log file once a results folder exists.
#pragma once

#include <string>

namespace labgate {

enum class Verbosity { kQuiet, kNormal, kVerbose };

/// Configures the default spdlog logger: messages to stderr, no timestamps unless verbose.
void setup_console_logging(Verbosity v);
/// Adds a file sink (full detail, timestamps) to the default logger.
void add_log_file(const std::string& path);

}  // namespace labgate

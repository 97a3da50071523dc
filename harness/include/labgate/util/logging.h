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
/// Writes `line` to the log file of add_log_file only, not the console: what the
/// console already showed some other way (GoogleTest's own printer, std::cout).
/// Nothing happens before add_log_file.
void write_log_file_only(const std::string& line);

}  // namespace labgate

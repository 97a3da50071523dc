// Writing result files so that a reader (or a crash) never sees half a file:
// write a temporary beside the target, fsync, rename over it. Errors name the file.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace labgate::results {

/// Replaces `path` with `content` atomically (temp + fsync + rename + fsync of the
/// directory). Throws labgate::Failure (exit 3) naming the file and the OS error,
/// e.g. "cannot write results file .../run.json: No space left on device".
void write_file_atomic(const std::filesystem::path& path, std::string_view content);

/// The same below an open directory: `relative` (which may hold '/': its folders
/// must exist) is replaced through `dirfd`, whatever happens meanwhile to the
/// directory's own path; `shown` names the file in errors.
void write_file_atomic_at(int dirfd, const std::string& relative, std::string_view content,
                          const std::string& shown);

/// Writes all of `content` to an open descriptor, retrying short writes and EINTR;
/// throws labgate::Failure (exit 3) naming `what` on any error.
void write_all(int fd, std::string_view content, const std::string& what);

/// Reads a whole file; throws labgate::Failure (exit 2) naming the file.
std::string read_file(const std::filesystem::path& path);
/// Reads `relative` below the open directory `dirfd`; errors name `shown`.
std::string read_file_at(int dirfd, const std::string& relative, const std::string& shown);

}  // namespace labgate::results

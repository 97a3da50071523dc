// SHA-256 of local files (to compare with what a probe reports of itself after
// upload) and unpredictable tokens for remote directory names, both from OpenSSL.
#pragma once

#include <cstddef>
#include <string>

namespace labgate::deploy {

/// Lowercase hex SHA-256 of a local file; throws Failure(kCouldNotRun) naming it
/// if it cannot be read.
std::string sha256_file_hex(const std::string& path);
/// Lowercase hex SHA-256 of bytes.
std::string sha256_hex(const std::string& data);
/// `bytes` bytes from RAND_bytes as lowercase hex (2 chars per byte).
std::string random_token(std::size_t bytes = 8);

}  // namespace labgate::deploy

// SHA-256 and random tokens from OpenSSL (see digest.h).
#include "labgate/deploy/digest.h"

#include <openssl/evp.h>
#include <openssl/rand.h>

#include <fstream>
#include <memory>
#include <vector>

#include "labgate/util/exit_code.h"

namespace labgate::deploy {

namespace {

std::string to_hex(const unsigned char* p, std::size_t n) {
  static const char digits[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * n);
  for (std::size_t i = 0; i < n; ++i) {
    out += digits[p[i] >> 4];
    out += digits[p[i] & 15];
  }
  return out;
}

using Ctx = std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)>;

Ctx new_sha256() {
  Ctx ctx(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
  if (!ctx || EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) != 1) {
    throw Failure(ExitCode::kCouldNotRun, "OpenSSL cannot start a SHA-256 digest");
  }
  return ctx;
}

std::string finish(EVP_MD_CTX* ctx) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  EVP_DigestFinal_ex(ctx, md, &len);
  return to_hex(md, len);
}

}  // namespace

std::string sha256_hex(const std::string& data) {
  Ctx ctx = new_sha256();
  EVP_DigestUpdate(ctx.get(), data.data(), data.size());
  return finish(ctx.get());
}

std::string sha256_file_hex(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Failure(ExitCode::kCouldNotRun, "cannot read " + path + " to compute its SHA-256");
  Ctx ctx = new_sha256();
  std::vector<char> buf(1 << 16);
  while (in) {
    in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
    if (in.gcount() > 0) EVP_DigestUpdate(ctx.get(), buf.data(), static_cast<std::size_t>(in.gcount()));
  }
  if (in.bad()) throw Failure(ExitCode::kCouldNotRun, "error reading " + path);
  return finish(ctx.get());
}

std::string random_token(std::size_t bytes) {
  std::vector<unsigned char> buf(bytes);
  if (RAND_bytes(buf.data(), static_cast<int>(bytes)) != 1) {
    throw Failure(ExitCode::kCouldNotRun,
                  "OpenSSL RAND_bytes failed: no randomness for a private directory name");
  }
  return to_hex(buf.data(), bytes);
}

}  // namespace labgate::deploy

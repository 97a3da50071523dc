// probes/common: the plain-C SHA-256 against OpenSSL on every length around the
// block boundaries and on random chunkings, and the flags on a real static probe.
#include <gtest/gtest.h>
#include <openssl/sha.h>

#include <cstdio>
#include <random>
#include <string>

extern "C" {
#include "lg_sha256.h"
}

namespace {

std::string openssl_hex(const std::string& data) {
  unsigned char md[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(data.data()), data.size(), md);
  char hex[LG_SHA256_HEX_LEN + 1];
  lg_sha256_hex(md, hex);
  return hex;
}

std::string lg_hex(const std::string& data, std::mt19937* chunker = nullptr) {
  lg_sha256 s;
  lg_sha256_init(&s);
  std::size_t off = 0;
  while (off < data.size()) {
    std::size_t n = data.size() - off;
    if (chunker) n = std::min<std::size_t>(n, (*chunker)() % 130);
    lg_sha256_update(&s, data.data() + off, n);
    off += n;
  }
  unsigned char md[LG_SHA256_DIGEST_LEN];
  lg_sha256_final(&s, md);
  char hex[LG_SHA256_HEX_LEN + 1];
  lg_sha256_hex(md, hex);
  return hex;
}

TEST(ProbeSha256, MatchesOpenSslForEveryLengthUpTo300) {
  std::mt19937 rng(7);
  std::string data;
  for (int len = 0; len <= 300; ++len) {
    EXPECT_EQ(lg_hex(data), openssl_hex(data)) << "length " << len;
    data += static_cast<char>(rng());
  }
}

TEST(ProbeSha256, ChunkingDoesNotMatter) {
  std::mt19937 rng(11);
  std::string data(100000, '\0');
  for (auto& c : data) c = static_cast<char>(rng());
  const std::string expected = openssl_hex(data);
  for (int i = 0; i < 20; ++i) EXPECT_EQ(lg_hex(data, &rng), expected);
}

std::string run(const std::string& cmd, int* status) {
  FILE* p = popen(cmd.c_str(), "r");
  std::string out;
  char buf[256];
  while (p && fgets(buf, sizeof buf, p)) out += buf;
  *status = p ? pclose(p) : -1;
  return out;
}

TEST(ProbeCommonFlags, VersionAndSelfDigestOfARealProbe) {
  const std::string probe = LABGATE_PROBE_DIR "/echo";
  int status = 0;
  EXPECT_EQ(run(probe + " --version", &status), "echo " LABGATE_VERSION "\n");
  EXPECT_EQ(status, 0);
  char hex[LG_SHA256_HEX_LEN + 1];
  ASSERT_EQ(lg_sha256_file(probe.c_str(), hex), 0);
  EXPECT_EQ(run(probe + " --self-digest", &status), std::string(hex) + "\n");
  EXPECT_EQ(status, 0);
  // Only argv[1] is looked at: a probe's own arguments are never taken for flags.
  EXPECT_EQ(run(probe + " x --version", &status), "x\n--version\n");
  EXPECT_EQ(lg_sha256_file("/nonexistent/labgate", hex), -1);
}

}  // namespace

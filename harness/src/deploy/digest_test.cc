// SHA-256 against FIPS 180-4 vectors and sha256sum; tokens are fresh and hex.
#include "labgate/deploy/digest.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <set>

#include "labgate/util/exit_code.h"

namespace labgate::deploy {
namespace {

TEST(Sha256, KnownVectors) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST(Sha256, FileMatchesSha256sum) {
  char name[] = "/tmp/labgate-digest-XXXXXX";
  const int fd = mkstemp(name);
  ASSERT_GE(fd, 0);
  close(fd);
  {
    std::ofstream f(name, std::ios::binary);
    for (int i = 0; i < 200000; ++i) f.put(static_cast<char>(i * 7));
  }
  std::string expected(64, '\0');
  FILE* p = popen(("sha256sum " + std::string(name)).c_str(), "r");
  ASSERT_TRUE(p);
  ASSERT_EQ(fread(expected.data(), 1, 64, p), 64u);
  pclose(p);
  EXPECT_EQ(sha256_file_hex(name), expected);
  std::remove(name);
  EXPECT_THROW(sha256_file_hex(name), Failure);
}

TEST(RandomToken, HexOfTheRightLengthAndNeverRepeats) {
  std::set<std::string> seen;
  for (int i = 0; i < 1000; ++i) {
    const std::string t = random_token(8);
    ASSERT_EQ(t.size(), 16u);
    ASSERT_EQ(t.find_first_not_of("0123456789abcdef"), std::string::npos);
    seen.insert(t);
  }
  EXPECT_EQ(seen.size(), 1000u);
}

}  // namespace
}  // namespace labgate::deploy

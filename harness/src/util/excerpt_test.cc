// Untrusted output in error messages: bounded, and never raw control bytes.
#include "labgate/util/excerpt.h"

#include <gtest/gtest.h>

namespace labgate {
namespace {

TEST(Excerpt, PlainTextIsKeptTrimmed) {
  EXPECT_EQ(excerpt("  no such file\n"), "no such file");
  EXPECT_EQ(excerpt(""), "");
}

TEST(Excerpt, ControlAndHighBytesAreEscaped) {
  EXPECT_EQ(excerpt(std::string("a\x1b[31mb\0c\xff", 10)), "a\\x1b[31mb\\x00c\\xff");
  EXPECT_EQ(excerpt("line one\nline\ttwo"), "line one\\nline\\ttwo");
  EXPECT_EQ(excerpt("line one\nline\x01two", 300, /*keep_newlines=*/true), "line one\nline\\x01two");
}

TEST(Excerpt, LongOutputIsCutAndTheTotalNamed) {
  const std::string flood(16u << 20, 'y');
  const std::string e = excerpt(flood, 20);
  EXPECT_EQ(e, std::string(20, 'y') + "... (16777216 bytes in all)");
}

TEST(Excerpt, EveryByteValueComesOutPrintable) {
  std::string all;
  for (int i = 0; i < 256; ++i) all += static_cast<char>(i);
  const std::string e = excerpt(all, 1000);
  for (const char c : e)
    EXPECT_TRUE(c >= 0x20 && c < 0x7f) << static_cast<int>(static_cast<unsigned char>(c));
}

}  // namespace
}  // namespace labgate

// Tests of trim and first_nonblank_line.
#include "labgate/util/text.h"

#include <gtest/gtest.h>

namespace labgate::util {
namespace {

TEST(Text, TrimRemovesEveryKindOfSurroundingWhiteSpaceOnly) {
  EXPECT_EQ(trim(" \t a b \r\n"), "a b");
  EXPECT_EQ(trim("\v\f"), "");
  EXPECT_EQ(trim(""), "");
  EXPECT_EQ(trim("x"), "x");
}

TEST(Text, FirstNonblankLineSkipsBlankLinesAndTrims) {
  EXPECT_EQ(first_nonblank_line("\n  \r\n  506 Cannot talk to daemon \r\nmore\n"),
            "506 Cannot talk to daemon");
  EXPECT_EQ(first_nonblank_line("last line without newline"), "last line without newline");
  EXPECT_EQ(first_nonblank_line("\n\n \t\n"), "");
  EXPECT_EQ(first_nonblank_line(""), "");
}

}  // namespace
}  // namespace labgate::util

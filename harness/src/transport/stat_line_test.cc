// parse_stat_line: stat(1)'s line as a FileInfo, and what is not one.
#include "labgate/transport/stat_line.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace labgate::transport {
namespace {

TEST(ParseStatLine, ModesAndShapes) {
  const auto f = parse_stat_line("81ed 1001 42\n");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->mode, 0755u);
  EXPECT_EQ(f->uid, 1001);
  EXPECT_EQ(f->size, 42u);
  EXPECT_TRUE(parse_stat_line("41c0 0 4096")->is_dir);
  EXPECT_TRUE(parse_stat_line("a1ff 0 11")->is_symlink);
  EXPECT_FALSE(parse_stat_line("ABSENT\n"));
  EXPECT_THROW(parse_stat_line("81ed banner"), std::invalid_argument);
}

}  // namespace
}  // namespace labgate::transport

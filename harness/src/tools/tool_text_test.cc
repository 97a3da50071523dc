// Tool output cleaning (ANSI, CR, NBSP), size limits and file:line errors.
#include "labgate/tools/tool_text.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>

namespace labgate::tools {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

class TempFile {
 public:
  explicit TempFile(const std::string& content) {
    char tmpl[] = "/tmp/labgate-tooltext-XXXXXX";
    const int fd = mkstemp(tmpl);
    path_ = tmpl;
    if (fd >= 0) {
      if (!content.empty()) {
        EXPECT_EQ(write(fd, content.data(), content.size()), static_cast<ssize_t>(content.size()));
      }
      close(fd);
    }
  }
  ~TempFile() { std::remove(path_.c_str()); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

TEST(ToolText, StripsAnsiSequences) {
  EXPECT_EQ(strip_ansi("\x1b[2;35m====> avg-rtt=53.388\x1b[0m"), "====> avg-rtt=53.388");
  EXPECT_EQ(strip_ansi("a\x1b[Kb\x1b[1;31;40mc\x1b[md"), "abcd");
  EXPECT_EQ(strip_ansi("x\x1b"
                       "cy"),
            "xy");                               // two-byte escape
  EXPECT_EQ(strip_ansi("tail\x1b"), "tail");     // lone ESC at the end
  EXPECT_EQ(strip_ansi("cut\x1b[12;3"), "cut");  // sequence cut off by truncation
  EXPECT_EQ(strip_ansi("[ 0] IP = 1.1.1.1"), "[ 0] IP = 1.1.1.1");
}

TEST(ToolText, SplitsAndCleansLines) {
  const ToolText t = text_from_string("o",
                                      "a\r\nb\x1b[1m \xc2\xa0"
                                      "c\tx\n\nlast");
  EXPECT_THAT(t.lines, ElementsAre("a", "b  c x", "", "last"));
  EXPECT_EQ(t.raw,
            "a\r\nb\x1b[1m \xc2\xa0"
            "c\tx\n\nlast");
  EXPECT_TRUE(text_from_string("o", "").lines.empty());
}

TEST(ToolText, ErrorsNameOriginAndLine) {
  const ToolText t = text_from_string("run.txt", "one\ntwo\n");
  try {
    t.fail(2, "bad value");
    FAIL();
  } catch (const ParseError& e) {
    EXPECT_STREQ(e.what(), "run.txt:2: bad value");
    EXPECT_EQ(e.line(), 2);
    EXPECT_EQ(e.reason(), "bad value");
    EXPECT_EQ(e.kind(), ParseFailure::kMalformed);
  }
  EXPECT_STREQ(ParseError("f", 0, "empty").what(), "f: empty");
}

TEST(ToolText, QuoteIsShortAndPrintable) {
  const ToolText t = text_from_string("o", std::string("ctl\x01\x02x\n") + std::string(200, 'y'));
  EXPECT_EQ(t.quote(1), "'ctl??x'");
  EXPECT_EQ(t.quote(2), "'" + std::string(80, 'y') + "...'");
  EXPECT_EQ(t.quote(9), "''");
}

TEST(ToolText, SizeLimitIsEnforced) {
  const std::string big(2048, 'x');
  try {
    text_from_string("big.txt", big, 1024);
    FAIL();
  } catch (const ParseError& e) {
    EXPECT_THAT(e.what(), HasSubstr("big.txt: output is 2048 bytes, over the limit of 1024 bytes"));
    EXPECT_EQ(e.line(), 0);
  }
  TempFile f(big);
  try {
    read_tool_file(f.path(), 1024);
    FAIL();
  } catch (const ParseError& e) {
    EXPECT_THAT(e.what(), HasSubstr("file is 2048 bytes, over the limit of 1024 bytes"));
  }
  EXPECT_EQ(read_tool_file(f.path(), 2048).lines.size(), 1u);
}

TEST(ToolText, UnreadableInputIsAClearError) {
  EXPECT_THAT(
      [] { read_tool_file("/nonexistent/run.txt"); },
      ::testing::ThrowsMessage<ParseError>(HasSubstr("/nonexistent/run.txt: cannot read: No such file")));
  EXPECT_THAT([] { read_tool_file("/tmp"); },
              ::testing::ThrowsMessage<ParseError>(HasSubstr("is a directory")));
  TempFile empty("");
  EXPECT_THAT([&] { read_tool_file(empty.path()); },
              ::testing::ThrowsMessage<ParseError>(HasSubstr("file is empty")));
}

}  // namespace
}  // namespace labgate::tools

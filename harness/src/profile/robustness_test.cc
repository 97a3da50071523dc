// The loader never crashes and never returns silence: on empty, binary, deeply
// nested, huge, missing or randomly mangled input it answers a profile or errors.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "labgate/profile/load.h"
#include "profile_test_util.h"

namespace labgate::profile {
namespace {

using ::testing::HasSubstr;

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Either a profile or at least one error, each with a file and a message.
void expect_answer(const LoadResult& r, const std::string& input) {
  ASSERT_NE(r.profile.has_value(), !r.errors.empty()) << input;
  for (const ProfileError& e : r.errors) {
    EXPECT_FALSE(e.message.empty()) << input;
    EXPECT_FALSE(e.pos.file.empty()) << input;
  }
}

class TempDir : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("labgate_profile_test." + std::to_string(getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& bytes) {
    const std::string path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
  }
  std::filesystem::path dir_;
};

TEST_F(TempDir, EmptyFileNamesWhatIsMissing) {
  LoadResult r = load(write("empty.toml", ""));
  expect_answer(r, "empty");
  ASSERT_EQ(r.errors.size(), 2u);
  EXPECT_THAT(r.errors[0].message, HasSubstr("lab: missing"));
  EXPECT_THAT(r.errors[1].message, HasSubstr("hosts: missing"));
}

TEST_F(TempDir, BinaryJunkIsASyntaxErrorWithPosition) {
  std::string junk;
  std::mt19937 rng(7);
  for (int i = 0; i < 4096; ++i) junk += static_cast<char>(rng());
  LoadResult r = load(write("junk.toml", junk));
  expect_answer(r, "junk");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_THAT(r.errors[0].message, HasSubstr("TOML syntax error"));
  EXPECT_GT(r.errors[0].pos.line, 0);
}

TEST_F(TempDir, MissingDirectoryAndHugeFiles) {
  LoadResult missing = load((dir_ / "nope.toml").string());
  ASSERT_EQ(missing.errors.size(), 1u);
  EXPECT_THAT(missing.errors[0].str(), HasSubstr("nope.toml: cannot read profile: no such file"));
  LoadResult directory = load(dir_.string());
  EXPECT_THAT(directory.errors.at(0).message, HasSubstr("is a directory"));
  LoadResult huge = load(write("huge.toml", std::string(5 << 20, '#')));
  EXPECT_THAT(huge.errors.at(0).message, HasSubstr("too large for a profile"));
}

TEST(Robustness, DeepNestingIsRefusedNotOverflowed) {
  for (const std::string open : {"[", "{ a = "}) {
    std::string text = "x = ";
    for (int i = 0; i < 100000; ++i) text += open;
    LoadResult r = load_from_string(text, "deep.toml");
    expect_answer(r, "deep " + open);
    EXPECT_THAT(r.errors.at(0).message, HasSubstr("TOML syntax error"));
  }
}

TEST(Robustness, TomlSyntaxErrorsCarryTomlppPositions) {
  LoadResult r = load_from_string("[lab]\nname = \"x\"\nname = \"y\"\n", "dup.toml");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].pos.line, 3);
  EXPECT_THAT(r.errors[0].str(), HasSubstr("dup.toml:3:"));
  EXPECT_THAT(r.errors[0].message, HasSubstr("TOML syntax error"));
}

// Value-level edits keep the TOML valid, so the mangling reaches the checks.
std::string mangle_values(const std::string& base, std::mt19937& rng) {
  static const char* kValues[] = {"1",
                                  "-1",
                                  "0",
                                  "\"x\"",
                                  "\"140 us\"",
                                  "true",
                                  "[]",
                                  "[1, \"a\"]",
                                  "{}",
                                  "{ a = 1 }",
                                  "1.5",
                                  "\"\"",
                                  "\"c\"",
                                  "\"5%\"",
                                  "\"1Gbit/s\"",
                                  "1979-05-27",
                                  "[\"a\", \"a\"]",
                                  "\"~x/y\""};
  std::vector<std::string> lines;
  std::istringstream in(base);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  const int edits = 1 + static_cast<int>(rng() % 4);
  for (int e = 0; e < edits; ++e) {
    std::string& l = lines[rng() % lines.size()];
    const std::size_t eq = l.find(" = ");
    if (eq == std::string::npos || l[0] == '#') continue;
    if (rng() % 3 == 0)
      l[rng() % eq] = static_cast<char>('a' + rng() % 26);  // a key typo
    else
      l = l.substr(0, eq + 3) + kValues[rng() % (sizeof kValues / sizeof *kValues)];
  }
  std::string out;
  for (const std::string& l : lines) out += l + "\n";
  return out;
}

// Byte-level edits: mostly TOML syntax errors, sometimes deeper.
std::string mangle_bytes(std::string text, std::mt19937& rng) {
  const char interesting[] = "[]{}=\".,#\n 0123456789-_abcpsu%/";
  const int edits = 1 + static_cast<int>(rng() % 8);
  for (int e = 0; e < edits && !text.empty(); ++e) {
    const std::size_t at = rng() % text.size();
    switch (rng() % 4) {
      case 0:
        text[at] = interesting[rng() % (sizeof interesting - 1)];
        break;
      case 1:
        text.erase(at, 1 + rng() % 40);
        break;
      case 2:
        text.insert(at, text.substr(rng() % text.size(), 1 + rng() % 60));
        break;
      case 3:
        text[at] = static_cast<char>(rng());
        break;
    }
  }
  return text;
}

TEST(Robustness, MangledExampleNeverCrashes) {
  const std::string base = read(test_util::kSourceDir + "/profiles/example-rhel58-pair.toml");
  ASSERT_FALSE(base.empty());
  std::mt19937 rng(20260101);
  int valid = 0, syntax = 0, semantic = 0;
  for (int round = 0; round < 1000; ++round) {
    const std::string text = round % 2 ? mangle_values(base, rng) : mangle_bytes(base, rng);
    LoadResult r = load_from_string(text, "mangled.toml");
    expect_answer(r, text);
    if (r.profile)
      ++valid;
    else if (r.errors[0].message.starts_with("TOML syntax error"))
      ++syntax;
    else
      ++semantic;
  }
  // The mangling must reach the checks past the TOML parser, not only its errors.
  EXPECT_GT(semantic, 50) << "syntax " << syntax << ", valid " << valid;
  EXPECT_GT(syntax, 50) << "semantic " << semantic << ", valid " << valid;
}

}  // namespace
}  // namespace labgate::profile

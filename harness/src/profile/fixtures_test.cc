// Runs every bad profile in tests/fixtures/profiles: each `# expect-error: A ;; B`
// comment requires errors on that line containing A and B, and the loader must
// report no error that is not expected.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "labgate/profile/load.h"
#include "profile_test_util.h"

namespace labgate::profile {
namespace {

struct Expected {
  int line;
  std::string text;
};

std::vector<Expected> expectations(const std::string& path) {
  std::vector<Expected> out;
  std::ifstream in(path);
  std::string line;
  const std::string marker = "# expect-error: ";
  for (int n = 1; std::getline(in, line); ++n) {
    const std::size_t at = line.find(marker);
    if (at == std::string::npos) continue;
    std::string rest = line.substr(at + marker.size());
    for (std::size_t sep; (sep = rest.find(" ;; ")) != std::string::npos; rest = rest.substr(sep + 4))
      out.push_back({n, rest.substr(0, sep)});
    out.push_back({n, rest});
  }
  return out;
}

class BadFixture : public ::testing::TestWithParam<std::string> {};

TEST_P(BadFixture, ReportsExactlyTheAnnotatedErrors) {
  const std::string path = test_util::kProfileFixtures + GetParam();
  const std::vector<Expected> want = expectations(path);
  ASSERT_FALSE(want.empty()) << path << " has no # expect-error: comments";
  LoadResult r = load(path);
  EXPECT_FALSE(r.profile.has_value());
  std::vector<bool> used(r.errors.size(), false);
  for (const Expected& e : want) {
    bool found = false;
    for (std::size_t i = 0; i < r.errors.size() && !found; ++i) {
      if (used[i] || r.errors[i].pos.line != e.line) continue;
      if (r.errors[i].message.find(e.text) == std::string::npos) continue;
      used[i] = found = true;
      EXPECT_EQ(r.errors[i].pos.file, path);
      EXPECT_GT(r.errors[i].pos.column, 0);
      EXPECT_FALSE(r.errors[i].key.empty()) << r.errors[i].str();
    }
    EXPECT_TRUE(found) << GetParam() << ":" << e.line << ": no error containing: " << e.text;
  }
  for (std::size_t i = 0; i < r.errors.size(); ++i)
    EXPECT_TRUE(used[i]) << "unexpected error: " << r.errors[i].str();
}

INSTANTIATE_TEST_SUITE_P(Profiles, BadFixture,
                         ::testing::Values("bad-units.toml", "bad-hosts.toml", "bad-tests.toml",
                                           "bad-preconditions.toml", "bad-types.toml", "issue-typos.toml",
                                           "bad-extra.toml"),
                         [](const auto& info) {
                           std::string n = info.param.substr(0, info.param.find('.'));
                           for (char& c : n)
                             if (c == '-') c = '_';
                           return n;
                         });

}  // namespace
}  // namespace labgate::profile

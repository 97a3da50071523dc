// Tests of local path resolution: ~, relative to the profile, normalisation.
#include "paths.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>

namespace labgate::profile::detail {
namespace {

using ::testing::HasSubstr;

class Paths : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* h = std::getenv("HOME");
    had_ = h != nullptr;
    saved_ = h ? h : "";
    setenv("HOME", "/home/op", 1);
  }
  void TearDown() override { had_ ? (void)setenv("HOME", saved_.c_str(), 1) : (void)unsetenv("HOME"); }

 private:
  bool had_ = false;
  std::string saved_;
};

TEST_F(Paths, Resolves) {
  EXPECT_EQ(resolve_local_path("~/.ssh/id_rsa", "/p").path, "/home/op/.ssh/id_rsa");
  EXPECT_EQ(resolve_local_path("~", "/p").path, "/home/op");
  EXPECT_EQ(resolve_local_path("/etc/k", "/p").path, "/etc/k");
  EXPECT_EQ(resolve_local_path("../.lab/pair1/id_rsa", "/repo/profiles").path, "/repo/.lab/pair1/id_rsa");
  EXPECT_EQ(resolve_local_path("./a//b/../c", "/x").path, "/x/a/c");
}

TEST_F(Paths, Refuses) {
  EXPECT_THAT(resolve_local_path("", "/p").error, HasSubstr("empty path"));
  EXPECT_THAT(resolve_local_path("~op/k", "/p").error, HasSubstr("~user is not supported"));
  EXPECT_THAT(resolve_local_path(std::string_view("a\0b", 3), "/p").error, HasSubstr("NUL"));
}

TEST(ProfileDir, IsAbsolute) {
  EXPECT_EQ(profile_dir("/repo/profiles/lab.toml"), "/repo/profiles");
  EXPECT_EQ(profile_dir("lab.toml").front(), '/');
}

}  // namespace
}  // namespace labgate::profile::detail

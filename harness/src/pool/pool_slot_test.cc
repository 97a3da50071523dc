// Tests of how a test learns its lab pair from CTest's resource allocation
// variables, and of every misconfiguration being a usage error naming the cause.
#include "labgate/pool/pool_slot.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "labgate/util/exit_code.h"

namespace labgate::pool {
namespace {

using ::testing::HasSubstr;

struct FakeEnv {
  std::map<std::string, std::string> vars;
  EnvLookup lookup() const {
    return [this](const char* n) -> const char* {
      auto it = vars.find(n);
      return it == vars.end() ? nullptr : it->second.c_str();
    };
  }
};

std::string usage_error(const std::function<void()>& f) {
  try {
    f();
  } catch (const Failure& e) {
    EXPECT_EQ(e.code(), ExitCode::kUsageError);
    return e.what();
  }
  ADD_FAILURE() << "no error";
  return "";
}

TEST(AllocatedIds, NoneWhenAllocationIsOff) {
  FakeEnv env;
  EXPECT_FALSE(allocated_ids("pairs", env.lookup()));
}

TEST(AllocatedIds, OneGroupOnePair) {
  FakeEnv env{{{"CTEST_RESOURCE_GROUP_COUNT", "1"},
               {"CTEST_RESOURCE_GROUP_0", "pairs"},
               {"CTEST_RESOURCE_GROUP_0_PAIRS", "id:pair6,slots:1"}}};
  EXPECT_EQ(*allocated_ids("pairs", env.lookup()), std::vector<std::string>{"pair6"});
}

TEST(AllocatedIds, EveryGroupInOrderSkippingOtherTypes) {
  FakeEnv env{{{"CTEST_RESOURCE_GROUP_COUNT", "3"},
               {"CTEST_RESOURCE_GROUP_0", "pairs"},
               {"CTEST_RESOURCE_GROUP_0_PAIRS", "id:pair7,slots:1"},
               {"CTEST_RESOURCE_GROUP_1", "gpus"},
               {"CTEST_RESOURCE_GROUP_1_GPUS", "id:0,slots:2"},
               {"CTEST_RESOURCE_GROUP_2", "gpus,pairs"},
               {"CTEST_RESOURCE_GROUP_2_PAIRS", "id:rack2_pair1,slots:1;id:pair6,slots:1"}}};
  EXPECT_EQ(*allocated_ids("pairs", env.lookup()),
            (std::vector<std::string>{"pair7", "rack2_pair1", "pair6"}));
}

TEST(AllocatedIds, MalformedVariablesAreNamed) {
  FakeEnv bad_count{{{"CTEST_RESOURCE_GROUP_COUNT", "two"}}};
  EXPECT_THAT(usage_error([&] { allocated_ids("pairs", bad_count.lookup()); }),
              HasSubstr("CTEST_RESOURCE_GROUP_COUNT=\"two\""));
  FakeEnv missing{{{"CTEST_RESOURCE_GROUP_COUNT", "1"}, {"CTEST_RESOURCE_GROUP_0", "pairs"}}};
  EXPECT_THAT(usage_error([&] { allocated_ids("pairs", missing.lookup()); }),
              HasSubstr("CTEST_RESOURCE_GROUP_0_PAIRS is not set"));
  FakeEnv garbled{{{"CTEST_RESOURCE_GROUP_COUNT", "1"},
                   {"CTEST_RESOURCE_GROUP_0", "pairs"},
                   {"CTEST_RESOURCE_GROUP_0_PAIRS", "pair6"}}};
  EXPECT_THAT(usage_error([&] { allocated_ids("pairs", garbled.lookup()); }),
              HasSubstr("expected id:ID,slots:N"));
  FakeEnv climbing{{{"CTEST_RESOURCE_GROUP_COUNT", "1"},
                    {"CTEST_RESOURCE_GROUP_0", "pairs"},
                    {"CTEST_RESOURCE_GROUP_0_PAIRS", "id:../etc,slots:1"}}};
  EXPECT_THAT(usage_error([&] { allocated_ids("pairs", climbing.lookup()); }),
              HasSubstr("not a valid pair id"));
}

TEST(ValidPairId, CTestsAlphabetOnly) {
  EXPECT_TRUE(valid_pair_id("pair6"));
  EXPECT_TRUE(valid_pair_id("rack_2_pair_10"));
  EXPECT_FALSE(valid_pair_id(""));
  EXPECT_FALSE(valid_pair_id("Pair6"));
  EXPECT_FALSE(valid_pair_id("pair-6"));
  EXPECT_FALSE(valid_pair_id("a/b"));
}

class ResolveSlot : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("labgate-pool-test-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
    for (const char* id : {"pair6", "pair7"})
      std::ofstream(dir_ / (std::string(id) + ".toml")) << "# profile\n";
    env_.vars = {{"CTEST_RESOURCE_GROUP_COUNT", "1"},
                 {"CTEST_RESOURCE_GROUP_0", "pairs"},
                 {"CTEST_RESOURCE_GROUP_0_PAIRS", "id:pair7,slots:1"}};
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  PoolRequest request(const std::string& pair = "") { return {dir_.string(), "/state", pair}; }

  std::filesystem::path dir_;
  FakeEnv env_;
};

TEST_F(ResolveSlot, TheAllocatedPairNamesProfileAndState) {
  const PoolSlot s = resolve_slot(request(), env_.lookup());
  EXPECT_EQ(s.pair, "pair7");
  EXPECT_EQ(s.profile, (dir_ / "pair7.toml").string());
  EXPECT_EQ(s.state_file, "/state/pair7.run");
}

TEST_F(ResolveSlot, AllocationOffSaysHowToRunIt) {
  env_.vars.clear();
  EXPECT_THAT(usage_error([&] { resolve_slot(request(), env_.lookup()); }),
              HasSubstr("--resource-spec-file " + dir_.string() + "/resources.json"));
}

TEST_F(ResolveSlot, SeveralPairsNeedAChoiceAmongThem) {
  env_.vars["CTEST_RESOURCE_GROUP_COUNT"] = "2";
  env_.vars["CTEST_RESOURCE_GROUP_1"] = "pairs";
  env_.vars["CTEST_RESOURCE_GROUP_1_PAIRS"] = "id:pair6,slots:1";
  EXPECT_THAT(usage_error([&] { resolve_slot(request(), env_.lookup()); }),
              HasSubstr("holds 2 pairs; name the one to use with --pair"));
  EXPECT_EQ(resolve_slot(request("pair6"), env_.lookup()).pair, "pair6");
  EXPECT_THAT(usage_error([&] { resolve_slot(request("pair8"), env_.lookup()); }),
              HasSubstr("--pair pair8 is not among the pairs ctest allocated"));
}

TEST_F(ResolveSlot, APairWithoutAProfileIsNamed) {
  env_.vars["CTEST_RESOURCE_GROUP_0_PAIRS"] = "id:pair9,slots:1";
  EXPECT_THAT(usage_error([&] { resolve_slot(request(), env_.lookup()); }),
              HasSubstr("pair pair9 has no profile " + (dir_ / "pair9.toml").string()));
}

}  // namespace
}  // namespace labgate::pool

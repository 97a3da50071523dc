// Tests of `labgate validate`: output per file and the exit-code contract
// (0 all valid, 2 any invalid or missing), through the real CLI entry point.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

#include <string>
#include <vector>

#include "cli/cli_test_util.h"
#include "labgate/cli/commands.h"

namespace labgate::cli {
namespace {

using ::testing::HasSubstr;

const std::string kRoot = LABGATE_SOURCE_DIR;

using Outcome = test_util::Outcome;

Outcome validate(std::vector<std::string> args) {
  args.insert(args.begin(), "validate");
  return test_util::run_cli(std::move(args));
}

TEST(ValidateCommand, ShippedProfilesAreValid) {
  Outcome o = validate({kRoot + "/profiles/example-rhel58-pair.toml", kRoot + "/profiles/lab.toml",
                        kRoot + "/profiles/lab-legacy.toml"});
  EXPECT_EQ(o.rc, 0) << o.err;
  EXPECT_THAT(o.out,
              HasSubstr("ok: " + kRoot + "/profiles/example-rhel58-pair.toml (2 hosts, 82 rules, 24 tests)"));
  // lab.toml gains a test with each kind the lab proves; that it validates is the point here.
  EXPECT_THAT(o.out, HasSubstr("ok: " + kRoot + "/profiles/lab.toml (2 hosts, "));
  EXPECT_THAT(o.out, HasSubstr("lab-legacy.toml (2 hosts, 4 rules, 2 tests)"));
  EXPECT_EQ(o.err, "");
}

TEST(ValidateCommand, TyposListEveryErrorAndExit2) {
  const std::string typos = kRoot + "/tests/fixtures/profiles/issue-typos.toml";
  Outcome o = validate({kRoot + "/profiles/lab.toml", typos});
  EXPECT_EQ(o.rc, 2);
  EXPECT_THAT(o.out, HasSubstr("ok: " + kRoot + "/profiles/lab.toml"));
  EXPECT_THAT(o.err, HasSubstr(typos + ":37:1: unknown table [preconditions.sysctls]"));
  EXPECT_THAT(o.err, HasSubstr(typos + ":87:32: test[tcp_rr_64].budget.p99: \"140 us\""));
  EXPECT_THAT(o.err, HasSubstr(typos + ":93:6: test[udp_rr_64].to: \"c\" is not a defined host"));
  EXPECT_THAT(o.err, HasSubstr("invalid: " + typos + " (3 errors)"));
}

TEST(ValidateCommand, MissingFileIsAUsageError) {
  Outcome o = validate({"/nonexistent/profile.toml"});
  EXPECT_EQ(o.rc, 2);
  EXPECT_THAT(o.err, HasSubstr("/nonexistent/profile.toml: cannot read profile: no such file"));
}

TEST(ValidateCommand, NoProfileIsAUsageError) {
  Outcome o = validate({});
  EXPECT_EQ(o.rc, 2);
}

}  // namespace
}  // namespace labgate::cli

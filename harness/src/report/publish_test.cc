// Tests that a results folder's derived files are written and can be rebuilt
// from run.json alone.
#include "labgate/report/publish.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include "labgate/report/html_report.h"
#include "labgate/report/junit.h"
#include "labgate/results/atomic_file.h"
#include "labgate/util/exit_code.h"
#include "report/synthetic_run.h"
#include "results/temp_dir.h"

namespace labgate::report {
namespace {

namespace fs = std::filesystem;
using results::testing::TempDir;

TEST(Publish, WritesEveryDerivedFileAndRegeneratesThemFromRunJson) {
  TempDir tmp;
  const results::RunResult run = testing::synthetic_run();
  const auto dir = results::RunDir::create(tmp.path(), "pub", run.start_time);
  publish(dir, run);
  for (const char* f : {"run.json", "checks.json", "junit.xml", "report.html"})
    EXPECT_TRUE(fs::is_regular_file(dir.path() / f)) << f;
  const std::string junit = results::read_file(dir.path() / "junit.xml");
  const std::string html = results::read_file(dir.path() / "report.html");
  EXPECT_EQ(junit, junit_xml(run));

  fs::remove(dir.path() / "junit.xml");
  fs::remove(dir.path() / "report.html");
  const results::RunResult back = regenerate(results::RunDir::open(dir.path()));
  EXPECT_EQ(back.tests.size(), run.tests.size());
  EXPECT_EQ(results::read_file(dir.path() / "junit.xml"), junit);
  EXPECT_EQ(results::read_file(dir.path() / "report.html"), html);
}

TEST(Publish, RegenerateRefusesAFolderWithoutAReadableRun) {
  TempDir tmp;
  std::ofstream(tmp.path() / "run.json") << "{ truncated";
  try {
    regenerate(results::RunDir::open(tmp.path()));
    FAIL() << "expected a failure";
  } catch (const Failure& f) {
    EXPECT_EQ(f.code(), ExitCode::kUsageError);
    EXPECT_THAT(f.what(), ::testing::HasSubstr("run.json: not valid JSON"));
  }
}

}  // namespace
}  // namespace labgate::report

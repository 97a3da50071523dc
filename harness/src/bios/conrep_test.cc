// Tests of the conrep XML reader and the BIOS rules on conrep.dat files written
// in HP's layout (seed 000's RBSU table, before and after tuning), and of the
// conrep shell step run for real with a stand-in `conrep` on PATH.
#include "labgate/bios/conrep.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace labgate::bios {
namespace {

using ::testing::HasSubstr;

const std::string kDir = std::string(LABGATE_SOURCE_DIR) + "/tests/fixtures/seeds-extra/conrep/";

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<profile::BiosExpectation> seed_rules() {
  return {{"Intel_Hyperthreading", "Disabled", {"p.toml", 40, 1}},
          {"Intel_Processor_Turbo_Mode", "Disabled", {"p.toml", 41, 1}},
          {"HP_Power_Profile", "maximum_performance", {"p.toml", 42, 1}},
          {"Memory_Power_Savings_Mode", "Maximum_Performance", {"p.toml", 43, 1}}};
}

TEST(ConrepXml, ReadsSectionsLinesEntitiesAndThePlatform) {
  const ConrepSettings s = parse_conrep_xml(read(kDir + "dl380p-gen8-tuned.xml"), "a");
  EXPECT_EQ(s.about.at("originating_platform"), "ProLiant DL380p Gen8");
  EXPECT_EQ(s.about.at("version"), "3.40");
  EXPECT_EQ(s.sections.at("Intel_Hyperthreading"), "Disabled");
  EXPECT_EQ(s.sections.at("HP_Power_Regulator"), "HP_Static_High_Performance_Mode");
  EXPECT_EQ(s.sections.at("IMD_ServerName"), "ctp-a");
  EXPECT_EQ(s.sections.at("IMD_Server_Info"), "rack 12 & 13\nowner: low-latency team");
  EXPECT_EQ(s.sections.at("Embedded_Serial_Port"), "COM_1_IRQ4_IO_3F8h-3FFh");
  EXPECT_EQ(s.sections.size(), 22u);
}

TEST(ConrepXml, MalformedXmlNamesTheLine) {
  EXPECT_THROW(parse_conrep_xml("", "a"), ConrepError);
  EXPECT_THROW(parse_conrep_xml("<Other/>", "a"), ConrepError);
  try {
    parse_conrep_xml("<Conrep>\n<Section name=\"x\">Disabled</Sectoin>\n</Conrep>", "conrep on a");
    FAIL();
  } catch (const ConrepError& e) {
    EXPECT_THAT(e.what(), HasSubstr("conrep on a:2: expected </Section>"));
  }
  EXPECT_THROW(parse_conrep_xml("<Conrep><Section>x</Section></Conrep>", "a"), ConrepError);  // no name
  EXPECT_THROW(parse_conrep_xml("<Conrep><Section name=\"x\">a &nbsp; b</Section></Conrep>", "a"),
               ConrepError);
  EXPECT_THROW(parse_conrep_xml("<Conrep><Section name=\"x\">unterminated", "a"), ConrepError);
  EXPECT_THROW(parse_conrep_xml("<Conrep></Conrep> trailing", "a"), ConrepError);
  EXPECT_NO_THROW(parse_conrep_xml("<Conrep/>", "a"));
}

TEST(BiosRules, TunedServerPassesEveryRule) {
  ConrepRead r;
  r.settings = parse_conrep_xml(read(kDir + "dl380p-gen8-tuned.xml"), "a");
  for (const BiosVerdict& v : check_bios("a", seed_rules(), r)) {
    EXPECT_EQ(v.status, BiosStatus::kPass) << v.message;
    EXPECT_TRUE(v.observed);
  }
}

TEST(BiosRules, UntunedServerFailsNamingObservedAndExpected) {
  ConrepRead r;
  r.settings = parse_conrep_xml(read(kDir + "dl380p-gen8-before.xml"), "b");
  const std::vector<BiosVerdict> v = check_bios("b", seed_rules(), r);
  EXPECT_EQ(v[0].status, BiosStatus::kPass);
  EXPECT_EQ(v[1].status, BiosStatus::kFail);
  EXPECT_EQ(v[1].message, "b: Intel_Processor_Turbo_Mode is Enabled, expected Disabled [p.toml:41:1]");
  EXPECT_EQ(v[3].observed, "Balanced");
}

TEST(BiosRules, AnUnknownNameFailsWithSimilarOnes) {
  ConrepRead r;
  r.settings = parse_conrep_xml(read(kDir + "dl380p-gen8-tuned.xml"), "a");
  const std::vector<BiosVerdict> v = check_bios("a", {{"Intel_Hyperthreading_Options", "Disabled", {}}}, r);
  EXPECT_EQ(v[0].status, BiosStatus::kFail);
  EXPECT_THAT(v[0].message, HasSubstr("conrep reports no setting Intel_Hyperthreading_Options; similar: "
                                      "Intel_Hyperthreading"));
}

TEST(BiosRules, WithoutConrepEveryRuleIsNotCheckableNeverPassed) {
  const ConrepRead missing = read_conrep_run("b", 127, "", "");
  ASSERT_FALSE(missing.settings);
  for (const BiosVerdict& v : check_bios("b", seed_rules(), missing)) {
    EXPECT_EQ(v.status, BiosStatus::kNotCheckable);
    EXPECT_THAT(v.message, HasSubstr("conrep is not installed on b"));
  }
  const ConrepRead failed = read_conrep_run("a", 4, "", "conrep: This system is not supported\n");
  EXPECT_THAT(failed.not_checkable,
              HasSubstr("conrep failed on a (exit 4): conrep: This system is not supported"));
  const ConrepRead junk = read_conrep_run("a", 0, "<html>", "");
  EXPECT_THAT(junk.not_checkable, HasSubstr("could not be read"));
}

// Runs argv with PATH set, returning the exit status and stdout.
std::pair<int, std::string> run(const std::vector<std::string>& argv, const std::string& path) {
  int fds[2];
  if (pipe(fds) != 0) throw std::runtime_error("pipe");
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], 1);
    close(fds[0]);
    setenv("PATH", path.c_str(), 1);
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(126);
  }
  close(fds[1]);
  std::string out;
  char buf[4096];
  for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) > 0;) out.append(buf, static_cast<std::size_t>(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

TEST(ConrepCommand, FindsConrepSavesPrintsAndRemovesTheFile) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("labgate_conrep_test." + std::to_string(getpid()));
  fs::create_directories(dir / "bin");
  // A stand-in for HP's conrep: `conrep -s -f FILE` writes the settings to FILE.
  std::ofstream(dir / "bin" / "conrep") << "#!/bin/sh\n[ \"$1\" = -s ] && [ \"$2\" = -f ] || exit 9\n"
                                        << "cat '" << kDir << "dl380p-gen8-tuned.xml' > \"$3\"\n";
  fs::permissions(dir / "bin" / "conrep", fs::perms::owner_all);
  const std::string data = (dir / "conrep.dat").string();
  auto [status, out] = run(conrep_command(data), (dir / "bin").string() + ":/bin:/usr/bin");
  EXPECT_EQ(status, 0);
  EXPECT_FALSE(fs::exists(data));
  const ConrepRead r = read_conrep_run("a", status, out, "");
  ASSERT_TRUE(r.settings) << r.not_checkable;
  EXPECT_EQ(r.settings->sections.at("Intel_Hyperthreading"), "Disabled");

  auto [missing, none] = run(conrep_command(data), "/bin:/usr/bin");
  EXPECT_EQ(missing, 127);
  EXPECT_TRUE(none.empty());
  fs::remove_all(dir);
}

}  // namespace
}  // namespace labgate::bios

// The tail concept's tests read their recorded run from testdata/; what the
// fix script's tests check of every script.
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "labgate/tail/attribute.h"

namespace labgate::tail {

inline std::string testdata(const std::string& name) {
  std::ifstream in(std::string(LABGATE_SOURCE_DIR) + "/harness/src/tail/testdata/" + name);
  EXPECT_TRUE(in.good()) << name;
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// The recorded hog run (tailhog busy on CPU 1; one watch output serves both
/// hosts) and its attribution.
struct RecordedHogRun {
  OutlierSet client;
  Attribution attribution;
};

inline RecordedHogRun recorded_hog_run() {
  const nlohmann::json cj = nlohmann::json::parse(testdata("hog_client.json"));
  RecordedHogRun r{parse_outliers(cj, "outliers", "client"), {}};
  const OutlierSet s =
      parse_outliers(nlohmann::json::parse(testdata("hog_server.json")), "turnaround_outliers", "server");
  const WatchOutput wa = parse_watch(testdata("hog_watch.json"), "a");
  WatchOutput wb = wa;
  wb.host = "b";
  AttributionInput in;
  in.client = &r.client;
  in.server = &s;
  in.watch_client = &wa;
  in.watch_server = &wb;
  in.typical_ns = cj["series"]["intervals"][0]["p50_ns"].get<std::uint64_t>();
  r.attribution = attribute(in);
  return r;
}

/// Every command line (not a comment) sits in a host block whose comments give
/// the evidence and how many outliers showed it.
inline void expect_every_line_has_evidence(const std::string& script) {
  std::istringstream in(script);
  std::string line;
  bool block = false, evidence = false;
  while (std::getline(in, line)) {
    if (line.rfind("# --- host ", 0) == 0) {
      block = true;
      evidence = false;
    } else if (line.rfind("# seen in ", 0) == 0) {
      evidence = block;
    } else if (!line.empty() && line[0] != '#') {
      EXPECT_TRUE(evidence) << "a line without its evidence: " << line;
    }
  }
}

}  // namespace labgate::tail

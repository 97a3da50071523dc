// The pool ledger: one JSON line per suite process on a pool pair, written at exit.
#include "pool_ledger.h"

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>

namespace labgate::suites {
namespace {

struct Entry {
  std::string path;
  nlohmann::json line;
};
Entry* g_entry = nullptr;  // one per process; written once by the atexit handler

long long now_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

void write_entry() {
  if (!g_entry) return;
  g_entry->line["end_ms"] = now_ms();
  std::ofstream out(g_entry->path, std::ios::app);
  out << g_entry->line.dump() << "\n";
}

}  // namespace

void ledger_at_exit(const std::string& state_file, const std::string& pair, const std::string& program,
                    const std::string& test) {
  std::ifstream in(state_file);
  std::string dir;
  if (!in || !std::getline(in, dir) || dir.empty() || g_entry) return;
  g_entry = new Entry{dir + "/pool.jsonl",
                      {{"pair", pair},
                       {"program", program},
                       {"test", test},
                       {"pid", static_cast<long>(::getpid())},
                       {"start_ms", now_ms()}}};
  std::atexit(write_entry);
}

}  // namespace labgate::suites

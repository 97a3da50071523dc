// Which CTest test ran on which lab pair, and when: each suite process run on a
// pool pair appends one line to <results folder>/pool.jsonl as it exits, so a
// pair's results say what ran there and whether two tests ever overlapped.
#pragma once

#include <string>

namespace labgate::suites {

/// Starts the ledger entry of this process (now) for `pair` and `test`; the line
/// is appended to `<run dir>/pool.jsonl` (the run dir named by `state_file`) at
/// exit. A state file naming no folder leaves no entry (the suite then fails).
void ledger_at_exit(const std::string& state_file, const std::string& pair, const std::string& program,
                    const std::string& test);

}  // namespace labgate::suites

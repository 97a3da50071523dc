// Sweeps: a [[test]] whose parameter is a list (message_size = [64, 1024]) is
// expanded into one case per value (per combination, when several are lists),
// each named by its values; budget_by sets per-value budgets over the default.
#pragma once

#include <string>
#include <vector>

#include "labgate/profile/test_spec.h"
#include "reader.h"

namespace labgate::profile::detail {

/// One swept parameter: its key and the values of its list, in file order.
struct SweepDim {
  std::string key;
  std::vector<Node> values;
  std::vector<std::string> shown;      ///< as written: "16KiB", "1024", "cubic"
  std::vector<std::string> canonical;  ///< for matching budget_by keys: "16384", "1024", "cubic"
};

/// One case of a sweep: the test's table with every list replaced by one value.
struct SweepCase {
  Node node;
  std::vector<SweepPoint> points;
  std::vector<std::size_t> index;  ///< the value chosen from each dim
};

/// budget_by.<key>."<value>" = { stat = limit, ... }: bounds for the cases whose
/// `key` has that value.
struct BudgetOverride {
  std::size_t dim = 0, value = 0;
  std::vector<Bound> bounds;
};

/// A swept value's meaning as text, for matching budget_by keys: sizes in bytes,
/// durations in ns, else as written ("16KiB" and "16384" are one value).
std::string canonical_value(std::string_view key, const std::string& text);

/// Whether a key written as a list is a sweep (on, cpus and argv are lists by nature).
bool is_sweepable(std::string_view key);

/// The swept dimensions of `test`, in file order; each bad list is an error on
/// `key` (the test's name in messages) and is left out.
std::vector<SweepDim> sweep_dims(const Node& test, const std::string& key, Diagnostics& d);

/// Every combination of one value per dim (the first dim varies slowest).
std::vector<SweepCase> sweep_cases(const Node& test, const std::vector<SweepDim>& dims);

/// "tcp_stream_sweep/message_size=1024" (dims joined by ',').
std::string case_name(const std::string& base, const std::vector<SweepPoint>& points);

/// Reads `budget_by` (nullptr: none). Keys must name a swept parameter and one of
/// its values.
std::vector<BudgetOverride> read_budget_by(const Node* by, const std::string& key,
                                           const std::vector<SweepDim>& dims, Diagnostics& d);

/// `budget` with every override that matches `c` applied (an override replaces
/// the default's bound on the same statistic). Two matching overrides that bound
/// one statistic differently are an error.
std::vector<Bound> case_budget(const std::vector<Bound>& budget, const std::vector<BudgetOverride>& overrides,
                               const std::vector<SweepDim>& dims, const SweepCase& c, const std::string& key,
                               Diagnostics& d);

}  // namespace labgate::profile::detail

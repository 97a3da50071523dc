// A disjoint mesh round measured at once, its results handed out case by case.
#include "labgate/gate/mesh_rounds.h"

#include <pthread.h>

#include <csignal>
#include <thread>

namespace labgate::gate {
namespace {

std::string key_of(const TestCase& c) { return c.name(); }

// The signals of a Ctrl-C go to the thread that waits for the round: its handler
// sets the flag every pair's transport polls, so each pair stops and cleans up
// on its own thread, and no pair's system call is cut short mid-measurement.
void block_interrupts_here() {
  sigset_t s;
  sigemptyset(&s);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&s, sig);
  pthread_sigmask(SIG_BLOCK, &s, nullptr);
}

}  // namespace

MeshRounds::MeshRounds(std::vector<TestCase> cases, Reporter& reporter)
    : cases_(std::move(cases)), reporter_(reporter) {}

bool MeshRounds::holds(const TestCase& c) const { return held_.count(key_of(c)) > 0; }

bool MeshRounds::round_pending(const TestCase& c) const {
  if (c.round <= 0) return false;
  for (const TestCase& x : cases_)
    if (x.spec == c.spec && x.round == c.round && holds(x)) return true;
  return false;
}

std::vector<TestCase> MeshRounds::round_of(const TestCase& c, const Runs& runs) const {
  std::vector<TestCase> out;
  for (const TestCase& x : cases_)
    if (x.spec == c.spec && x.round == c.round && (key_of(x) == key_of(c) || !runs || runs(x))) out.push_back(x);
  bool listed = false;
  for (const TestCase& x : out) listed = listed || key_of(x) == key_of(c);
  if (!listed) out.push_back(c);
  return out;
}

MeasuredCase MeshRounds::take(const TestCase& c, const Measure& measure, const Prepare& prepare, const Runs& runs) {
  if (auto it = held_.find(key_of(c)); it != held_.end()) {
    MeasuredCase m = std::move(it->second);
    held_.erase(it);
    return m;
  }
  if (c.round <= 0) return measure(c);
  const std::vector<TestCase> round = round_of(c, runs);
  if (prepare)
    for (const TestCase& x : round) prepare(x);
  std::string pairs;
  for (const TestCase& x : round) pairs += (pairs.empty() ? "" : ", ") + x.pair;
  reporter_.info(c.spec->name + ": round " + std::to_string(c.round) + ": " + pairs + " at the same time");
  std::vector<MeasuredCase> results(round.size());
  {
    std::vector<std::jthread> threads;
    threads.reserve(round.size());
    for (std::size_t i = 0; i < round.size(); ++i)
      threads.emplace_back([&, i] {
        block_interrupts_here();
        try {
          results[i] = measure(round[i]);
        } catch (const std::exception& e) {  // measure_case never throws; a Measure that does is that pair's error
          results[i].error = e.what();
        }
      });
  }  // the round ends when its last pair has
  MeasuredCase mine;
  for (std::size_t i = 0; i < round.size(); ++i) {
    if (key_of(round[i]) == key_of(c))
      mine = std::move(results[i]);
    else
      held_[key_of(round[i])] = std::move(results[i]);
  }
  return mine;
}

}  // namespace labgate::gate

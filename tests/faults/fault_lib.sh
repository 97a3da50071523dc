# Shared steps of the fault matrix (sourced by fault_matrix.sh): a pair-3 profile,
# a gate run in its own process group with a hard deadline, watching the hosts'
# namespaces for the moment to strike, and the checks every fault ends with.
# Expects: $bin (labgate's bin dir), $src (the checkout), $work (scratch dir).

pair=3
ns_a=lg3-a ns_b=lg3-b
state=$src/.lab/pair$pair
fail() { echo "FAIL: $*" >&2; exit 1; }
note() { echo "--- $*"; }

# profiles/lab.toml moved to pair 3 (ci/lab: mgmt 198.18.0.18/.22, interconnect
# 198.19.3.1/.2, keys in .lab/pair3) with one a->b round-trip test lasting
# $1 (so a fault lands mid-test) and a short lease_wait.
make_profile() {
  local duration=$1 out=$work/pair3.toml
  sed -e 's/"198\.18\.0\.2"/"198.18.0.18"/' -e 's/"198\.18\.0\.6"/"198.18.0.22"/' \
    -e 's/198\.19\.1\./198.19.3./g' -e "s#\"\.\./\.lab/pair1/#\"$src/.lab/pair$pair/#g" \
    -e 's/^name = "lab-pair1"/name = "lab-pair3"/' -e 's/^lease_wait = .*/lease_wait = "5s"/' \
    -e '/^\[\[test\]\]/,$d' "$src/profiles/lab.toml" >"$out"
  cat >>"$out" <<EOF
[[test]]
name = "tcp_rr_64"
kind = "tcp_rr"
from = "a"
to = "b"
duration = "$duration"
warmup = "1s"
nodelay = true
busy_poll = false
budget = { p50 = "500us", p99 = "1.5ms", max = "100ms" }
EOF
  # Guard against profiles/lab.toml changing under the sed: every address is pair 3's.
  grep -q '"198.18.0.18"' "$out" && grep -q '"198.18.0.22"' "$out" && grep -q '"198.19.3.2"' "$out" &&
    ! grep -q 'pair1' "$out" || fail "could not move profiles/lab.toml to pair 3; see $out"
  profile=$out
}

# Starts `labgate run` in a new session (so a Ctrl-C can reach its whole process
# group, as a terminal's does); sets gate_pid and t0.
start_gate() {
  local root=${results_root:-$work/results}
  mkdir -p "$root"
  find "$root" -mindepth 1 -delete
  setsid "$bin/labgate" run "$profile" --suffix fault --results "${results_root:-$work/results}" "$@" \
    >"$work/out" 2>&1 &
  gate_pid=$!
  t0=$SECONDS
}

# Waits at most $1 s for the gate; sets rc and took. A gate still running then
# is killed (with its group) and the case fails: every fault must end in time.
wait_gate() {
  local limit=$1 until=$((SECONDS + $1))
  while kill -0 "$gate_pid" 2>/dev/null && [ $SECONDS -lt $until ]; do sleep 0.2; done
  if kill -0 "$gate_pid" 2>/dev/null; then
    kill -KILL -- -"$gate_pid" 2>/dev/null
    wait "$gate_pid" 2>/dev/null
    tail -40 "$work/out"
    fail "labgate run still running ${limit}s after it started: a fault must end the run in time"
  fi
  wait "$gate_pid"
  rc=$?
  took=$((SECONDS - t0))
  echo "labgate run ended after ${took}s with exit $rc; its last lines:"
  tail -15 "$work/out" | sed 's/^/  | /'
}

# Pids of processes in namespace $1 whose command line holds $2.
ns_pids() {
  local pid
  for pid in $(ip netns pids "$1" 2>/dev/null); do
    [ "$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null)" = Z ] && continue
    tr '\0' ' ' 2>/dev/null <"/proc/$pid/cmdline" | grep -q -- "$2" && echo "$pid"
  done
}

# Waits at most $3 s until a process matching $2 runs in namespace $1; prints its pids.
wait_remote_process() {
  local until=$((SECONDS + $3)) pids
  while [ $SECONDS -lt $until ]; do
    pids=$(ns_pids "$1" "$2")
    [ -n "$pids" ] && { echo "$pids"; return 0; }
    kill -0 "$gate_pid" 2>/dev/null || break
    sleep 0.05
  done
  tail -20 "$work/out" >&2
  fail "no process matching '$2' appeared in $1 within $3 s"
}

# Kills every sshd in namespace $1 (daemons and sessions), as a crashed server's.
kill_sshd() {
  local pid
  for pid in $(ip netns pids "$1"); do
    [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = sshd ] && kill -KILL "$pid" 2>/dev/null
  done
  return 0
}

expect_rc() {
  local want
  for want in "$@"; do [ "$rc" -eq "$want" ] && return 0; done
  fail "labgate run exited $rc, expected $*"
}

# The gate's messages name the host and the step ($1: an extended regex).
expect_message() {
  LC_ALL=C grep -aEq -- "$1" "$work/out" || { cat -v "$work/out"; fail "no message matching /$1/ in the output"; }
  echo "message: $(LC_ALL=C grep -aEm1 -- "$1" "$work/out" | cut -c1-600)"
}

run_dir() { ls -d "${results_root:-$work/results}"/*-fault 2>/dev/null | head -1; }

# Suite.name of every test gtest reported finished (passed, failed or skipped);
# only those matching $finished_before when the case knows better (a full disk).
finished_tests() {
  sed -nE 's/^\[ +(OK|FAILED|SKIPPED) +\] ([^ ,]+\.[^ ,]+).*/\2/p' "$work/out" | sort -u |
    grep -E "^${finished_before:-.}"
}

# The results folder holds the run and every test gtest finished before the fault.
expect_results() {
  local dir t name esc
  dir=$(run_dir)
  [ -n "$dir" ] || fail "no results folder under ${results_root:-$work/results}"
  for f in run.json junit.xml; do [ -s "$dir/$f" ] || fail "results folder lacks $f"; done
  [ -n "${no_exit_record:-}" ] || grep -q '"exit_code":'"$rc" "$dir/run.json" || fail "run.json does not record exit $rc"
  while read -r t; do
    name=${t#*.}
    # The preconditions suite's stand-in for "could not run" is the Gate/run testcase.
    [ "$name" = gate/could_not_run ] && name=run
    esc=$(printf '%s' "$name" | sed 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g')
    grep -qF "name=\"$esc\"" "$dir/junit.xml" || fail "junit.xml lacks $t, which finished before the fault"
  done < <(finished_tests)
  find "$dir" -name '.*.tmp.*' | grep -q . && fail "half-written temporaries left in $dir"
  echo "results: $dir holds run.json, junit.xml and the $(finished_tests | wc -l) test(s) finished before the fault"
}

# Nothing of the run is left on either host (nor a labgate of this profile here).
expect_clean() {
  bash "$src/tests/faults/inspect_leftovers.sh" --pair "$pair" --wait "${1:-10}" --local "${profile:-$work}" ||
    fail "the fault left something behind (above)"
}

# The lab repaired (sshd restarted, links up), then one gate step on both hosts:
# a run after a fault that cut a host off must sweep what that host kept.
recover() {
  ip link set lg3a-m up 2>/dev/null
  ip link set lg3b-m up 2>/dev/null
  ip netns exec "$ns_a" ip link set ic0 up 2>/dev/null
  ip netns exec "$ns_b" ip link set ic0 up 2>/dev/null
  "$src/ci/lab" up --pair "$pair" >/dev/null || fail "ci/lab up --pair $pair could not repair the lab"
  timeout 120 "$bin/labgate" check "$profile" >"$work/recover" 2>&1 || {
    cat "$work/recover"
    fail "the run after the fault (labgate check) failed"
  }
  grep -E 'removed .* left behind|breaking the stale' "$work/recover" | sed 's/^/  recovered: /'
}

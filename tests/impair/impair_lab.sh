#!/usr/bin/env bash
# netem's impairments on lab pair 4's interconnect (through ci/impair's wire),
# and what labgate and its probes make of them. Needs root and `ci/lab up --pair 4`.
#   gate_delay    delay 2ms: `labgate run -L latency` on a pair-4 copy of
#                 profiles/lab.toml exits 1, names each test and p50/p99, and
#                 junit.xml carries the failures
#   ctest_delay   delay 2ms: the CTest gate's latency tests (ctest --preset gate
#                 -L latency, LABGATE_PROFILE=the pair-4 copy) fail
#   udp_loss      loss 5%: udp_rr reports drops, as many as the wire dropped, and
#                 the run ends on time
#   dup_reorder   duplicate + reorder on a->b: the pingpong probe's duplicated and
#                 out-of-order counts are the wire's own
#   delay_jitter  delay 2ms 500us both ways: udp_rr's p50 moves by 2 x delay
#   clear_wire    no impairment: the wire's own cost on p50/p99 (printed, loosely bounded)
#   bad_input     what netem has but the wire does not model, and misuse, are refused
#                 with exit 2 naming the argument, and leave the pair wired as it was
set -uo pipefail
case_name=$1
bin=$2
src=$3
probes=$4
pair=4
work=$(mktemp -d /tmp/lg-impair.XXXXXX)
impair() { bash "$src/ci/impair" --pair $pair --wire "$bin/labgate-wire" "$@"; }
trap 'impair clear >/dev/null 2>&1; rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
cd "$src"
export LABGATE_RESULTS=$work/results

# The pair-4 copy of profiles/lab.toml: its lab name (lease), keys and addresses.
base=$(((pair - 1) * 8))
sed -e "s/\"lab-pair1\"/\"lab-pair$pair\"/" \
  -e "s#\"\.\./\.lab/pair1/#\"$src/.lab/pair$pair/#" \
  -e "s/\"198\.18\.0\.2\"/\"198.18.0.$((base + 2))\"/" \
  -e "s/\"198\.18\.0\.6\"/\"198.18.0.$((base + 6))\"/" \
  -e "s/198\.19\.1\./198.19.$pair./g" \
  -e "s/lg-a, lg-b/lg$pair-a, lg$pair-b/" profiles/lab.toml >"$work/lab$pair.toml"
for want in "lab-pair$pair" "198.18.0.$((base + 2))" "198.19.$pair.2" ".lab/pair$pair/id_rsa"; do
  grep -q "$want" "$work/lab$pair.toml" || fail "the pair-$pair copy of profiles/lab.toml lacks $want (lab.toml changed shape?)"
done

# A copy holding only the [[test]] named $1 (everything before the first [[test]] kept).
only_test() {
  awk -v want="$1" '
    /^\[\[test\]\]/ { intest = 1; keep = 0; block = $0 "\n"; next }
    intest && /^\[/ && !/^\[\[test\]\]/ { intest = 0 }
    intest { block = block $0 "\n"; if ($0 ~ "^name *= *\"" want "\"") keep = 1; if (keep) { printf "%s", block; block = "" } next }
    { print }' "$work/lab$pair.toml" >"$work/$1.toml"
  grep -q "name = \"$1\"" "$work/$1.toml" || fail "profiles/lab.toml has no test $1"
}

# labgate run; sets rc, secs, run (the results folder).
gate_run() {
  local suffix=$1 profile=$2 start
  shift 2
  start=$(date +%s)
  timeout 300 "$bin/labgate" run "$profile" --suffix "$suffix" --results "$work/results" "$@" >"$work/$suffix.out" 2>&1
  rc=$?
  secs=$(($(date +%s) - start))
  run=$(ls -d "$work"/results/*-"$suffix" 2>/dev/null | head -1)
  [ -n "$run" ] || { cat "$work/$suffix.out"; fail "labgate run ($suffix) left no results folder (exit $rc)"; }
}

# A property of the testcase named $2 in junit.xml $1 (first direction).
junit_prop() {
  sed -n "/<testcase [^>]*name=\"$2\/[ab]-&gt;[ab]\"/,\#</testcase>#p" "$1" |
    grep -o "name=\"$3\" value=\"[^\"]*\"" | head -1 | sed 's/.*value="\([^"]*\)"/\1/'
}

# The two directions' counter $1 (a jq path below a_to_b / b_to_a) of the wire's final JSON $2.
wire_sum() { jq "(.a_to_b$1) + (.b_to_a$1)" "$2"; }

case $case_name in
  gate_delay)
    impair delay 2ms || fail "ci/impair delay 2ms failed"
    # 2 ms of delay against a p99 budget in the hundreds of µs shows in any
    # second of samples: short runs (the seed's test-time argument) keep CI quick.
    gate_run delay "$work/lab$pair.toml" -L latency --duration 2s --warmup 500ms
    grep -q -- '--duration 2s replaces' "$work/delay.out" || fail "the run does not say --duration 2s replaced the profile's durations"
    jq -e '.overrides[] | select(.parameter == "duration" and .value == "2s") | .replaced | length > 0' "$run/run.json" >/dev/null ||
      fail "run.json does not record the --duration override and what it replaced"
    tail -30 "$work/delay.out"
    [ $rc -eq 1 ] || fail "labgate run -L latency with 2 ms of delay exited $rc, expected 1"
    junit=$run/junit.xml
    # Round-trip tests cross the interconnect; other latency kinds (command, disk) need not fail.
    latency_tests=$(awk '/^\[/ { if (n != "" && k ~ /_rr"/) print n; n = k = "" }
      /^name *=/ { n = $3 } /^kind *=/ { k = $3 }
      END { if (n != "" && k ~ /_rr"/) print n }' "$work/lab$pair.toml" | tr -d '"')
    [ -n "$latency_tests" ] || fail "the profile names no tcp_rr/udp_rr test"
    for t in $latency_tests; do
      grep -q "$t" "$work/delay.out" || fail "the output does not name $t"
      block=$(sed -n "/<testcase [^>]*name=\"$t\/[ab]-&gt;[ab]\"/,\#</testcase>#p" "$junit")
      [ -n "$block" ] || fail "junit.xml has no testcase for $t"
      echo "$block" | grep -q '<failure' || fail "junit.xml: $t is not a failure"
      echo "$block" | grep -q 'p50' || fail "junit.xml: the failure of $t does not name p50"
      echo "$block" | grep -q 'p99' || fail "junit.xml: the failure of $t does not name p99"
      echo "  $t: failed, p50_us=$(junit_prop "$junit" "$t" p50_us) p99_us=$(junit_prop "$junit" "$t" p99_us)"
    done
    grep -q 'p50' "$work/delay.out" && grep -q 'p99' "$work/delay.out" || fail "the output does not name p50 and p99"
    ;;
  ctest_delay)
    # The gate's own CTest wiring (suites/gate_tests.cmake, what `ctest --preset
    # gate` reads), with its run-state file and results moved into $work so this
    # run cannot disturb a gate run of the same build.
    gen=$bin/../suites/gate_tests.cmake
    [ -s "$gen" ] || fail "$gen not found (configure the build first)"
    mkdir -p "$work/ctest"
    build=$(cd "$bin/.." && pwd)
    sed -e "s#$build/gate/current-run#$work/current-run#" -e "s#$build/results#$work/results#" "$gen" \
      >"$work/ctest/CTestTestfile.cmake"
    impair delay 2ms || fail "ci/impair delay 2ms failed"
    # The two round-trip tests the checks below name (CTest adds the fixtures they need).
    LABGATE_PROFILE=$work/lab$pair.toml timeout 400 ctest --test-dir "$work/ctest" -L latency \
      -R '^gate\.latency\.(tcp|udp)_rr_64$' --output-on-failure >"$work/ctest.out" 2>&1
    rc=$?
    grep -E 'Test +#|tests passed|tests failed' "$work/ctest.out"
    [ $rc -ne 0 ] || fail "ctest -L latency passed with 2 ms of delay"
    grep -Eq 'gate\.latency\.tcp_rr_64 .*Failed' "$work/ctest.out" || fail "gate.latency.tcp_rr_64 did not fail"
    grep -Eq 'gate\.latency\.udp_rr_64 .*Failed' "$work/ctest.out" || fail "gate.latency.udp_rr_64 did not fail"
    grep -q 'p99' "$work/ctest.out" || fail "the failing tests' output does not name p99"
    junit=$(ls "$work"/results/*/junit.xml 2>/dev/null | head -1)
    [ -n "$junit" ] || fail "the CTest gate left no junit.xml"
    grep -q 'name="p99_us"' "$junit" || fail "$junit carries no p99_us property"
    ;;
  udp_loss)
    only_test udp_rr_64
    impair loss 5% || fail "ci/impair loss 5% failed"
    gate_run loss "$work/udp_rr_64.toml" -L latency
    impair clear >"$work/wire.json" || fail "ci/impair clear failed"
    tail -15 "$work/loss.out"
    [ $rc -eq 1 ] || fail "udp_rr_64 (budget dropped = 0) with 5% loss exited $rc, expected 1"
    # Warm-up 1 s + duration 5 s; deploy and clean-up take a few seconds more. A
    # lost reply must cost one receive timeout (100 ms), never a hang.
    [ $secs -le 60 ] || fail "the run took ${secs}s with 5% loss (expected well under 60s)"
    client=$run/tests/udp_rr_64/a-to-b/client.out
    [ -s "$client" ] || fail "no client output at $client"
    probe=$(jq '.counters.measured.dropped + .counters.warmup.dropped' "$client")
    late=$(jq '.counters.measured.late + .counters.warmup.late' "$client")
    sent=$(jq '.counters.measured.sent + .counters.warmup.sent' "$client")
    lost=$(wire_sum .udp.lost "$work/wire.json")
    frames=$(wire_sum .udp.received "$work/wire.json")
    dropped_prop=$(junit_prop "$run/junit.xml" udp_rr_64 dropped)
    echo "probe: $sent sent, $probe dropped ($late late; junit dropped=$dropped_prop); wire: $frames UDP frames, $lost lost"
    [ "$probe" -gt 0 ] || fail "udp_rr reports no drops with 5% loss"
    [ -n "$dropped_prop" ] && [ "$dropped_prop" -gt 0 ] || fail "junit.xml's dropped property is '$dropped_prop'"
    # Closed loop, one request in flight: every lost request or reply is one drop.
    # A reply slower than the receive timeout (a descheduled VM) is a drop too.
    diff=$((probe - lost))
    [ ${diff#-} -le $((2 + late)) ] || fail "the probe counted $probe drops, the wire dropped $lost"
    awk -v l="$lost" -v n="$frames" 'BEGIN { r = l / n; exit !(n >= 200 && r > 0.02 && r < 0.09) }' ||
      fail "the wire dropped $lost of $frames UDP frames: not about 5%"
    ;;
  dup_reorder)
    # Open loop (2000 requests/s) so several requests are in flight to overtake
    # each other; impaired on a->b only (netem on host a's ic0), so the order the
    # server echoes in is the order the client sees.
    impair --dir a2b --seed 7 delay 1ms 300us duplicate 3% reorder 10% || fail "ci/impair failed"
    ip netns exec lg$pair-b timeout 60 "$probes/pingpong" server --bind 198.19.$pair.2 --proto udp --size 64 \
      --idle-timeout 20s >"$work/server.out" 2>"$work/server.err" &
    for i in $(seq 50); do [ -s "$work/server.out" ] && break; sleep 0.1; done
    port=$(head -1 "$work/server.out" | jq .port)
    [ -n "$port" ] && [ "$port" != null ] || { cat "$work/server.err"; fail "pingpong server did not start"; }
    ip netns exec lg$pair-a timeout 60 "$probes/pingpong" client --connect 198.19.$pair.2 --port "$port" \
      --proto udp --size 64 --rate 2000/s --duration 4s --warmup 1s --recv-timeout 1s >"$work/client.out" 2>"$work/client.err" ||
      { cat "$work/client.err"; fail "pingpong client failed"; }
    sleep 0.2
    impair clear >"$work/wire.json" || fail "ci/impair clear failed"
    kill %1 2>/dev/null
    c() { jq ".counters.measured.$1 + .counters.warmup.$1" "$work/client.out"; }
    dup=$(c duplicated) ooo=$(c out_of_order) late=$(c late) dropped=$(c dropped)
    w_dup=$(jq .a_to_b.udp.dup_departures "$work/wire.json")
    w_ooo=$(jq .a_to_b.udp.out_of_order "$work/wire.json")
    w_made=$(jq .a_to_b.udp.duplicated "$work/wire.json")
    w_reord=$(jq .a_to_b.udp.reordered "$work/wire.json")
    echo "probe: duplicated $dup, out_of_order $ooo, dropped $dropped, late $late"
    echo "wire a->b: duplicated $w_made (left twice: $w_dup), reordered $w_reord (left out of order: $w_ooo)"
    [ "$dup" -gt 0 ] && [ "$ooo" -gt 0 ] || fail "the probe saw no duplicates or no reordering"
    [ "$(jq .b_to_a.udp.out_of_order "$work/wire.json")" -eq 0 ] || fail "b->a was impaired"
    # The probe stops listening once every request is answered: the copies of
    # the last few requests may leave the wire after that (2000/s x ~1.3 ms).
    for pair_ in "duplicated:$dup:$w_dup" "out_of_order:$ooo:$w_ooo"; do
      IFS=: read -r what p w <<<"$pair_"
      [ "$p" -le "$w" ] && [ $((w - p)) -le $((5 + late)) ] ||
        fail "$what: the probe counted $p, the wire's departures say $w"
    done
    ;;
  delay_jitter | clear_wire)
    only_test udp_rr_64
    if [ "$case_name" = clear_wire ]; then
      gate_run direct "$work/udp_rr_64.toml" -L latency
      p50_0=$(junit_prop "$run/junit.xml" udp_rr_64 p50_us) p99_0=$(junit_prop "$run/junit.xml" udp_rr_64 p99_us)
      [ $rc -eq 0 ] || echo "note: the direct run exited $rc (a noisy machine); figures kept"
      impair delay 0ms || fail "ci/impair (no impairment) failed"
      gate_run wire "$work/udp_rr_64.toml" -L latency
      p50_1=$(junit_prop "$run/junit.xml" udp_rr_64 p50_us) p99_1=$(junit_prop "$run/junit.xml" udp_rr_64 p99_us)
      impair clear >"$work/wire.json"
      echo "udp_rr_64 RTT direct: p50 ${p50_0}us p99 ${p99_0}us; through a clear wire: p50 ${p50_1}us p99 ${p99_1}us"
      echo "wire overhead: p50 +$(awk -v a="$p50_1" -v b="$p50_0" 'BEGIN { printf "%.1f", a - b }')us, p99 +$(awk -v a="$p99_1" -v b="$p99_0" 'BEGIN { printf "%.1f", a - b }')us per round trip (two crossings)"
      [ "$(wire_sum .udp.lost "$work/wire.json")" -eq 0 ] || fail "a clear wire lost frames"
      [ "$(wire_sum .socket_drops "$work/wire.json")" -eq 0 ] || echo "note: the wire's sockets overflowed"
      # Loose: through a clear wire the lab's own budgets (p50 500us, p99 1.5ms) still hold.
      awk -v a="$p50_1" 'BEGIN { exit !(a > 0 && a < 500) }' || fail "p50 through a clear wire is ${p50_1}us"
    else
      impair delay 0ms || fail "ci/impair (no impairment) failed"
      gate_run base "$work/udp_rr_64.toml" -L latency
      base_p50=$(junit_prop "$run/junit.xml" udp_rr_64 p50_us)
      impair delay 2ms 500us || fail "ci/impair delay 2ms 500us failed"
      gate_run jitter "$work/udp_rr_64.toml" -L latency
      p50=$(junit_prop "$run/junit.xml" udp_rr_64 p50_us) p99=$(junit_prop "$run/junit.xml" udp_rr_64 p99_us)
      impair clear >"$work/wire.json"
      echo "udp_rr_64 p50: ${base_p50}us through a clear wire, ${p50}us (p99 ${p99}us) with delay 2ms 500us both ways"
      [ $rc -eq 1 ] || fail "with 2 ms of delay udp_rr_64 exited $rc, expected 1"
      # Two crossings of 2 ms +-0.5 ms (uniform): the median round trip moves by 4 ms.
      awk -v a="$p50" -v b="$base_p50" 'BEGIN { s = a - b; exit !(s > 3600 && s < 4600) }' ||
        fail "p50 moved by $(awk -v a="$p50" -v b="$base_p50" 'BEGIN { print a - b }')us, expected 4000us +-10%"
      # The jitter shows: the round trips spread over about +-1 ms, not a spike at 4 ms.
      awk -v a="$p99" -v b="$p50" 'BEGIN { exit !(a - b > 400) }' || fail "p99 - p50 is only $p99 - $p50 us: no jitter"
    fi
    ;;
  bad_input)
    expect_refusal() {
      local want=$1
      shift
      impair "$@" >"$work/out" 2>&1
      local rc=$?
      [ $rc -eq 2 ] || { cat "$work/out"; fail "ci/impair $* exited $rc, expected 2"; }
      grep -q -- "$want" "$work/out" || { cat "$work/out"; fail "ci/impair $*: the error does not say '$want'"; }
      echo "  refused: ci/impair $*: $(grep -m1 -- "$want" "$work/out")"
    }
    expect_refusal correlation delay 2ms 1ms 25%
    expect_refusal "'corrupt'" corrupt 1%
    expect_refusal "needs a delay" reorder 10%
    expect_refusal "150%" loss 150%
    expect_refusal "no wire runs" stats
    expect_refusal "--dir must be" --dir sideways delay 1ms
    bash "$src/ci/impair" --pair 31 delay 1ms >"$work/out" 2>&1 && fail "--pair 31 was accepted"
    grep -q -- "--pair must be" "$work/out" || fail "--pair 31: $(cat "$work/out")"
    impair status | grep -q "direct" || fail "a refused impairment changed the wiring: $(impair status)"
    # A real one, then its counters while running and at the end.
    impair delay 1ms || fail "ci/impair delay 1ms failed"
    ip netns exec lg$pair-a ping -c 3 -i 0.2 -q 198.19.$pair.2 >/dev/null || fail "no ping through the wire"
    [ "$(impair stats | jq -r .status)" = running ] || fail "ci/impair stats did not report a running wire"
    impair clear >"$work/wire.json" || fail "ci/impair clear failed"
    [ "$(jq -r .status "$work/wire.json")" = stopped ] || fail "the wire did not stop cleanly: $(cat "$work/wire.json")"
    [ "$(jq .a_to_b.frames.forwarded "$work/wire.json")" -ge 3 ] || fail "the wire forwarded no pings"
    ip netns list | grep -q "^lg$pair-w" && fail "lg$pair-w is left after clear"
    ip netns exec lg$pair-a ping -c 1 -W 2 -q 198.19.$pair.2 >/dev/null || fail "the direct link is not back"
    ;;
  *) fail "unknown case $case_name" ;;
esac
echo "ok: $case_name"

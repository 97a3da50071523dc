#!/usr/bin/env bash
# The preload proof on lab pair 19 (needs root, `ci/lab up --pair 19` and the
# build's tests/liblg_count_preload.so):
#   detected  tcp_rr and udp_rr with preload = the counting library pass; the
#             "preload" line of each case passes naming both probes' mapping, and
#             the library's own counts show the probes' socket calls went through it
#   missing   preload = a library that does not exist: ld.so ignores it, the probes
#             run on the kernel, and the case FAILS (exit 1) saying so
#   stripped  preload = the counting library under wrapper = "env -u LD_PRELOAD":
#             the probes run without it, and the case FAILS (exit 1)
#   preload_lab.sh CASE BIN_DIR SOURCE_DIR
set -uo pipefail
case_name=$1
bin=$2
src=$3
pair=19
lib=$(cd "$bin/.." && pwd)/tests/liblg_count_preload.so
work=$(mktemp -d /tmp/lg-preload.XXXXXX)
lib_dir=""
trap 'rm -rf "$work" ${lib_dir:+"$lib_dir"}' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
ip netns list | awk '{print $1}' | grep -qx "lg$pair-a" || fail "lab pair $pair is not up (ci/lab up --pair $pair)"
[ -f "$lib" ] || fail "$lib is not built (cmake --build ... --target lg_count_preload)"
# Each lab host has its own /tmp: a build under /tmp (a checkout there) is not on
# the hosts, so the library goes where they see it, as an operator installs one.
case $lib in
  /tmp/*)
    lib_dir=$(mktemp -d /var/tmp/lg-preload-lib.XXXXXX)
    chmod 755 "$lib_dir"
    cp "$lib" "$lib_dir/" && lib=$lib_dir/liblg_count_preload.so ;;
esac

# shellcheck source=../lab_pair_profile.sh
. "$src/tests/lab_pair_profile.sh"
profile() {  # profile PRELOAD [WRAPPER]
  lab_pair_profile "$pair" ipv6
  cat <<TOML
[defaults.test]
duration = "2s"
warmup = "500ms"
from = "a"
to = "b"
preload = "$1"
${2:+wrapper = \"$2\"}
[[test]]
name = "tcp_rr_preload"
kind = "tcp_rr"
budget = { p50 = "5ms", max = "1s" }
[[test]]
name = "udp_rr_preload"
kind = "udp_rr"
budget = { p50 = "5ms", max = "1s" }
TOML
}

gate_run() {  # gate_run SUFFIX PROFILE: sets rc and run
  timeout 110 "$bin/labgate" run "$2" -L latency --suffix "$1" --results "$work/results" >"$work/$1.out" 2>&1
  rc=$?
  run=$(ls -d "$work"/results/*-"$1" 2>/dev/null | head -1)
  [ -n "$run" ] || { cat "$work/$1.out"; fail "labgate run ($1) left no results folder (exit $rc)"; }
  tail -8 "$work/$1.out"
}

preload_lines() { jq -c --arg l "preload $1" '[.tests[] | {name, verdict, line: (.budget[] | select(.stat == $l))}]' "$run/run.json"; }

case $case_name in
  detected)
    profile "$lib" >"$work/p.toml"
    gate_run detected "$work/p.toml"
    [ $rc -eq 0 ] || fail "the preloaded run exited $rc, expected 0: $(preload_lines "$lib")"
    jq -e --arg l "preload $lib" '[.tests[] | .budget[] | select(.stat == $l) | .pass and .observed == 2] |
        length == 2 and all' "$run/run.json" >/dev/null || fail "the preload lines: $(preload_lines "$lib")"
    for t in tcp_rr_preload udp_rr_preload; do
      d=$(ls -d "$run/tests/$t"/*)
      grep -q "^labgate-preload: mapped $lib as " "$d/client.err" || fail "$t: the client did not report $lib mapped"
      grep -q "^labgate-preload: mapped $lib as " "$d/server.err" || fail "$t: the server did not report $lib mapped"
      calls=$(grep -ho 'lg_count_preload: .*' "$d/client.err" "$d/server.err")
      echo "$t: $calls"
      # The library saw the probes' traffic: thousands of intercepted sends and receives.
      sends=$(echo "$calls" | grep -o '\(send\|sendto\)=[0-9]*' | cut -d= -f2 | awk '{ s += $1 } END { print s + 0 }')
      [ "${sends:-0}" -gt 1000 ] || fail "$t: the library counted only ${sends:-0} sends"
      grep -q 'pingpong-dyn' "$d/command.txt" || fail "$t: not the dynamically linked probe: $(cat "$d/command.txt")"
    done
    ;;
  missing)
    profile "/nonexistent/liblg_missing.so" >"$work/p.toml"
    gate_run missing "$work/p.toml"
    [ $rc -eq 1 ] || fail "a run whose preload library is missing exited $rc, expected 1 (failed)"
    jq -e '[.tests[] | .verdict == "fail" and (.failure | test("ran without /nonexistent/liblg_missing.so mapped.*cannot be preloaded"))] | length == 2 and all' \
      "$run/run.json" >/dev/null || fail "run.json: $(jq -c '[.tests[] | {name, verdict, failure}]' "$run/run.json")"
    ;;
  stripped)
    profile "$lib" "env -u LD_PRELOAD" >"$work/p.toml"
    gate_run stripped "$work/p.toml"
    [ $rc -eq 1 ] || fail "a run whose wrapper strips LD_PRELOAD exited $rc, expected 1 (failed)"
    jq -e '[.tests[] | .verdict == "fail" and (.failure | test("LD_PRELOAD did not reach it"))] | length == 2 and all' \
      "$run/run.json" >/dev/null || fail "run.json: $(jq -c '[.tests[] | {name, verdict, failure}]' "$run/run.json")"
    ;;
  *) fail "unknown case '$case_name' (detected, missing, stripped)" ;;
esac
echo "ok: $case_name"

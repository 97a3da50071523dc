#!/usr/bin/env bash
# Figure: wall time of a six-node tcp_rr mesh (30 ordered pairs, 1 s + 200 ms
# warm-up each) run with mesh_schedule = "sequential" against "disjoint" (10
# rounds of 3 pairs at once), whole `labgate run -L latency` processes on the
# mesh lab (ci/lab up --mesh 6), interleaved S D S D ... so drift in the shared
# machine's load hits both alike. Prints a Markdown table: every run's wall time,
# the median of each, and the ratio sequential / disjoint (median of the
# pairwise ratios). It judges nothing: the ideal is 3.0 (three pairs at once).
#
#   bench/mesh_rounds.sh [--build DIR] [--repeat N]      (root; default build/ci, 3)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=$src/build/ci repeat=3
while [ $# -gt 0 ]; do
  case $1 in
    --build) build=$(cd "$2" && pwd); shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    *) echo "mesh_rounds: unknown argument '$1' (--build DIR, --repeat N)" >&2; exit 2 ;;
  esac
done
[[ $repeat =~ ^[1-9][0-9]?$ ]] || { echo "mesh_rounds: --repeat must be 1..99" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "mesh_rounds: needs root (the mesh lab)" >&2; exit 2; }
labgate=$build/bin/labgate
[ -x "$labgate" ] || { echo "mesh_rounds: no $labgate; build first" >&2; exit 2; }
"$src/ci/lab" up --mesh 6 >/dev/null

work=$(mktemp -d /var/tmp/labgate-bench-mesh.XXXXXX)
trap 'rm -rf "$work"' EXIT
# The one profile, twice: only mesh_schedule differs (keys made absolute, as the
# copies live outside profiles/).
for s in sequential disjoint; do
  sed -e "s|^mesh_schedule = \"[a-z]*\"|mesh_schedule = \"$s\"|" -e "s|\"\.\./\.lab/|\"$src/.lab/|" \
    "$src/profiles/lab-mesh.toml" >"$work/$s.toml"
  grep -q "^mesh_schedule = \"$s\"" "$work/$s.toml" || { echo "mesh_rounds: no mesh_schedule line to set" >&2; exit 1; }
done

# Wall seconds of one whole gate run; a run that does not measure all 30 pairs is no figure.
one_run() {
  local t0 t1 rc=0
  t0=$(date +%s.%N)
  "$labgate" -q run "$work/$1.toml" -L latency --results "$work/results-$1" >"$work/out" 2>&1 || rc=$?
  t1=$(date +%s.%N)
  if [ "$rc" -gt 1 ] || [ "$(grep -c '^\[       OK \]\|^\[  FAILED  \] Latency' "$work/out")" -lt 30 ]; then
    tail -20 "$work/out" >&2
    echo "mesh_rounds: the $1 run did not measure the mesh (exit $rc)" >&2
    exit 1
  fi
  awk -v a="$t0" -v b="$t1" 'BEGIN {print b - a}'
}

median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2)}'; }

seq_s=() dis_s=() ratios=()
"$labgate" -q run "$work/disjoint.toml" -L latency --results "$work/warmup" >/dev/null 2>&1 || true  # warm caches
for i in $(seq 1 "$repeat"); do
  s=$(one_run sequential)
  d=$(one_run disjoint)
  seq_s+=("$s") dis_s+=("$d") ratios+=("$(awk -v a="$s" -v b="$d" 'BEGIN {print a / b}')")
done

fmt() { printf '%.1f' "$1"; }
echo "#### Six-node tcp_rr mesh (30 pairs, 1 s + 200 ms each): sequential vs disjoint rounds, $repeat runs each"
echo
echo "| schedule | runs (wall s, interleaved) | median wall s |"
echo "|---|---|---|"
row() { local name=$1; shift; local list="" v; for v in "$@"; do list="$list$(fmt "$v") "; done
  echo "| $name | ${list% } | $(fmt "$(printf '%s\n' "$@" | median)") |"; }
row "sequential (30 pairs one after another)" "${seq_s[@]}"
row "disjoint (10 rounds of 3 pairs at once)" "${dis_s[@]}"
printf '| **ratio sequential / disjoint** | %s | **%.2f** (median of pairwise ratios; ideal 3.0) |\n' \
  "$(for r in "${ratios[@]}"; do printf '%.2f ' "$r"; done)" "$(printf '%s\n' "${ratios[@]}" | median)"
echo
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) CPUs"
echo "reproduce: sudo bench/mesh_rounds.sh --build $build --repeat $repeat"

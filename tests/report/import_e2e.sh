#!/usr/bin/env bash
# Imports as results, end to end through the real labgate binary (no lab, no
# root): three recorded netperf TCP_RR outputs of seed 000 imported as three
# runs, each dated by its file's modification time, then `labgate compare`
# (no regression between the first two, max +16.5% in the third) and `labgate
# trend` (page and CSV written, the imported runs marked, in time order).
#   import_e2e.sh BUILD_DIR SOURCE_DIR
set -uo pipefail
build=$1 src=$2
labgate=$build/bin/labgate
fixtures=$src/tests/fixtures/tools
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
export TZ=UTC  # results folders are named in local time

# Saved runs keep their dates as file times; given out of order on purpose.
cp "$fixtures/netperf/000-01.txt" "$work/monday.txt" && touch -d 2019-03-11T10:00:00Z "$work/monday.txt"
cp "$fixtures/netperf/000-02.txt" "$work/tuesday.txt" && touch -d 2019-03-12T10:00:00Z "$work/tuesday.txt"
cp "$fixtures/netperf/000-10.txt" "$work/wednesday.txt" && touch -d 2019-03-13T10:00:00Z "$work/wednesday.txt"
"$labgate" import "$work/wednesday.txt" "$work/monday.txt" "$work/tuesday.txt" \
  --profile "$fixtures/import-profile.toml" --test tcp_rr_64_netperf --results "$work/results" --suffix seed000 \
  >"$work/import.out" 2>"$work/import.err" || { cat "$work/import.out" "$work/import.err"; fail "import exit $?"; }
mon=$work/results/20190311-100000-seed000 tue=$work/results/20190312-100000-seed000
wed=$work/results/20190313-100000-seed000
for d in "$mon" "$tue" "$wed"; do
  for f in run.json junit.xml junit-strict.xml metrics.prom report.html tests/tcp_rr_64_netperf/a-to-b/measurement.json; do
    [ -f "$d/$f" ] || { cat "$work/import.out"; fail "$d/$f not written"; }
  done
  [ "$(jq -r .format "$d/run.json")" = labgate-run-2 ] || fail "$d: run.json format"
  [ "$(jq -r .conforming_why "$d/run.json")" = "imported: no preconditions were checked" ] || fail "$d: conformance why"
  [ "$(jq -r .imported.tool "$d/run.json")" = netperf ] || fail "$d: imported tool"
  jq -r .imported.time_source "$d/run.json" | grep -q "modification time" || fail "$d: time source"
  xmllint --noout --schema "$src/tests/report/junit.xsd" "$d/junit.xml" 2>"$work/xsd.err" ||
    { cat "$work/xsd.err"; fail "$d/junit.xml against junit.xsd"; }
  xmllint --noout --schema "$src/tests/report/junit-strict.xsd" "$d/junit-strict.xml" 2>"$work/xsd.err" ||
    { cat "$work/xsd.err"; fail "$d/junit-strict.xml against junit-strict.xsd"; }
  grep -q "IMPORTED from netperf output" "$d/report.html" || fail "$d: the report's banner does not say imported"
done
[ "$(jq -r .imported.file "$mon/run.json")" = "$work/monday.txt" ] || fail "the file it came from"
[ "$(jq -r .imported.sha256 "$mon/run.json")" = "$(sha256sum "$work/monday.txt" | cut -d' ' -f1)" ] || fail "sha256"
[ "$(jq -r '.tests[0].measurement.parameters.imported_from' "$mon/run.json")" = "$work/monday.txt" ] ||
  fail "measurement.parameters.imported_from"
[ "$(jq -r .start "$tue/run.json")" = 2019-03-12T10:00:00.000Z ] || fail "tuesday's start is its file time"
if command -v promtool >/dev/null; then
  promtool check metrics <"$mon/metrics.prom" >"$work/prom.out" 2>&1 || { cat "$work/prom.out"; fail "promtool"; }
fi

# compare: p99 136 -> 136 us and max 1.096 -> 1.101 ms is none; max 1.096 -> 1.277 ms (+16.5%) is one.
"$labgate" compare "$mon" "$tue" --fail-on-regression 10% --regression-stats p99,max >"$work/c1.out" 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q "verdict: no regression" "$work/c1.out" || { cat "$work/c1.out"; fail "monday->tuesday: exit $rc"; }
grep -q "conformance is not_checked: imported: no preconditions were checked" "$work/c1.out" ||
  { cat "$work/c1.out"; fail "compare does not warn that imported runs were not checked"; }
"$labgate" compare "$mon" "$wed" --fail-on-regression 10% --regression-stats p99,max >"$work/c2.out" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q "verdict: REGRESSION" "$work/c2.out" && grep -Eq 'max +1\.10 ms +1\.28 ms .*\+16\.5% +REGRESSION' "$work/c2.out" ||
  { cat "$work/c2.out"; fail "monday->wednesday: exit $rc, expected a max regression"; }

# trend: the page and the CSV, runs in time order, each marked imported.
"$labgate" trend "$wed" "$mon" "$tue" --out "$work/trend.html" >"$work/trend.out" 2>&1 ||
  { cat "$work/trend.out"; fail "trend"; }
[ -s "$work/trend.html" ] || fail "trend.html not written"
[ "$(grep -o '"imported":true' "$work/trend.html" | wc -l)" -eq 3 ] || fail "trend.html does not mark 3 imported runs"
grep -q "run imported" "$work/trend.html" || fail "trend.html's legend for imported runs"
rows=$(grep '^Latency.tcp_rr_64_netperf/a->b,' "$work/trend.csv" | cut -d, -f2,5 | tr '\n' ' ')
[ "$rows" = "$(basename "$mon"),yes $(basename "$tue"),yes $(basename "$wed"),yes " ] ||
  { cat "$work/trend.csv"; fail "trend.csv rows: '$rows'"; }
echo "ok: 3 imports, 2 compares, 1 trend"

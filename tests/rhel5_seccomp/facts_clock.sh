#!/usr/bin/env bash
# The facts probe's live clock section under the RHEL 5 (2.6.18) system-call
# emulation: adjtimex must answer (clock_adjtime, which musl's adjtimex() may
# use, is 2.6.39+ and would fail with ENOSYS). Its values change run to run
# (maxerror grows while a daemon keeps the clock), so this checks the shape.
# Usage: RHEL5_EXEC=... PROBE_DIR=... facts_clock.sh
set -euo pipefail
: "${RHEL5_EXEC:?RHEL5_EXEC must name tests/rhel5_exec}" "${PROBE_DIR:?PROBE_DIR must name the built probes}"
out=$("$RHEL5_EXEC" "$PROBE_DIR/facts" --sections clock)
for key in synchronized status state maxerror_us esterror_us; do
  if ! tr -d ' \n' <<<"$out" | grep -Eq "\"$key\":\{\"value\":(true|false|[0-9]+),\"source\":\"adjtimex\""; then
    echo "facts_clock: no $key from adjtimex under the RHEL 5 filter:" >&2
    echo "$out" >&2
    exit 1
  fi
done
echo "facts_clock: adjtimex answers under the RHEL 5 filter"

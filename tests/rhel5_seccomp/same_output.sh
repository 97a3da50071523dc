#!/bin/sh
# same_output.sh LAUNCHER PROGRAM [ARGS...]: runs PROGRAM ARGS directly and then
# under LAUNCHER (rhel5_exec); passes when both exit 0 with byte-identical
# stdout. A difference means the program used something RHEL 5 lacks.
set -u
launcher=$1
shift
if [ ! -x "$1" ]; then
  echo "FAIL: $1 is not built (build the probe targets before running ctest)" >&2
  exit 1
fi
dir=$(mktemp -d "${TMPDIR:-/tmp}/rhel5-same.XXXXXX") || exit 2
trap 'rm -rf "$dir"' EXIT
"$@" >"$dir/direct.out" 2>"$dir/direct.err"
direct=$?
"$launcher" "$@" >"$dir/rhel5.out" 2>"$dir/rhel5.err"
rhel5=$?
if [ "$direct" -ne 0 ]; then
  echo "FAIL: $* exits $direct even without the filter:" >&2
  cat "$dir/direct.err" >&2
  exit 1
fi
if [ "$rhel5" -ne 0 ]; then
  echo "FAIL: under the RHEL 5 filter, $* exits $rhel5 (direct: 0):" >&2
  cat "$dir/rhel5.err" >&2
  exit 1
fi
if ! cmp -s "$dir/direct.out" "$dir/rhel5.out"; then
  echo "FAIL: under the RHEL 5 filter, $* prints something else:" >&2
  diff -u "$dir/direct.out" "$dir/rhel5.out" | head -40 >&2
  exit 1
fi
echo "same output with and without the RHEL 5 filter ($(wc -c <"$dir/direct.out") bytes): $*"

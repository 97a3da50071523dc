#!/bin/sh
# The committed fixture roots are exactly what their generator scripts write:
# regenerate into a temporary directory and compare, symlinks by target.
set -eu
src=$1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/h3-fixtures.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
"$src/rhel58/make_roots.sh" "$tmp/rhel58"
"$src/systemd/make_root.sh" "$tmp/systemd"
"$src/rhel/make_roots.sh" "$tmp/rhel"
# git keeps no empty directory, so a fresh clone has none: compare both sides
# without them (the committed side through a copy).
mkdir -p "$tmp/committed"
cp -a "$src/rhel58" "$src/systemd" "$src/rhel" "$tmp/committed/"
find "$tmp" -mindepth 1 -type d -empty -delete
status=0
for d in rhel58/before rhel58/after systemd/root rhel/rhel7 rhel/rhel9; do
  if ! diff -r --no-dereference "$tmp/committed/$d" "$tmp/$d" >"$tmp/diff" 2>&1; then
    echo "FAIL: tests/fixtures/$d differs from what its script writes (rerun the script and commit):" >&2
    head -20 "$tmp/diff" >&2
    status=1
  fi
done
[ $status -eq 0 ] && echo "tests/fixtures: rhel58/before, rhel58/after, systemd/root and rhel/rhel{7,9} match their scripts"
exit $status

#!/usr/bin/env bash
# Lab pair 11 through real sshd: `labgate check` runs the facts probe once per
# host over SSH and judges the lab's interconnect veth ic0 against NIC tuning
# rules. veth answers ETHTOOL_GCHANNELS and the offload ioctls, so those rules
# pass or fail on real values; it answers no coalescing, ring or pause ioctl,
# so those must come out "not checkable" on both hosts, never passed.
# Usage: veth_tuning_test.sh BIN_DIR REPO
set -euo pipefail
bin=$1 repo=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lg-tuning.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
lab=$repo/.lab/pair11
cat >"$tmp/p.toml" <<TOML
[lab]
name = "lab-pair11-tuning"
[defaults.ssh]
user = "root"
identity = "$lab/id_rsa"
known_hosts = "$lab/known_hosts"
connect_timeout = "5s"
command_timeout = "30s"
[hosts.a]
address = "198.18.0.82"
test_address = { ic = "198.19.11.1" }
[hosts.b]
address = "198.18.0.86"
test_address = { ic = "198.19.11.2" }
[preconditions]
same_on_all_hosts = ["interfaces.ic0.channels", "interfaces.ic0.offload"]
[preconditions.interfaces.ic0]
network = "ic"
driver = "veth"
channels = { rx = 1, tx = 1 }
offload = { tso = true, gro = true }
coalesce = { rx_usecs = 0 }
ring = { rx = 4096 }
pause = { rx = false }
numa_node = 0
TOML
set +e
"$bin/labgate" check "$tmp/p.toml" --fix-script "$tmp/fix.sh" >"$tmp/out" 2>&1
rc=$?
set -e
fail() { sed 's/^/  | /' "$tmp/out" >&2; echo "FAIL: $*" >&2; exit 1; }
# "host a" starts a host's table; a line is "rule expected found verdict".
verdict() { awk -v h="host $1" -v r="$2" '/^host /{in_h = ($0 == h)} /^rules across hosts/{in_h = 0}
  in_h && $1 == r {print $NF}' "$tmp/out"; }
# gro is off on a fresh veth: a real value, so a real failure (exit 1).
[ $rc -eq 1 ] || fail "labgate check exited $rc, want 1 (the gro rule fails on veth's real value)"
for h in a b; do
  for rule in channels/rx channels/tx offload/tso network; do
    [ "$(verdict $h interfaces/ic0/$rule)" = pass ] || fail "$h: interfaces/ic0/$rule did not pass"
  done
  [ "$(verdict $h interfaces/ic0/offload/gro)" = fail ] || fail "$h: offload/gro did not fail"
  for rule in coalesce/rx_usecs ring/rx pause/rx numa_node; do
    [ "$(verdict $h interfaces/ic0/$rule)" = not_checkable ] || fail "$h: interfaces/ic0/$rule is not 'not checkable'"
  done
done
grep -Eq "^pair/same/interfaces.ic0.(channels|offload) .* pass$" "$tmp/out" || fail "the pair rules did not pass"
grep -q "ETHTOOL_GCOALESCE ic0: Not supported" "$tmp/out" || fail "the coalesce reason does not name the ioctl's answer"
grep -q "ethtool -K 'ic0' gro on" "$tmp/fix.sh" || fail "the fix script lacks the ethtool -K line"
echo "PASS: veth on lab pair 11 reports channels and offloads; coalesce, ring, pause and numa_node are not checkable"

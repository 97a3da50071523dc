#!/usr/bin/env bash
# A whole labgate gate as a non-root operator (issue 13), on lab pair 14 with its
# accounts (`ci/lab up --pair 14 --accounts`; the ctest fixture brings it up):
# labgate-ops, whose ~/.bashrc prints a banner, with probe_dir and lease_dir the
# directory both hosts mount. `labgate check` with become = "sudo" on both hosts
# is exit 3 naming host b (its sudo wants a password) and the sudoers lines;
# `labgate run` with sudo on a only passes: facts and ping -f through sudo -n on
# a, a command test whose setsid'd grandchild must not survive, nothing left in
# the shared directory or running on either host.
#   accounts_gate.sh BIN_DIR SOURCE_DIR [PAIR [PORT]]
# PAIR defaults to 14, PORT to 22; PORT 2222 on a pair up with --rhel5-sshd runs
# the same gate through RHEL 5's real sshd (OpenSSH 4.3p2, legacy algorithms).
set -uo pipefail
bin=$1 src=$2 pair=${3:-14} port=${4:-22}
state=$src/.lab/pair$pair
fail() { echo "FAIL: $*" >&2; exit 1; }
work=$(mktemp -d /tmp/labgate-accounts.XXXXXX)
trap 'rm -rf "$work"' EXIT
[ -f "$state/accounts" ] || fail "pair $pair has no accounts: ci/lab up --pair $pair --accounts"
base=$(( (pair - 1) * 8 ))
ip_a=198.18.0.$((base + 2)) ip_b=198.18.0.$((base + 6))
legacy=false
[ "$port" = 22 ] || legacy=true

# profiles/lab.toml moved to the pair, as labgate-ops with sudo, short tests.
sed -e "s/\"198\\.18\\.0\\.2\"/\"$ip_a\"/" -e "s/\"198\\.18\\.0\\.6\"/\"$ip_b\"/" \
  -e "s/198\\.19\\.1\\./198.19.$pair./g" -e "s#\"\\.\\./\\.lab/pair1/#\"$state/#g" \
  -e 's/^name = "lab-pair1"/name = "lab-accounts"/' -e 's/^lease_wait = .*/lease_wait = "5s"/' \
  -e 's/^user = "root"/user = "labgate-ops"\nbecome = "sudo"/' \
  -e "s/^port = 22\$/port = $port/" -e "s/^legacy_algorithms = false/legacy_algorithms = $legacy/" \
  -e 's#^probe_dir = "/tmp"#probe_dir = "/var/tmp/labgate-shared"#' \
  "$src/profiles/lab.toml" | sed '/^\[\[test\]\]/,$d' > "$work/both.toml"
grep -q "\"$ip_b\"" "$work/both.toml" && grep -q '^become = "sudo"' "$work/both.toml" &&
  grep -q "^port = $port\$" "$work/both.toml" &&
  ! grep -qE '\.\./\.lab/pair1/|"198\.18\.0\.[26]"|198\.19\.1\.' "$work/both.toml" ||
  fail "could not move profiles/lab.toml to pair $pair port $port: $work/both.toml"
cat >> "$work/both.toml" <<'TOML'
[[test]]
name = "tcp_rr_64"
kind = "tcp_rr"
from = "a"
to = "b"
duration = "2s"
warmup = "0s"
budget = { p50 = "5ms" }   # this test is about the account, not the loaded CI machine's tail

[[test]]
name = "flood"
kind = "ping_flood"
from = "a"
to = "b"
count = 200
size = 64
budget = { max_loss = "0%" }

[[test]]
name = "setsid_cmd"
kind = "command"
on = "b"
argv = ["sh", "-c", "setsid sleep 303 & exec sleep 0.1"]
count = 1
timeout = "5s"
budget = { max = "5s" }
TOML
# Host b's sudo asks for a password: without sudo there, its facts are read as
# the operator (what needs root is then "not checkable").
sed "s/^test_address = \"198.19.$pair.2\".*/&\nbecome = \"none\"/" "$work/both.toml" > "$work/a-only.toml"
grep -q '^become = "none"' "$work/a-only.toml" || fail "could not take sudo off host b: $work/a-only.toml"

cd "$work"
out=$("$bin/labgate" check both.toml 2>&1); rc=$?
[ $rc -eq 3 ] || fail "check with password sudo on b: exit $rc, not 3: $out"
for want in "host b: \`/var/tmp/labgate-shared/labgate-lab-accounts.hk-" "sudo wants a password" \
  "labgate-ops ALL=(root) NOPASSWD: /var/tmp/labgate-shared/labgate-*/facts" "Defaults:labgate-ops !requiretty"; do
  grep -qF -- "$want" <<<"$out" || fail "check's error lacks '$want': $out"
done
grep -q "Authorized use only" <<<"$(grep -v 'login shell of labgate-ops prints' <<<"$out")" &&
  fail "the login banner leaked into labgate's output: $out"

out=$("$bin/labgate" run a-only.toml --suffix accounts 2>&1); rc=$?
[ $rc -eq 0 ] || fail "run as labgate-ops: exit $rc: $out"
# labgate run is one process: the rules and the three measurements in one gtest run.
[ "$(grep -cE '^\[       OK \] (Latency|Network|Command)\.' <<<"$out")" -eq 3 ] || fail "not every test ran: $out"
ping_out=$(cat results/*-accounts/tests/flood/a-to-b/ping.out)
grep -q "200 received" <<<"$ping_out" || fail "ping -f (root through sudo -n) did not flood: $ping_out"

# Nothing left: the shared directory holds only the probe caches (kept between
# runs on purpose, issue 23: one per host and user, 0700, labgate-ops's own,
# each file a whole probe named by its own SHA-256), no probe or sleep runs on a host.
ops_uid=$(stat -c %u "$state/shared")  # the shared directory is labgate-ops's (ci/lab)
left=
for f in "$state/shared"/* "$state/shared"/.[!.]*; do
  [ -e "$f" ] || [ -L "$f" ] || continue
  name=${f##*/}
  if [[ $name == labgate-probe-cache.hk-*-u$ops_uid ]] && [ -d "$f" ] && [ ! -L "$f" ]; then
    [ "$(stat -c '%u %a' "$f")" = "$ops_uid 700" ] || left+=" $name (owner and mode $(stat -c '%u %a' "$f"), not $ops_uid 700)"
    for c in "$f"/* "$f"/.[!.]*; do
      [ -e "$c" ] || [ -L "$c" ] || continue
      if [[ ${c##*/} =~ ^[a-z_]+\.([0-9a-f]{64})$ ]] && [ -f "$c" ] && [ ! -L "$c" ] &&
        [ "$(sha256sum < "$c" | cut -c1-64)" = "${BASH_REMATCH[1]}" ]; then
        continue
      fi
      left+=" $name/${c##*/}"
    done
    continue
  fi
  left+=" $name"
done
[ -z "$left" ] || fail "left in the shared probe_dir:$left"
for h in a b; do
  for pid in $(ip netns pids "lg$pair-$h"); do
    cmd=$(tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null)
    case $cmd in *sshd*|'') ;; *) fail "left running on $h: $cmd" ;; esac
  done
done
echo "ok: a gate as labgate-ops on pair $pair port $port (banner, sudo -n on a, password sudo refused on b, shared probe_dir)"

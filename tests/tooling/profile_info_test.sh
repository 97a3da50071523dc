#!/usr/bin/env bash
# labgate profile-info and everything that reads a profile through it.
#   profile_info_test.sh BUILD_DIR SOURCE_DIR
set -uo pipefail
build=$1 src=$2
labgate=$build/bin/labgate
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# 1. The JSON, from the real parser: lab, hosts, tests with label and suite.
"$labgate" profile-info "$src/profiles/lab.toml" >"$work/lab.json" || fail "profile-info profiles/lab.toml"
[ "$(jq -r .lab "$work/lab.json")" = lab-pair1 ] || fail "lab name"
[ "$(jq -r .builtin_lab_pair "$work/lab.json")" = 1 ] || fail "profiles/lab.toml is lab pair 1"
[ "$(jq -r '.hosts[1].address' "$work/lab.json")" = 198.18.0.6 ] || fail "host b's address"
[ "$(jq -r '.tests[] | select(.name == "timer_jitter") | .label + "/" + .suite' "$work/lab.json")" = jitter/Jitter ] ||
  fail "timer_jitter's label and suite"
[ "$(jq '.tests | length' "$work/lab.json")" = "$("$labgate" list-tests "$src/profiles/lab.toml" | wc -l)" ] ||
  fail "profile-info and list-tests disagree on the tests"
"$labgate" profile-info "$src/profiles/example-rhel58-pair.toml" >"$work/seed.json" || fail "the seed profile"
[ "$(jq -r .builtin_lab_pair "$work/seed.json")" = null ] || fail "a real pair is not the built-in lab"

# A comment that looks like a lab name (the old CMake regex locked "pair-7").
sed 's|^\[lab\]$|# copied from: name = "pair-7"\n[lab]|; s|^name = "lab-pair1"|name = "trick-lab"|' \
  "$src/profiles/lab.toml" >"$work/copy.toml"
grep -q '# copied from: name = "pair-7"' "$work/copy.toml" || fail "test set-up: the comment was not written"
[ "$("$labgate" profile-info "$work/copy.toml" | jq -r .lab)" = trick-lab ] || fail "a comment was read as the lab"
# An invalid profile: exit 2 with file:line:column.
printf '[lab]\nname = 3\n' >"$work/bad.toml"
"$labgate" profile-info "$work/bad.toml" >/dev/null 2>"$work/bad.err"
[ $? -eq 2 ] && grep -q "bad.toml:2:" "$work/bad.err" || { cat "$work/bad.err"; fail "invalid profile not exit 2 with its line"; }

# 2. CTest: the README's commands as written, from the source directory.
show() { ctest --show-only=json-v1 "$@" 2>"$work/ctest.err" | jq -r '.tests[].name' | sort; }
names=$(cd "$src" && LABGATE_PROFILE=profiles/lab.toml show --preset gate)
for t in gate.lab_up gate.setup gate.preconditions gate.latency.tcp_rr_64 gate.jitter.timer_jitter gate.finish; do
  grep -qx "$t" <<<"$names" || { cat "$work/ctest.err"; echo "$names"; fail "README: ctest --preset gate lacks $t"; }
done
grep -qx gate.profile <<<"$names" && fail "a relative LABGATE_PROFILE was read against the build directory"
latency=$(cd "$src" && LABGATE_PROFILE=profiles/lab.toml ctest --preset gate -N -L latency | grep -o 'gate\.[a-z_]*\.[A-Za-z0-9_]*' | sort -u)
grep -qx gate.latency.tcp_rr_64 <<<"$latency" || fail "README: -L latency lacks gate.latency.tcp_rr_64"
grep -v '^gate\.latency\.' <<<"$latency" | grep -q . && fail "README: -L latency selects other tests: $latency"
# Relative to wherever ctest was started, here with --test-dir.
names=$(cd "$src/profiles" && LABGATE_PROFILE=lab.toml show --test-dir ../build/ci -L gate)
grep -qx gate.latency.tcp_rr_64 <<<"$names" || fail "LABGATE_PROFILE=lab.toml from profiles/ not found"
# The lock is the lab the parser read, never the comment's.
lock=$(cd "$work" && LABGATE_PROFILE=copy.toml ctest --test-dir "$build" --show-only=json-v1 -R '^gate\.preconditions$' |
       jq -r '.tests[0].properties[] | select(.name == "RESOURCE_LOCK") | .value[]')
[ "$lock" = trick-lab ] || fail "RESOURCE_LOCK is '$lock', not the profile's lab trick-lab"
# The copy is not this checkout's lab pair: nothing brings a lab up for it.
names=$(cd "$work" && LABGATE_PROFILE=copy.toml show --test-dir "$build" -L gate)
grep -qx gate.lab_up <<<"$names" && fail "a profile outside the lab brings the lab up"
# A missing relative profile: one failing gate.profile test naming the full path.
names=$(cd "$work" && LABGATE_PROFILE=nope.toml show --test-dir "$build" -L gate)
[ "$names" = gate.profile ] || fail "a missing profile is not the one gate.profile test"
(cd "$work" && LABGATE_PROFILE=nope.toml ctest --test-dir "$build" -R '^gate\.profile$' --output-on-failure) \
  >"$work/missing.out" 2>&1
grep -q "$work/nope.toml" "$work/missing.out" || { cat "$work/missing.out"; fail "gate.profile does not name $work/nope.toml"; }

# 3. ci/pool and the Jenkinsfile read profiles only through profile-info.
LABGATE="$labgate" bash "$src/ci/pool" lab "$work/pool" 6 >/dev/null || fail "ci/pool lab"
"$labgate" profile-info "$work/pool/pair6.toml" >"$work/pair6.json" || fail "ci/pool wrote an invalid profile"
[ "$(jq -r '.lab + " " + (.builtin_lab_pair|tostring) + " " + .hosts[0].address + " " + .hosts[1].test_address' \
     "$work/pair6.json")" = "lab-pair6 6 198.18.0.42 198.19.6.2" ] || { cat "$work/pair6.json"; fail "pair6.toml"; }
grep -Eq '(^|[^a-z_-])(sed|awk)([^a-z_-]|$)' "$src/ci/pool" && fail "ci/pool still edits or reads text with sed/awk"
grep -q 'profile-derive' "$src/ci/pool" || fail "ci/pool does not write pair profiles with profile-derive"
# pair6.toml is the template with exactly pair 6's values set, every comment kept.
[ "$(grep -c '#' "$src/profiles/lab.toml")" = "$(grep -c '#' "$work/pool/pair6.toml")" ] ||
  fail "ci/pool lost the template's comments"
[ "$(diff "$src/profiles/lab.toml" "$work/pool/pair6.toml" | grep -c '^>')" = 7 ] ||
  { diff "$src/profiles/lab.toml" "$work/pool/pair6.toml"; fail "pair6.toml differs from the template beyond 7 lines"; }

# profile-derive: an invalid result or a relative path that would move is not written.
"$labgate" profile-derive "$src/profiles/lab.toml" --set defaults.ssh.port=0 --set lab.name=x \
  --set defaults.ssh.identity=/k --set defaults.ssh.known_hosts=/h --out "$work/d1.toml" 2>"$work/d1.err"
rc=$?
# The error names the derived file's line: the one lab.toml's [defaults.ssh] port is on.
port_line=$(grep -n '^port = ' "$src/profiles/lab.toml" | head -1 | cut -d: -f1)
[ $rc -eq 2 ] && [ ! -e "$work/d1.toml" ] && grep -q "d1.toml:$port_line:8: defaults.ssh.port: 0 is out of range" "$work/d1.err" ||
  { cat "$work/d1.err"; fail "profile-derive wrote an invalid profile"; }
"$labgate" profile-derive "$src/profiles/lab.toml" --set lab.name=x --out "$work/d2.toml" 2>"$work/d2.err"
[ $? -eq 2 ] && [ ! -e "$work/d2.toml" ] && grep -q "host a's identity is .*/.lab/pair1/id_rsa in" "$work/d2.err" ||
  { cat "$work/d2.err"; fail "profile-derive moved a relative key path silently"; }
grep -q 'awk' "$src/ci/Jenkinsfile" && fail "the Jenkinsfile still reads TOML with awk"
grep -q 'profile-info' "$src/ci/Jenkinsfile" || fail "the Jenkinsfile does not use profile-info"
echo "ok: profile-info, the CTest wiring, ci/pool and the Jenkinsfile"

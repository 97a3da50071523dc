#!/usr/bin/env bash
# The remote run directory is private, unpredictable and never followed through
# a symlink planted by another user. Before a whole `labgate run` on lab pair 9,
# user `nobody` plants in each host's /tmp (the probe_dir): symlinks with the
# run directories' own prefix (to a directory of its own and to /etc), and a
# directory of its own with that prefix holding a `pgids` file naming pid 1.
# During the run, a `nobody` process keeps trying to rename every new run
# directory away, plant a symlink in its place and write into it. Then:
#  - the run passes, its directories were 0700 with a 16-hex-digit random name;
#  - nothing was written through any planted link, nothing of nobody's removed;
#  - nobody's attempts all failed and nothing of the run is left behind;
#  - a probe_dir that is nobody's symlink, or a directory nobody owns (who
#    could then swap the run's directory), is refused by name (exit 3).
source "$(dirname "$0")/lib.sh"

prefix=labgate-$LAB_NAME.
hex() { od -An -tx1 -N8 /dev/urandom | tr -d ' \n'; }
# as_nobody_on H CMD...: CMD as user nobody on lab host H, seeing the host's
# own /tmp (inside the mount namespace of its sshd, as a local user would).
as_nobody_on() {
  local h=$1
  shift
  nsenter -t "$(cat "$STATE/sshd-$h-22.pid")" -m -n setpriv --reuid=nobody --regid=nogroup --clear-groups -- "$@"
}

# The attacker: as nobody, over and over until /tmp/lgsec-attack/stop appears,
# for every run directory it sees: rename it away (to put a symlink of its own
# in its place) and create a file inside. It logs what it saw, and anything
# that worked.
cat >"$work/attack.sh" <<'EOF'
prefix=$1 log=/tmp/lgsec-attack/log
while [ ! -e /tmp/lgsec-attack/stop ]; do
  for d in "/tmp/$prefix"*; do
    [ -d "$d" ] && [ ! -h "$d" ] || continue
    m=$(stat -c '%U %a' "$d" 2>/dev/null) || continue # gone meanwhile
    case $m in "root "*) echo "seen $d ${m#root }" >> "$log" ;; *) continue ;; esac
    mv -T "$d" "$d.moved" 2>/dev/null && echo "MOVED $d" >> "$log"
    touch "$d/intruder" 2>/dev/null && echo "WROTE $d" >> "$log"
  done
  sleep 0.02
done
EOF

# plant H: nobody's traps in host H's /tmp, and its attacker in /tmp/lgsec-attack.
plant() {
  local h=$1 t
  if [ "$h" = a ]; then t=$TMP_A; else t=$TMP_B; fi
  on_exit "rm -rf '$t/lgsec-bait' '$t/lgsec-attack' '$t/$prefix'*"
  as_nobody_on "$h" sh -c '
    mkdir /tmp/lgsec-bait /tmp/lgsec-attack && echo bait > /tmp/lgsec-bait/keep || exit 1
    for l in "$2" "$3" "$4"; do ln -s /tmp/lgsec-bait "/tmp/$1$l" || exit 1; done
    ln -s /etc "/tmp/$1$5" && mkdir "/tmp/$1$6" &&
      echo 1 > "/tmp/$1$6/pgids" && echo mine > "/tmp/$1$6/keep"' sh \
    "$prefix" "$(hex)" "$(hex)" "$(hex)" "$(hex)" "$(hex)" || fail "nobody could not plant its traps on $h"
  cp "$work/attack.sh" "$t/lgsec-attack/attack.sh"
  chmod 755 "$t/lgsec-attack/attack.sh"
}
plant a
plant b
snapshot() { (cd "$1" && find . -path ./lgsec-attack -prune -o -printf '%p %U %m %y %l\n' | sort); }
snapshot "$TMP_A" >"$work/before-a"
snapshot "$TMP_B" >"$work/before-b"
etc_before=$(ls -la /etc | md5sum)
as_nobody_on a bash /tmp/lgsec-attack/attack.sh "$prefix" &
att_a=$!
as_nobody_on b bash /tmp/lgsec-attack/attack.sh "$prefix" &
att_b=$!
stop_attack() {
  touch "$TMP_A/lgsec-attack/stop" "$TMP_B/lgsec-attack/stop"
  wait $att_a $att_b 2>/dev/null
}
on_exit stop_attack

profile=$work/p.toml
make_profile "$profile"
note "a whole run with planted links and an attacker in probe_dir"
timeout 300 "$bin/labgate" run "$profile" --suffix rundir --results "$work/results" >"$work/out" 2>&1
rc=$?
stop_attack
[ $rc -eq 0 ] || { tail -30 "$work/out"; fail "labgate run exited $rc, expected 0"; }

for h in a b; do
  if [ $h = a ]; then log=$TMP_A/lgsec-attack/log; else log=$TMP_B/lgsec-attack/log; fi
  [ -f "$log" ] || fail "the attacker on $h left no log: it never saw a run directory"
  grep -q '^seen ' "$log" || fail "the attacker on $h never saw a run directory (the test proves nothing)"
  ! grep -qE '^(MOVED|WROTE) ' "$log" || { cat "$log"; fail "the attacker on $h got through"; }
  # Every run directory it saw was 0700 and carried its host's tag (hk- and 16
  # hex digits of the host key's SHA-256) and 16 random hex digits.
  awk '$1 == "seen" {print $2, $3}' "$log" | sort -u | while read -r d mode; do
    [ "$mode" = 700 ] || fail "run directory $d had mode $mode, not 700"
    [[ ${d##*/} =~ ^${prefix//./\\.}hk-[0-9a-f]{16}\.[0-9a-f]{16}$ ]] ||
      fail "run directory name ${d##*/} is not prefix + host tag + 16 hex digits"
  done || exit 1
done
# Distinct names on the two hosts (one random draw each).
a_dirs=$(awk '$1 == "seen" {print $2}' "$TMP_A/lgsec-attack/log" | xargs -rn1 basename | sort -u)
b_dirs=$(awk '$1 == "seen" {print $2}' "$TMP_B/lgsec-attack/log" | xargs -rn1 basename | sort -u)
[ -z "$(comm -12 <(echo "$a_dirs") <(echo "$b_dirs"))" ] || fail "both hosts got the same run directory name"

snapshot "$TMP_A" >"$work/after-a"
snapshot "$TMP_B" >"$work/after-b"
diff "$work/before-a" "$work/after-a" >&2 || fail "host a's /tmp changed: a planted thing was followed, removed or left over"
diff "$work/before-b" "$work/after-b" >&2 || fail "host b's /tmp changed: a planted thing was followed, removed or left over"
[ "$(ls -la /etc | md5sum)" = "$etc_before" ] || fail "/etc changed during the run"

note "a probe_dir that is nobody's symlink is refused"
as_nobody_on a ln -s /tmp/lgsec-bait /tmp/lgsec-link
as_nobody_on b ln -s /tmp/lgsec-bait /tmp/lgsec-link
on_exit "rm -f '$TMP_A/lgsec-link' '$TMP_B/lgsec-link'"
set_key "$profile" probe_dir '"/tmp/lgsec-link"'
timeout 120 "$bin/labgate" check "$profile" >"$work/out" 2>&1
rc=$?
[ $rc -eq 3 ] || { cat "$work/out"; fail "symlinked probe_dir: exit $rc, expected 3"; }
grep -q "probe_dir /tmp/lgsec-link is a symlink" "$work/out" ||
  { cat "$work/out"; fail "the refusal does not name the symlinked probe_dir"; }
[ "$(ls -A "$TMP_A/lgsec-bait")" = keep ] || fail "something was written through the symlinked probe_dir"

note "a probe_dir owned by another user is refused"
as_nobody_on a mkdir -m 0755 /tmp/lgsec-nobody
as_nobody_on b mkdir -m 0755 /tmp/lgsec-nobody
on_exit "rm -rf '$TMP_A/lgsec-nobody' '$TMP_B/lgsec-nobody'"
set_key "$profile" probe_dir '"/tmp/lgsec-nobody"'
timeout 120 "$bin/labgate" check "$profile" >"$work/out" 2>&1
rc=$?
[ $rc -eq 3 ] || { cat "$work/out"; fail "nobody's probe_dir: exit $rc, expected 3"; }
grep -q "probe_dir /tmp/lgsec-nobody is owned by uid $(id -u nobody)" "$work/out" ||
  { cat "$work/out"; fail "the refusal does not name the probe_dir and its owner"; }
[ -z "$(find "$TMP_A/lgsec-nobody" "$TMP_B/lgsec-nobody" -mindepth 1)" ] || fail "something was left in nobody's probe_dir"
echo "ok: run_dir"

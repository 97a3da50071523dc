#!/usr/bin/env bash
# The remote run directory is private, unpredictable and never followed through
# a symlink planted by another user. Before a whole `labgate run` on lab pair 9,
# user `nobody` plants in each host's /tmp (the probe_dir), named exactly as
# that host's run directories are (labgate-LAB.hk-TAG.RANDOM, TAG the host's
# own, from `labgate keyscan`), so the run's sweep of leftovers meets them:
# symlinks (to a directory of its own and to /etc), and a directory of its own
# holding a `pgids` file naming pid 1.
# During the run, a `nobody` process keeps trying to rename every new run
# directory away, plant a symlink in its place and write into it. Then:
#  - the run passes, its directories were 0700 with a 16-hex-digit random name;
#  - nothing was written through any planted link, nothing of nobody's removed,
#    and the sweep reported none of them as a leftover it removed;
#  - nobody's attempts all failed and nothing of the run is left behind;
#  - a probe_dir that is nobody's symlink, or a directory nobody owns (who
#    could then swap the run's directory), is refused by name (exit 3).
source "$(dirname "$0")/lib.sh"
# shellcheck source=../faults/host_tag.sh
source "$src/tests/faults/host_tag.sh"

profile=$work/p.toml
make_profile "$profile"
prefix=labgate-$LAB_NAME.
# Each host's run directories are $prefix$tag.<16 hex>: the traps carry the same.
declare -A tag
for h in a b; do
  tag[$h]=$(host_tag_of "$bin/labgate" "$profile" $h) && [[ ${tag[$h]} =~ ^hk-[0-9a-f]{16}$ ]] ||
    fail "no host tag for $h from labgate keyscan (got '${tag[$h]:-}')"
done
[ "${tag[a]}" != "${tag[b]}" ] || fail "hosts a and b have one tag (${tag[a]})"
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
  local h=$1 t p=$prefix${tag[$1]}. n names=()
  if [ "$h" = a ]; then t=$TMP_A; else t=$TMP_B; fi
  for n in 1 2 3 4 5; do names+=("$(hex)"); done
  printf "/tmp/$p%s\n" "${names[@]}" >>"$work/traps"
  on_exit "rm -rf '$t/lgsec-bait' '$t/lgsec-attack' '$t/$prefix'*"
  as_nobody_on "$h" sh -c '
    mkdir /tmp/lgsec-bait /tmp/lgsec-attack && echo bait > /tmp/lgsec-bait/keep || exit 1
    for l in "$2" "$3" "$4"; do ln -s /tmp/lgsec-bait "/tmp/$1$l" || exit 1; done
    ln -s /etc "/tmp/$1$5" && mkdir "/tmp/$1$6" &&
      echo 1 > "/tmp/$1$6/pgids" && echo mine > "/tmp/$1$6/keep"' sh \
    "$p" "${names[@]}" || fail "nobody could not plant its traps on $h"
  cp "$work/attack.sh" "$t/lgsec-attack/attack.sh"
  chmod 755 "$t/lgsec-attack/attack.sh"
}
plant a
plant b
# The probe cache (labgate-probe-cache.TAG-uUID) is kept between runs on
# purpose (issue 23): checked on its own below, not in the snapshot.
snapshot() {
  (cd "$1" && find . -path ./lgsec-attack -prune -o -path './labgate-probe-cache.*' -prune -o \
    -printf '%p %U %m %y %l\n' | sort)
}
snapshot "$TMP_A" >"$work/before-a"
snapshot "$TMP_B" >"$work/before-b"
# /etc's names, not its listing: CI runs this beside other lab checks (label
# `concurrent`), and their useradd or sudoers edits change /etc's sizes and times.
# What this run could do through the planted /etc link is add names (its run
# directory's files); a shadow tool's backup or lock file (passwd-, .pwd.lock) is not that.
etc_names() { ls -A /etc | grep -vE '(-|\.lock|\+)$' | sort; }
etc_before=$(etc_names)
as_nobody_on a bash /tmp/lgsec-attack/attack.sh "$prefix" &
att_a=$!
as_nobody_on b bash /tmp/lgsec-attack/attack.sh "$prefix" &
att_b=$!
stop_attack() {
  touch "$TMP_A/lgsec-attack/stop" "$TMP_B/lgsec-attack/stop"
  wait $att_a $att_b 2>/dev/null
}
on_exit stop_attack

note "a whole run with planted links and an attacker in probe_dir"
timeout 300 "$bin/labgate" run "$profile" --suffix rundir --results "$work/results" >"$work/out" 2>&1
rc=$?
stop_attack
[ $rc -eq 0 ] || { tail -30 "$work/out"; fail "labgate run exited $rc, expected 0"; }
# The sweep met every trap (they carry the run directories' prefix and tag) and
# took none of them for a leftover of its own.
! grep 'removed .* left behind' "$work/out" | grep -F -f "$work/traps" ||
  fail "the run's sweep reported a planted link or nobody's directory as its own leftover"

for h in a b; do
  if [ $h = a ]; then log=$TMP_A/lgsec-attack/log; else log=$TMP_B/lgsec-attack/log; fi
  [ -f "$log" ] || fail "the attacker on $h left no log: it never saw a run directory"
  grep -q '^seen ' "$log" || fail "the attacker on $h never saw a run directory (the test proves nothing)"
  ! grep -qE '^(MOVED|WROTE) ' "$log" || { cat "$log"; fail "the attacker on $h got through"; }
  # Every run directory it saw was 0700 and named as the traps are: the prefix,
  # this host's own tag (hk- and 16 hex digits of its host key's SHA-256), and 16
  # random hex digits. A change of naming fails here: the traps must follow it.
  awk '$1 == "seen" {print $2, $3}' "$log" | sort -u | while read -r d mode; do
    [ "$mode" = 700 ] || fail "run directory $d had mode $mode, not 700"
    [[ ${d##*/} =~ ^${prefix//./\\.}${tag[$h]}\.[0-9a-f]{16}$ ]] ||
      fail "run directory name ${d##*/} on $h is not $prefix${tag[$h]}. + 16 hex digits (the traps' form)"
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
for c in "$TMP_A"/labgate-probe-cache.* "$TMP_B"/labgate-probe-cache.*; do
  [ -e "$c" ] || [ -L "$c" ] || continue
  [ -d "$c" ] && [ ! -L "$c" ] && [ "$(stat -c '%u %a' "$c")" = "${c##*-u} 700" ] ||
    fail "the probe cache $c is not its user's private directory: $(stat -c '%u %a %F' "$c")"
  bad=$(ls -A "$c" | grep -Ev '^[a-z_]+\.[0-9a-f]{64}$')
  [ -z "$bad" ] || fail "the probe cache $c holds more than whole copies: $bad"
done
etc_new=$(comm -13 <(echo "$etc_before") <(etc_names))
[ -z "$etc_new" ] || fail "/etc gained $(echo $etc_new) during the run: written through the planted link?"

note "a probe_dir that is nobody's symlink is refused"
as_nobody_on a ln -s /tmp/lgsec-bait /tmp/lgsec-link
as_nobody_on b ln -s /tmp/lgsec-bait /tmp/lgsec-link
on_exit "rm -f '$TMP_A/lgsec-link' '$TMP_B/lgsec-link'"
set_key "$profile" probe_dir '"/tmp/lgsec-link"'
timeout 120 "$bin/labgate" check "$profile" >"$work/out" 2>&1
rc=$?
[ $rc -eq 3 ] || { cat "$work/out"; fail "symlinked probe_dir: exit $rc, expected 3"; }
grep -qE "probe_dir\)? /tmp/lgsec-link:? is a symlink" "$work/out" ||
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

#!/usr/bin/env bash
# Host keys are always verified, through the real binary on lab pair 9:
#  - an unknown key is refused (exit 3, the message names the host);
#  - accept_new_host_keys = true accepts a FIRST key only: a loud warning names
#    the host and the fingerprint, the key is recorded in known_hosts and is
#    what the next run (without the option) trusts;
#  - a CHANGED key is refused even with accept_new_host_keys = true, and
#    known_hosts is left as it was;
#  - no profile key turns verification off (StrictHostKeyChecking-like names
#    are unknown keys, exit 2).
source "$(dirname "$0")/lib.sh"

profile=$work/p.toml
make_profile "$profile"
run_check() { timeout 120 "$bin/labgate" check "$profile" >"$work/out" 2>&1; }

note "unknown host key, no accept_new_host_keys: refused"
: >"$work/empty_known_hosts"
set_key "$profile" known_hosts "\"$work/empty_known_hosts\""
run_check
rc=$?
[ $rc -eq 3 ] || { cat "$work/out"; fail "unknown key: exit $rc, expected 3"; }
grep -q "host a (root@$MGMT_A:22): unknown host key" "$work/out" ||
  { cat "$work/out"; fail "the refusal does not name host a and say unknown host key"; }
[ ! -s "$work/empty_known_hosts" ] || fail "a refused key was written to known_hosts"

note "accept_new_host_keys = true on first contact: accepted loudly and recorded"
: >"$work/new_known_hosts"
set_key "$profile" known_hosts "\"$work/new_known_hosts\""
set_key "$profile" accept_new_host_keys true
run_check
rc=$?
[ $rc -eq 0 ] || { cat "$work/out"; fail "first contact with accept_new_host_keys: exit $rc, expected 0"; }
for h in a b; do
  if [ $h = a ]; then ip=$MGMT_A; else ip=$MGMT_B; fi
  line=$(grep "host $h (root@$ip:22): ACCEPTED NEW HOST KEY" "$work/out") ||
    { cat "$work/out"; fail "no ACCEPTED NEW HOST KEY warning naming host $h"; }
  grep -q '^warning: ' <<<"$line" || fail "the acceptance is not a warning: $line"
  fp=$(grep -o 'SHA256:[A-Za-z0-9+/]\{43\}' <<<"$line") || fail "the warning gives no fingerprint: $line"
  # The fingerprint is the host's real key, and that key is what was recorded.
  match=
  for t in ed25519 ecdsa rsa; do
    if ssh-keygen -lf "$STATE/host-$h-$t.pub" | grep -qF "$fp"; then match=$t; fi
  done
  [ -n "$match" ] || fail "fingerprint $fp in the warning is none of host $h's keys"
  blob=$(cut -d' ' -f2 "$STATE/host-$h-$match.pub")
  grep -q "^$ip .* $blob\$" "$work/new_known_hosts" ||
    { cat "$work/new_known_hosts"; fail "host $h's $match key was not recorded for $ip"; }
done

note "the recorded keys are trusted without the option, and nothing is accepted again"
cp "$work/new_known_hosts" "$work/recorded"
set_key "$profile" accept_new_host_keys false
run_check
rc=$?
[ $rc -eq 0 ] || { cat "$work/out"; fail "recorded keys: exit $rc, expected 0"; }
! grep -q "ACCEPTED NEW HOST KEY" "$work/out" || fail "a known key was accepted again"
cmp -s "$work/recorded" "$work/new_known_hosts" || fail "known_hosts changed on a run with known keys"

note "a CHANGED key is refused even with accept_new_host_keys = true"
ssh-keygen -q -t ed25519 -N '' -f "$work/impostor"
for t in ed25519 ecdsa rsa; do
  ssh-keygen -q -t $t -N '' -f "$work/other-$t"
  echo "$MGMT_A $(cut -d' ' -f1,2 "$work/other-$t.pub")"
done >"$work/changed_known_hosts"
grep "^$MGMT_B " "$work/recorded" >>"$work/changed_known_hosts"
cp "$work/changed_known_hosts" "$work/changed_before"
set_key "$profile" known_hosts "\"$work/changed_known_hosts\""
set_key "$profile" accept_new_host_keys true
run_check
rc=$?
[ $rc -eq 3 ] || { cat "$work/out"; fail "changed key with accept_new_host_keys: exit $rc, expected 3"; }
grep -q "host a (root@$MGMT_A:22): HOST KEY CHANGED" "$work/out" ||
  { cat "$work/out"; fail "the refusal does not name host a and say HOST KEY CHANGED"; }
! grep -q "ACCEPTED NEW HOST KEY.*$MGMT_A" "$work/out" || fail "a changed key was accepted"
cmp -s "$work/changed_before" "$work/changed_known_hosts" || fail "known_hosts was modified after a changed key"

note "no profile key turns host key checking off"
for key in 'StrictHostKeyChecking = "no"' 'strict_host_key_checking = false' 'verify_host_keys = false' \
  'known_hosts = "/dev/null"'; do
  make_profile "$profile"
  sed -i "s#^known_hosts = .*#$key#" "$profile"
  run_check
  rc=$?
  case $key in
    known_hosts*) # An empty known_hosts vouches for nobody: refused like an unknown key.
      [ $rc -eq 3 ] && grep -q "unknown host key" "$work/out" ||
        { cat "$work/out"; fail "known_hosts = /dev/null: exit $rc, expected 3 (unknown host key)"; } ;;
    *)
      [ $rc -eq 2 ] && grep -q "${key%% *}" "$work/out" ||
        { cat "$work/out"; fail "'$key' in [defaults.ssh]: exit $rc, expected 2 naming the key"; } ;;
  esac
done
echo "ok: host_keys"

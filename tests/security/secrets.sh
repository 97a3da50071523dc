#!/usr/bin/env bash
# No secret in a profile, a log, the results folder, the JUnit XML or the report.
# The lab's passphrase-protected key is loaded into a fresh ssh-agent and a whole
# `labgate run` logs in through it (the profile names the encrypted identity and
# no passphrase); a second run decrypts the same key with the passphrase from
# passphrase_env. Everything each run left (results folder: log, junit.xml,
# report.html, run.json, profile copy, facts, raw probe outputs; and the console)
# is searched for the passphrase, the agent's socket path and the private key
# material, encrypted and decrypted: any hit fails. A profile that holds a
# passphrase itself is refused without echoing it.
source "$(dirname "$0")/lib.sh"

pass=$(cat "$STATE/passphrase")
[ ${#pass} -ge 12 ] || fail "$STATE/passphrase is too short to search for"
key=$STATE/id_rsa_pass

# The agent's socket lives in a directory with a random name, so finding that
# name anywhere in the output is a leak and not a coincidence.
agent_dir=$(mktemp -d "$work/agent.XXXXXXXXXX")
sock=$agent_dir/s
ssh-agent -D -a "$sock" >/dev/null 2>&1 &
agent_pid=$!
on_exit "kill $agent_pid"
for _ in $(seq 50); do [ -S "$sock" ] && break; sleep 0.1; done
[ -S "$sock" ] || fail "ssh-agent did not create $sock"
# ssh-add asks for the passphrase through SSH_ASKPASS; the helper reads it from
# the lab's file, so the passphrase is in no command line.
printf '#!/bin/sh\ncat %s\n' "$STATE/passphrase" >"$work/askpass"
chmod 700 "$work/askpass"
SSH_AUTH_SOCK=$sock SSH_ASKPASS=$work/askpass SSH_ASKPASS_REQUIRE=force DISPLAY=none \
  setsid ssh-add -q "$key" </dev/null >/dev/null 2>&1 || fail "ssh-add of $key failed"
SSH_AUTH_SOCK=$sock ssh-add -l | grep -q labgate-lab-pass || fail "the agent does not hold the key"

# What must never appear: the passphrase, the socket path and its random
# directory name, and lines of the private key, as stored and decrypted.
patterns=$work/patterns
{
  echo "$pass"
  echo "$sock"
  basename "$agent_dir"
  grep -v -- '-----' "$key" | awk 'length($0) >= 40'
  cp "$key" "$work/plain" && ssh-keygen -q -p -P "$pass" -N '' -f "$work/plain" >/dev/null
  grep -v -- '-----' "$work/plain" | awk 'length($0) >= 40'
  rm -f "$work/plain"
} >"$patterns"
[ "$(wc -l <"$patterns")" -gt 20 ] || fail "too few key lines to search for"

# search WHAT PATH...: fails when any pattern occurs in PATH (files, recursively).
search() {
  local what=$1
  shift
  if grep -rIaF -f "$patterns" "$@" >"$work/hits" 2>/dev/null; then
    cut -c1-200 "$work/hits" >&2
    fail "$what holds a secret (passphrase, agent socket or key material), shown above"
  fi
  if grep -rlaF -e 'PRIVATE KEY-----' "$@" >"$work/hits" 2>/dev/null; then
    cat "$work/hits" >&2
    fail "$what holds a private key block"
  fi
}

# check_run SUFFIX: the run's folder is complete, then searched with the console.
check_run() {
  local dir
  dir=$(ls -d "$work/results"/*-"$1") || fail "no results folder for run $1"
  for f in run.json junit.xml report.html profile.toml labgate.log facts/a.json facts/b.json; do
    [ -s "$dir/$f" ] || fail "results folder of run $1 lacks $f"
  done
  [ "$1" != agent ] || find "$dir" -name 'server.out' | grep -q . || fail "run $1 kept no raw probe output"
  search "the results folder of run $1" "$dir"
  search "the console output of run $1" "$work/console-$1"
}

profile=$work/p.toml
make_profile "$profile"

note "run 1: the encrypted identity, no passphrase, the key in ssh-agent"
set_key "$profile" identity "\"$key\""
env -u LABGATE_KEY_PASSPHRASE SSH_AUTH_SOCK="$sock" timeout 300 \
  "$bin/labgate" -v run "$profile" --suffix agent --results "$work/results" >"$work/console-agent" 2>&1
rc=$?
[ $rc -eq 0 ] || { tail -30 "$work/console-agent"; fail "labgate run through the agent exited $rc, expected 0"; }
grep -q "is encrypted and no passphrase is set; logged in with its key from ssh-agent" "$work/console-agent" ||
  fail "the run did not log in through the agent"
check_run agent

note "run 2: the same key decrypted with the passphrase from passphrase_env"
sed -i "s#^identity = .*#&\npassphrase_env = \"LABGATE_SECURITY_PASS\"#" "$profile"
env -u SSH_AUTH_SOCK LABGATE_SECURITY_PASS="$pass" timeout 300 \
  "$bin/labgate" -v run "$profile" -L preconditions --suffix passenv --results "$work/results" \
  >"$work/console-passenv" 2>&1
rc=$?
[ $rc -eq 0 ] || { tail -30 "$work/console-passenv"; fail "labgate run with passphrase_env exited $rc, expected 0"; }
check_run passenv

note "a profile holding the passphrase itself is refused, without echoing it"
make_profile "$profile"
sed -i "s#^identity = .*#identity = \"$key\"\npassphrase = \"$pass\"#" "$profile"
timeout 60 "$bin/labgate" check "$profile" >"$work/console-inline" 2>&1
rc=$?
[ $rc -eq 2 ] || { cat "$work/console-inline"; fail "a passphrase in the profile: exit $rc, expected 2"; }
grep -q "passphrase" "$work/console-inline" && grep -q "passphrase_env" "$work/console-inline" ||
  { cat "$work/console-inline"; fail "the error does not name passphrase and point to passphrase_env"; }
grep -qF "$pass" "$work/console-inline" && fail "the refusal echoes the passphrase"
echo "ok: secrets"

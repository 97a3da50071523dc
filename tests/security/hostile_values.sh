#!/usr/bin/env bash
# Hostile names in profile values that reach remote commands, through the real
# binary on lab pair 9. Each value carries quotes, `$()`, backticks, `;` or
# globs, and each injection would create a marker file; no marker may appear
# on either host (its /tmp and root's home) or on this machine.
#  - probe_dir: a real directory with such a name on both hosts; a whole
#    `labgate run` deploys and runs every probe inside it and passes;
#  - a command test's argv: the words reach the program literally;
#  - sysctl keys, interface, module and service names: the facts probe
#    refuses them, and the error names the value (exit 3, nothing measured);
#  - test_address: refused before anything runs, naming the key;
#  - words no remote command can carry (a newline, a NUL): refused by key.
source "$(dirname "$0")/lib.sh"

m=lgsec-pwned-$$
markers=()
# inject NAME: a snippet that creates marker NAME if a shell ever runs it (no
# spaces: ${IFS} stands in for them, so one-word values can carry it too).
inject() {
  markers+=("$m-$1")
  printf '$(touch${IFS}/tmp/%s)' "$m-$1"
}
check_markers() {
  local f d
  for f in "${markers[@]}"; do
    for d in "$TMP_A" "$TMP_B" "$STATE/home-a" "$STATE/home-b" /tmp /root "$work"; do
      [ ! -e "$d/$f" ] || fail "marker $d/$f exists: a profile value was executed ($1)"
    done
  done
}
# TOML basic-string escaping, then sed replacement escaping (&, \, # delimiter).
toml() { sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' <<<"$1"; }
sedrep() { sed 's/[#&\\]/\\&/g' <<<"$1"; }

profile=$work/p.toml
note "a whole run inside a hostile probe_dir, with a hostile command argv"
hostile_dir="/tmp/lgsec'q\"$(inject dir)\`touch\${IFS}/tmp/$m-bt\`;touch\${IFS}/tmp/$m-semi;*?[x]"
markers+=("$m-bt" "$m-semi")
for t in "$TMP_A" "$TMP_B"; do
  # Its slashes make it a few nested directories; all of them root's, 0755.
  mkdir -p "$t${hostile_dir#/tmp}" || fail "cannot create the hostile probe_dir under $t"
  on_exit "rm -rf '$t/lgsec'\''q'"
done
make_profile "$profile"
set_key "$profile" probe_dir "\"$(sedrep "$(toml "$hostile_dir")")\""
cat >>"$profile" <<EOF

[[test]]
name = "hostile_argv"
kind = "command"
on = "a"
count = 3
argv = ["/bin/echo", "$(toml "$(inject argv)")", "\`touch /tmp/$m-argv2\`", "a;touch /tmp/$m-argv3", "x\ntouch /tmp/$m-argv4", "*", "'", "\""]
budget = { max = "5s", max_failures = 0 }
EOF
markers+=("$m-argv2" "$m-argv3" "$m-argv4")
timeout 300 "$bin/labgate" run "$profile" --suffix hostile --results "$work/results" >"$work/out" 2>&1
rc=$?
check_markers "labgate run"
[ $rc -eq 0 ] || { tail -40 "$work/out"; fail "labgate run in a hostile probe_dir exited $rc, expected 0"; }
run=$(ls -d "$work"/results/*-hostile)
grep -rqF "lgsec'q" "$run" || fail "no record shows the probes ran in the hostile probe_dir"
grep -q 'hostile_argv' "$run/junit.xml" || fail "the command test did not run"
[ -z "$(probe_pids $NS_A)$(probe_pids $NS_B)" ] || fail "probes are still running after the run"

# refused WHAT PROFILE: `labgate check` refuses it (exit 2 or 3) naming WHAT.
refused() {
  timeout 120 "$bin/labgate" check "$2" >"$work/out" 2>&1
  local rc=$?
  check_markers "$1"
  [ $rc -eq 2 ] || [ $rc -eq 3 ] || { cat "$work/out"; fail "$1: exit $rc, expected a refusal (2 or 3)"; }
  grep -qF -- "$1" "$work/out" || { cat "$work/out"; fail "the refusal does not name '$1'"; }
  note "refused, by name: $1"
}

note "hostile names in the preconditions are refused by name"
sysctl_key="net.ipv4.tcp_sack$(inject sysctl)"
make_profile "$profile"
sed -i "s#^\"net.ipv4.tcp_sack\" = 0#&\n\"$(sedrep "$(toml "$sysctl_key")")\" = 0#" "$profile"
refused "$sysctl_key" "$profile"
traversal="net.ipv4.../../../../etc/shadow"
make_profile "$profile"
sed -i "s#^\"net.ipv4.tcp_sack\" = 0#&\n\"$traversal\" = 0#" "$profile"
refused "$traversal" "$profile"
iface="ic0;touch\${IFS}/tmp/$m-if"
markers+=("$m-if")
make_profile "$profile"
printf '\n[preconditions.interfaces."%s"]\nmtu = 1500\n' "$(toml "$iface")" >>"$profile"
refused "$iface" "$profile"
module="tg3\`touch\${IFS}/tmp/$m-mod\`"
markers+=("$m-mod")
make_profile "$profile"
printf '\n[preconditions.modules."%s"]\nloaded = false\n' "$(toml "$module")" >>"$profile"
refused "$module" "$profile"
for service in "cups$(inject svc)" "*" "../../etc/shadow"; do
  make_profile "$profile"
  printf '\n[preconditions.services]\ndisabled = ["%s"]\n' "$(toml "$service")" >>"$profile"
  refused "$service" "$profile"
done

note "a hostile test_address is refused before anything runs"
make_profile "$profile"
bad_addr="$IC_B$(inject addr)"
sed -i "s#^test_address = \"$IC_B\"#test_address = \"$(sedrep "$(toml "$bad_addr")")\"#" "$profile"
timeout 120 "$bin/labgate" run "$profile" -L latency --suffix addr --results "$work/results" >"$work/out" 2>&1
rc=$?
check_markers "hostile test_address"
[ $rc -eq 2 ] || [ $rc -eq 3 ] || { tail -30 "$work/out"; fail "hostile test_address: exit $rc, expected 2 or 3"; }
grep -q "test_address" "$work/out" || { tail -30 "$work/out"; fail "the error does not name test_address"; }

note "words no remote command can carry are refused by key: a newline, a NUL"
make_profile "$profile"
printf '\n[preconditions.services]\ndisabled = ["cups\\ntouch /tmp/%s-nl"]\n' "$m" >>"$profile"
markers+=("$m-nl")
refused "preconditions.services.disabled" "$profile"
make_profile "$profile"
sed -i 's#^"net.ipv4.tcp_sack" = 0#"net.ipv4.tcp_sack\\u0000x" = 0#' "$profile"
refused "tcp_sack" "$profile"
echo "ok: hostile_values"

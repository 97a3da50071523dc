# Shared by the security lab tests (sourced): lab pair 9 of ci/lab, a short
# profile for it generated from profiles/lab.toml, scratch space and checks.
# Usage of every test: bash tests/security/<test>.sh BUILD_DIR SOURCE_DIR
# (root; `ci/lab up --pair 9` first, which the ctest fixture does).
set -uo pipefail

build=${1:?usage: $0 BUILD_DIR SOURCE_DIR}
src=${2:?usage: $0 BUILD_DIR SOURCE_DIR}
bin=$build/bin
probes=$build/probes

# Pair 9's addressing as ci/lab builds it (base = (9 - 1) * 8 = 64), or that
# of LABGATE_SECURITY_PAIR (a helper's own pair, already up; as the fault
# tests' LABGATE_FAULT_PAIR).
readonly SEC_PAIR=${LABGATE_SECURITY_PAIR:-9}
readonly NS_A=lg$SEC_PAIR-a NS_B=lg$SEC_PAIR-b
readonly MGMT_A=198.18.0.$(((SEC_PAIR - 1) * 8 + 2)) MGMT_B=198.18.0.$(((SEC_PAIR - 1) * 8 + 6))
readonly IC_A=198.19.$SEC_PAIR.1 IC_B=198.19.$SEC_PAIR.2
readonly STATE=$src/.lab/pair$SEC_PAIR
# Each lab host's own /tmp (what its sshd sessions see as /tmp).
readonly TMP_A=$STATE/tmp-a TMP_B=$STATE/tmp-b
readonly LAB_NAME=lab-pair$SEC_PAIR-security

fail() {
  echo "FAIL: $*" >&2
  exit 1
}
note() { echo "-- $*"; }

[ "$(id -u)" -eq 0 ] || fail "needs root (network namespaces, sshd, other uids)"
"$src/ci/lab" status --pair "$SEC_PAIR" >/dev/null 2>&1 ||
  fail "lab pair $SEC_PAIR is down; run: sudo ci/lab up --pair $SEC_PAIR"
[ -x "$bin/labgate" ] || fail "$bin/labgate is not built"

work=$(mktemp -d /tmp/labgate-security.XXXXXX)
chmod 755 "$work"
cleanups=()
# Runs the registered cleanups (last first), then removes the scratch dir
# (LGSEC_KEEP=1 keeps it, to look at a failure).
run_cleanups() {
  local i
  for ((i = ${#cleanups[@]} - 1; i >= 0; i--)); do eval "${cleanups[$i]}" || true; done
  if [ -n "${LGSEC_KEEP:-}" ]; then echo "kept $work"; else rm -rf "$work"; fi
}
trap run_cleanups EXIT
on_exit() { cleanups+=("$1"); }

# make_profile OUT: profiles/lab.toml's SSH settings and preconditions for pair
# 9, then four 1-second probe tests (every server kind: tcp/udp rr and stream).
# These checks run beside other lab checks (label `concurrent`) and judge what
# the run did to the hosts, not its timing: the open-loop udp_stream may fall
# behind its schedule there (fresh10: 1.1% short of 5,000/s, a 10 ms stall), so
# its sample_tolerance is wide; its budgets stay loose (max 1 s).
make_profile() {
  local out=$1
  awk '/^# -+ measurements/{exit} {print}' "$src/profiles/lab.toml" |
    sed -e "s#\"\.\./\.lab/pair1/#\"$STATE/#g" \
      -e "s/^address = \"198\.18\.0\.2\"/address = \"$MGMT_A\"/" \
      -e "s/^address = \"198\.18\.0\.6\"/address = \"$MGMT_B\"/" \
      -e "s/^test_address = \"198\.19\.1\.1\"/test_address = \"$IC_A\"/" \
      -e "s/^test_address = \"198\.19\.1\.2\"/test_address = \"$IC_B\"/" \
      -e "s/^name = \"lab-pair1\"/name = \"$LAB_NAME\"/" >"$out"
  grep -q "address = \"$MGMT_B\"" "$out" && grep -q "identity = \"$STATE/id_rsa\"" "$out" ||
    fail "profiles/lab.toml changed shape; make_profile in tests/security/lib.sh no longer fits it"
  cat >>"$out" <<'EOF'
[defaults.test]
duration = "1s"
warmup = "200ms"
interval = "1s"
message_size = 64
tool = "builtin"

[[test]]
name = "tcp_rr"
kind = "tcp_rr"
from = "a"
to = "b"
budget = { max = "1s" }

[[test]]
name = "udp_rr"
kind = "udp_rr"
from = "a"
to = "b"
budget = { max = "1s" }

[[test]]
name = "tcp_stream"
kind = "tcp_stream"
from = "b"
to = "a"
budget = { max = "1s" }

[[test]]
name = "udp_stream"
kind = "udp_stream"
from = "b"
to = "a"
rate = "5000/s"
sample_tolerance = "50%"
budget = { max = "1s" }
EOF
}

# set_key FILE KEY VALUE: rewrites `KEY = ...` lines (all of them) of a profile.
set_key() { sed -i "s#^$2 = .*#$2 = $3#" "$1"; }

# Probe processes (pingpong, stream, facts...) still running in a lab host.
probe_pids() {
  local ns=$1 pid
  for pid in $(ip netns pids "$ns" 2>/dev/null); do
    case $(cat "/proc/$pid/comm" 2>/dev/null) in
      pingpong | stream | facts | jitter | cmdrun | disk) echo "$pid" ;;
    esac
  done
}

# as_nobody CMD...: runs CMD as user nobody (another local user of the host).
as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups -- "$@"; }

#!/usr/bin/env bash
# How fast the built-in multicast feed goes on the mesh lab, with everything it
# delivered accounted (issue 24): one publisher (m1) to five subscribers (m2..m6)
# over the mesh's bridge, 64-byte messages, at each rate asked; per rate the
# rate the publisher held, each subscriber's loss and longest gap, the round
# trips measured, and the probes' peak memory. A second run at the last rate,
# SECONDS_LONG long, shows that memory does not grow with the duration.
#
#   bench/multicast_rate.sh BIN_DIR [RATE...]     (root; default rates 10000 50000 100000)
#   env: SECONDS_SHORT=10 SECONDS_LONG=60 REPLY_EVERY=100 SOCKET_BUFFER= (e.g. 4MiB:
#        the feed's socket_buffer, every end's SO_SNDBUF/SO_RCVBUF; unset: the system's)
#
# All six hosts are namespaces on this machine's CPUs: the figures are this
# machine's (say how loaded it was beside them), not a NIC's.
set -euo pipefail
bin=$(cd "$1" && pwd)
shift
src=$(cd "$(dirname "$0")/.." && pwd)
rates=("$@")
[ ${#rates[@]} -gt 0 ] || rates=(10000 50000 100000)
short=${SECONDS_SHORT:-10} long=${SECONDS_LONG:-60} every=${REPLY_EVERY:-100}
work=$(mktemp -d /var/tmp/labgate-mcast-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
[ "$(id -u)" = 0 ] || { echo "multicast_rate: needs root (the mesh lab)" >&2; exit 2; }
ip netns list | grep -q '^lgm-m1' || bash "$src/ci/lab" up --mesh 6 >/dev/null

# shellcheck source=../tests/mesh/mesh_feed_profile.sh
. "$src/tests/mesh/mesh_feed_profile.sh"
# profiles/lab-mesh.toml with only its feed test, at RATE for SECONDS.
profile() {
  mesh_profile_head "$src"
  local more=
  [ -z "${SOCKET_BUFFER:-}" ] || more="socket_buffer = \"$SOCKET_BUFFER\""
  mesh_feed_test feed "$1/s" "$every" "$2s" '{ max_loss = "100%" }' "$more"
}

run_one() {
  local rate=$1 secs=$2 dir="$work/r$1-$2"
  profile "$rate" "$secs" >"$work/p.toml"
  # Exit 1 (a budget) is a figure here too; no run.json is not.
  "$bin/labgate" run "$work/p.toml" -L multicast --suffix bench --results "$dir" >"$dir.out" 2>&1 || true
  local run
  run=$(ls -d "$dir"/*/ 2>/dev/null | head -1)
  [ -n "$run" ] && [ -s "$run/run.json" ] || { tail -20 "$dir.out"; echo "no run.json at $rate/s" >&2; return 1; }
  python3 - "$run" "$rate" "$secs" <<'PY'
import glob, json, os, sys
run, rate, secs = sys.argv[1], float(sys.argv[2]), sys.argv[3]
doc = json.load(open(os.path.join(run, "run.json")))
def last_json(path):
    lines = open(path).read().strip().splitlines()
    return json.loads(lines[-1]) if lines else {}
def fig(t, stat):
    return next((f["value"] for f in t.get("figures", []) if f.get("stat") == stat), None)
# One record per subscriber (its address in parameters) and one for the worst.
subs = [t for t in doc["tests"] if (t.get("measurement") or {}).get("parameters", {}).get("subscriber_address")]
if not subs:
    sys.exit(f"no subscriber records in {run}/run.json")
m = subs[0]["measurement"]
sent, dur = m["sent"], m["duration_s"]
worst_loss = max(1 - t["measurement"]["received"] / sent for t in subs) if sent else 1
gap = max(fig(t, "longest_gap") or 0 for t in subs)
rtts = sum(int(fig(t, "samples") or 0) for t in subs)
pub = glob.glob(os.path.join(run, "tests", "*", "*", "publisher.out"))
subs_out = glob.glob(os.path.join(run, "tests", "*", "*", "subscriber-*.out"))
pub_doc = last_json(pub[0]) if pub else {}
pub_rss = pub_doc.get("memory", {}).get("max_rss_kb")
not_sent = pub_doc.get("counters", {}).get("measured", {}).get("not_sent", "?")
sub_rss = max((last_json(f).get("memory", {}).get("max_rss_kb") or 0) for f in subs_out) if subs_out else None
held = sent / dur if dur else 0
print(f"{int(rate):>7}/s {secs:>3}s  held {held:>9,.0f}/s ({held / rate:6.1%}; {not_sent:,} not sent: behind its schedule)  "
      f"{len(subs)} subscribers: worst loss {worst_loss:7.3%}, longest gap {int(gap):,}, "
      f"round trips {rtts:,}  max RSS publisher {pub_rss} KiB, subscriber {sub_rss} KiB")
PY
}

echo "multicast feed, m1 -> m2..m6, 64 B, reply 1 in $every, socket_buffer ${SOCKET_BUFFER:-system default};" \
  "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for r in "${rates[@]}"; do run_one "$r" "$short"; done
run_one "${rates[-1]}" "$long"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"

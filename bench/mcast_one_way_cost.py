#!/usr/bin/env python3
"""What the multicast one-way delay costs the mcast probe (issue 24): this
build's probes/mcast beside an earlier revision's (compiled from `git archive
REV`), each a feed from m1 to m2..m6 of the mesh lab at the same rate and
message size, one after the other, alternating, for each duration. Per run: the
rate the publisher held, what it could not send, the worst subscriber's loss,
the replies and how many carried a receive stamp, the publisher's CPU time
(utime + stime from wait4) as % of one core, and the probes' own peak memory
(VmHWM, as they print it): fixed whatever the duration, one more histogram per
subscriber. The subscribers' only new work is one add and 8 more bytes per
reply; the publisher's, a few compares per reply (never per message)."""
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchlib as bl  # noqa: E402

# (network namespace, interconnect address): the publisher m1, then the subscribers m2..m6.
MESH = [(f"lgm-m{k}", f"198.19.200.{k}") for k in range(1, 7)]


def pair_hosts(n):
    """Lab pair N's two hosts as a feed's publisher (a) and one subscriber (b)."""
    return [(f"lg{n}-a", f"198.19.{n}.1"), (f"lg{n}-b", f"198.19.{n}.2")]


def rcvbuf_errors(netns):
    """Udp RcvbufErrors of /proc/net/snmp in `netns`: datagrams dropped at a full receive buffer."""
    text = subprocess.run(["ip", "netns", "exec", netns, "cat", "/proc/net/snmp"], capture_output=True,
                          text=True, timeout=10).stdout
    udp = [line.split() for line in text.splitlines() if line.startswith("Udp:")]
    return int(udp[1][udp[0].index("RcvbufErrors")]) if len(udp) >= 2 else 0


def feed(binary, rate, seconds, every, size, workdir, costs=False, socket_buffer=None, hosts=None):
    """One feed from hosts[0] to the others (default the mesh, m1 -> m2..m6) with
    `binary` at both ends; one table row's figures. `costs`: also the busiest
    subscriber's CPU (utime + stime from wait4, % of one core over the
    publisher's run), the subscribers' Udp RcvbufErrors during the feed (their
    receive buffers overflowing) and the publisher's send calls per message
    sent (1.00 when every message had its own sendto). `socket_buffer`: every
    end's --socket-buffer (a build that has it)."""
    hosts = hosts or MESH
    (pub_ns, pub_addr), sub_hosts = hosts[0], hosts[1:]
    common = ["--group", "239.1.1.9", "--port", "5009", "--reply-every", str(every)]
    if socket_buffer:
        common += ["--socket-buffer", socket_buffer]
    subs = []
    for k, a in sub_hosts:
        out = open(Path(workdir) / f"{k}.out", "w+")
        argv = ["ip", "netns", "exec", k, str(binary), "subscribe", *common, "--bind", a,
                "--idle-timeout", f"{seconds + 10}s"]
        subs.append((k, out, subprocess.Popen(argv, stdout=out, stderr=subprocess.DEVNULL)))
    deadline = time.monotonic() + 10
    for k, out, p in subs:
        while '"joined"' not in Path(out.name).read_text():
            if p.poll() is not None or time.monotonic() > deadline:
                bl.die(f"the subscriber on {k} did not join: {Path(out.name).read_text()[-300:]}")
            time.sleep(0.05)
    dropped_before = sum(rcvbuf_errors(k) for k, _ in sub_hosts) if costs else 0
    argv = ["ip", "netns", "exec", pub_ns, str(binary), "publish", *common, "--bind", pub_addr,
            *[a for _, s in sub_hosts for a in ("--subscriber", s)], "--rate", f"{rate}/s", "--duration",
            f"{seconds}s", "--warmup", "500ms", "--size", str(size)]
    t0 = time.monotonic()
    with tempfile.TemporaryFile() as out:
        pub = subprocess.Popen(argv, stdout=out, stderr=subprocess.PIPE)
        _, status, ru = os.wait4(pub.pid, 0)
        wall = time.monotonic() - t0
        out.seek(0)
        doc = out.read().decode(errors="replace")
    if os.waitstatus_to_exitcode(status) != 0 or '"status":"ok"' not in doc:
        bl.die(f"`{shlex.join(argv)}`: {pub.stderr.read().decode(errors='replace')[-300:] or doc[:300]}")
    p = json.loads(doc)
    worst_loss, sub_rss, sub_cpu = 0.0, 0, 0.0
    for k, out, s in subs:
        sub_ru = reap(s, 15)  # `ip netns exec` execs the probe: its pid is the probe's
        if sub_ru is None:
            s.kill()
            bl.die(f"the subscriber on {k} did not end after the feed")
        sub_cpu = max(sub_cpu, sub_ru.ru_utime + sub_ru.ru_stime)
        last = json.loads(Path(out.name).read_text().strip().splitlines()[-1])
        m = last["counters"]["measured"]
        worst_loss = max(worst_loss, m["lost"] / m["expected"] if m["expected"] else 1.0)
        sub_rss = max(sub_rss, last["memory"]["max_rss_kb"])
    sent = p["counters"]["measured"]["sent"]
    replies = sum(e["replies"] + e["warmup_replies"] for e in p["subscribers"])
    stamped = sum(e["one_way"]["stamped"] if "one_way" in e else 0 for e in p["subscribers"])
    cpu = ru.ru_utime + ru.ru_stime
    row = [f"{sent / p['duration_s']:,.0f}/s", f"{p['counters']['measured']['not_sent']:,}", f"{worst_loss:.3%}",
           f"{replies:,} ({stamped:,} stamped)", f"{100 * cpu / wall:.1f} %",
           f"{p['memory']['max_rss_kb']:,} KiB", f"{sub_rss:,} KiB"]
    if costs:
        c = p["counters"]
        total = c["measured"]["sent"] + c["warmup"]["sent"]
        calls = f"{c['send_calls'] / total:.2f}" if "send_calls" in c and total else "1.00 (one sendto each)"
        dropped = sum(rcvbuf_errors(k) for k, _ in sub_hosts) - dropped_before
        row += [f"{100 * sub_cpu / wall:.1f} %", f"{dropped:,}", calls]
    return row


def reap(proc, timeout):
    """The ended process's rusage (os.wait4), or None when it has not ended within `timeout` s."""
    deadline = time.monotonic() + timeout
    while True:
        pid, status, ru = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            proc.returncode = os.waitstatus_to_exitcode(status)
            return ru
        if time.monotonic() > deadline:
            return None
        time.sleep(0.05)


def main():
    p = bl.common_args(__doc__.splitlines()[0])
    p.add_argument("--before-rev", default="main", help="git revision whose probes/mcast is the 'before' row")
    p.add_argument("--rate", type=int, default=100000, help="messages per second (default 100000)")
    p.add_argument("--size", type=int, default=64, help="message size, bytes (default 64)")
    p.add_argument("--reply-every", type=int, default=100, help="1 reply in N messages (default 100)")
    p.add_argument("--durations", default="5,30", help="comma-separated seconds (default 5,30)")
    a = p.parse_args()
    if os.geteuid() != 0 or not Path("/run/netns/lgm-m1").exists():
        bl.die("needs root and the mesh lab: bash ci/lab up --mesh 6")
    rows = []
    with tempfile.TemporaryDirectory(prefix="lg-mcast-cost.") as work:
        builds = [("this build", bl.built(a.build, "probes/mcast", "probe_mcast")),
                  (f"{a.before_rev} (before)", bl.compile_probe_revision("mcast", a.before_rev, work))]
        for seconds in [int(s) for s in a.durations.split(",")]:
            for name, binary in builds:  # one after the other: six probes share this machine's CPUs
                rows.append([name, f"{seconds} s", *feed(binary, a.rate, seconds, a.reply_every, a.size, work)])
    bl.print_table(
        f"mcast feed m1 -> m2..m6, {a.size} B at {a.rate:,}/s, 1 reply in {a.reply_every}, "
        f"load average {os.getloadavg()[0]:.1f}",
        ["build", "duration", "rate held", "not sent", "worst loss", "replies", "publisher CPU",
         "publisher max RSS", "subscriber max RSS"], rows,
        shlex.join(["python3", "bench/mcast_one_way_cost.py", *sys.argv[1:]]))

if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""The mcast feed's rate with batched I/O beside the build before it (issue 24,
the 100,000 msg/s figure): this build's probes/mcast (every message due sent in
one sendmmsg; the feed and the replies read with recvmmsg, each datagram with
the kernel's own receive stamp, SO_TIMESTAMPNS) and an earlier revision's (one
sendto per message, one recvfrom per datagram, stamped after each read),
compiled from `git archive REV`. One feed m1 -> m2..m6 on the mesh lab per
row, the two builds one after the other at each rate, alternating, so that both
see the same load. Per row: the rate held, what the publisher could not send,
the worst subscriber's loss, the replies, the publisher's and the busiest
subscriber's CPU (% of one core), the subscribers' Udp RcvbufErrors, the
publisher's send calls per message.

  python3 bench/mcast_batching.py [--before-rev main] [--rates 20000,50000,100000] [--seconds 5]
                                  [--one-subscriber --pair N]

Needs root and the mesh lab (bash ci/lab up --mesh 6), or with --one-subscriber
lab pair N (a publishes, b subscribes: the probe's own rate, without the mesh's
five-fold fan-out). The six hosts are
namespaces sharing this machine's CPUs: say the load average beside it."""
import os
import shlex
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchlib as bl  # noqa: E402
from mcast_one_way_cost import feed, pair_hosts  # noqa: E402  (one feed, its figures)


def main():
    p = bl.common_args(__doc__.splitlines()[0])
    p.add_argument("--before-rev", default="main", help="git revision whose probes/mcast is the 'before' row")
    p.add_argument("--rates", default="20000,50000,100000", help="comma-separated messages per second")
    p.add_argument("--seconds", type=int, default=5, help="measured seconds per feed (default 5)")
    p.add_argument("--rounds", type=int, default=1, help="times each (rate, build) is run, alternating")
    p.add_argument("--size", type=int, default=64, help="message size, bytes (default 64)")
    p.add_argument("--reply-every", type=int, default=100, help="1 reply in N messages (default 100)")
    p.add_argument("--socket-buffer", default="4MiB",
                   help="a third row: this build with every end's --socket-buffer (default 4MiB; '' for none)")
    p.add_argument("--one-subscriber", action="store_true",
                   help="lab pair --pair's a -> b instead of the mesh: one subscriber, no fan-out")
    a = p.parse_args()
    hosts = pair_hosts(a.pair) if a.one_subscriber else None
    first_ns = f"lg{a.pair}-a" if a.one_subscriber else "lgm-m1"
    if os.geteuid() != 0 or not Path(f"/run/netns/{first_ns}").exists():
        bl.die(f"needs root and the lab: bash ci/lab up {f'--pair {a.pair}' if a.one_subscriber else '--mesh 6'}")
    rows = []
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="lg-mcast-batch.") as work:
        this = bl.built(a.build, "probes/mcast", "probe_mcast")
        builds = [("this build (batched)", this, None),
                  (f"{a.before_rev} (before)", bl.compile_probe_revision("mcast", a.before_rev, work), None)]
        if a.socket_buffer:
            builds.append((f"this build, socket_buffer {a.socket_buffer}", this, a.socket_buffer))
        for rate in [int(r) for r in a.rates.split(",")]:
            for _ in range(a.rounds):
                for name, binary, buf in builds:
                    rows.append([name, f"{rate:,}/s", *feed(binary, rate, a.seconds, a.reply_every, a.size, work,
                                                            costs=True, socket_buffer=buf, hosts=hosts)])
    path = f"lab pair {a.pair} a -> b" if a.one_subscriber else "m1 -> m2..m6"
    bl.print_table(
        f"mcast feed {path}, {a.size} B for {a.seconds} s, 1 reply in {a.reply_every}, "
        f"load average {load_before:.1f} before, {os.getloadavg()[0]:.1f} after",
        ["build", "rate asked", "rate held", "not sent", "worst loss", "replies", "publisher CPU",
         "publisher max RSS", "subscriber max RSS", "busiest subscriber CPU", "subscribers' RcvbufErrors",
         "send calls per message"], rows,
        shlex.join(["python3", "bench/mcast_batching.py", *sys.argv[1:]]))


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""Figure: probe fidelity. Round-trip times on a lab pair's interconnect from
labgate's built-in pingpong probe, sockperf ping-pong (--full-rtt, read through
labgate's own sockperf parser) and bench/pingpong_min.c (blocking send/recv,
every sample kept, exact percentiles), run interleaved (ABCABC...) so noise hits
all three alike; then the probe's peak RSS for a short and a long run."""
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchlib as bl  # noqa: E402
import histjson  # noqa: E402

TOOLS = ("built-in pingpong", "sockperf pp --full-rtt", "pingpong_min.c")
OTHER_PROBE = "built-in pingpong (--compare-probe)"
NO_FORENSICS = "built-in pingpong --forensics off"
# Forensics on but no sample ever an outlier (client and server keep no worst,
# the client's threshold out of reach): what every sample costs, whatever the noise.
SERVER_FORENSICS = "built-in pingpong, forensics on the server only"
NO_OUTLIER = "built-in pingpong, no outlier (--worst 0 --outlier 1h)"
OTHER_NO_OUTLIER = "built-in pingpong (--compare-probe), no outlier"


class Server:
    """A server in host b's namespace, stopped (TERM, then KILL) on exit."""

    def __init__(self, pair, argv, ready, timeout=10):
        self.proc = subprocess.Popen(pair.in_ns("b", argv), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True)
        self.first_line = ""
        self.output = None
        deadline = time.monotonic() + timeout
        if ready == "line":
            self.first_line = self.proc.stdout.readline()
            if not self.first_line:
                self.stop()
                bl.die(f"server `{' '.join(argv)}` exited before it was ready: {self.proc.stderr.read()[-500:]}")
        else:  # sockperf prints nothing useful: wait until the port is bound
            while time.monotonic() < deadline:
                out = bl.run(pair.in_ns("b", ["ss", "-Hln", f"sport = :{ready}"]), timeout=5).stdout
                if out.strip():
                    return
                time.sleep(0.05)
            self.stop()
            bl.die(f"server `{' '.join(argv)}` did not listen on port {ready} within {timeout} s")

    def stop(self, grace=0.0):
        """Stops the server (idempotent), after letting it exit by itself for up to
        `grace` s (one wrapped in perf stat must, to write its counts); returns what
        it printed after its first line."""
        if self.output is not None:
            return self.output
        try:
            self.proc.wait(timeout=grace) if grace > 0 else None
        except subprocess.TimeoutExpired:
            pass
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=5)
        self.output = self.proc.stdout.read()
        self.proc.stdout.close()
        self.proc.stderr.close()
        return self.output

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


class Runner:
    def __init__(self, args, pair, tmp):
        self.a, self.pair, self.tmp = args, pair, Path(tmp)
        self.probe = bl.built(args.build, "probes/pingpong", "probe_pingpong")
        self.minimal = bl.built(args.build, "bench/pingpong_min", "pingpong_min")
        self.labgate = None if args.no_sockperf else bl.built(args.build, "bin/labgate", "labgate")
        self.port = 25000 + pair.n * 100
        self.limit = args.duration + args.warmup + 30

    def pin(self, role):
        cpu = self.a.client_cpu if role == "client" else self.a.server_cpu
        return [] if cpu is None else ["taskset", "-c", str(cpu)]

    def next_port(self):
        self.port += 1  # a fresh port each run: no TIME_WAIT or stale-reply crosstalk
        return self.port

    def builtin(self, proto, duration, wrap=(), probe=None, server_wrap=(), server_extra=(), client_extra=()):
        probe = probe or self.probe
        srv = [str(probe), "server", "--bind", self.pair.ic["b"], "--proto", proto, "--idle-timeout", "30s",
               *server_extra]
        if server_wrap:  # it must exit by itself for its wrapper to report
            srv.append("--once")
        with Server(self.pair, [*server_wrap, *self.pin("server"), *srv], "line") as s:
            port = json.loads(s.first_line)["port"]
            cli = [*wrap, *self.pin("client"), str(probe), "client", "--connect", self.pair.ic["b"],
                   "--port", str(port), "--proto", proto, "--size", str(self.a.size),
                   "--duration", f"{duration}s", "--warmup", f"{self.a.warmup}s", *client_extra]
            r = bl.run(self.pair.in_ns("a", cli), timeout=duration + self.limit)
            server_out = s.stop(grace=5 if server_wrap else 0)
        doc = json.loads(r.stdout)
        h = doc["histogram"]
        return {"p50": histjson.percentile(h, 50), "p99": histjson.percentile(h, 99), "samples": h["total"],
                "rss_kb": doc["memory"]["max_rss_kb"], "stderr": r.stderr, "server": server_out}

    def sockperf(self, proto, wrap=()):
        port = self.next_port()
        tcp = ["--tcp"] if proto == "tcp" else []
        srv = ["sockperf", "sr", "-i", self.pair.ic["b"], "-p", str(port), *tcp]
        with Server(self.pair, self.pin("server") + srv, port):
            cli = [*wrap, *self.pin("client"), "sockperf", "pp", "-i", self.pair.ic["b"], "-p", str(port), "-m",
                   str(self.a.size), "-t", str(self.a.duration), "--full-rtt", "--client_ip", self.pair.ic["a"], *tcp]
            r = bl.run(self.pair.in_ns("a", cli), timeout=self.limit)
        out = self.tmp / f"sockperf-{proto}.txt"
        out.write_text(r.stdout + r.stderr)
        imp = bl.run([str(self.labgate), "-q", "import", "--tool", "sockperf", "--kind", f"{proto}_rr", str(out)],
                     timeout=30)
        doc = json.loads(imp.stdout)  # "reported": sockperf's own percentiles, as RTT in ns
        if "--full-rtt" not in doc["parameters"].get("latency_normalised", ""):
            bl.die(f"labgate's sockperf parser did not see --full-rtt in {out}")
        return {"p50": doc["reported"]["p50"], "p99": doc["reported"]["p99"], "samples": doc["received"]}

    def minimal_loop(self, proto, wrap=(), server_wrap=()):
        port = self.next_port()
        srv = [str(self.minimal), "server", proto, self.pair.ic["b"], str(port), str(self.a.size)]
        with Server(self.pair, [*server_wrap, *self.pin("server"), *srv], "line") as s:
            cli = [*wrap, *self.pin("client"), str(self.minimal), "client", proto, self.pair.ic["b"], str(port),
                   str(self.a.size), str(self.a.duration), str(self.a.warmup)]
            r = bl.run(self.pair.in_ns("a", cli), timeout=self.limit)
            s.stop(grace=5 if server_wrap else 0)  # it exits on the client's close or goodbye
        doc = json.loads(r.stdout)
        return {"p50": doc["p50_ns"], "p99": doc["p99_ns"], "samples": doc["samples"]}

    def builtin_variant(self, tool):
        """(probe, server options, client options) of a built-in probe row; None for the others."""
        none = (["--worst", "0"], ["--worst", "0", "--outlier", "1h"])
        off = ["--forensics", "off"]
        return {TOOLS[0]: (self.probe, [], []), OTHER_PROBE: (self.a.compare_probe, [], []),
                NO_FORENSICS: (self.probe, off, off), SERVER_FORENSICS: (self.probe, [], off), NO_OUTLIER: (self.probe, *none),
                OTHER_NO_OUTLIER: (self.a.compare_probe, *none)}.get(tool)

    def one(self, tool, proto, wrap=(), server_wrap=()):
        """One client run of `tool`, its command prefixed by `wrap` (e.g. perf stat)
        and its server's by `server_wrap` (not sockperf's: it runs until stopped)."""
        variant = self.builtin_variant(tool)
        if variant is not None:
            probe, server_extra, client_extra = variant
            return self.builtin(proto, self.a.duration, wrap=wrap, probe=probe, server_wrap=server_wrap,
                                server_extra=server_extra, client_extra=client_extra)
        return self.sockperf(proto, wrap) if tool == TOOLS[1] else self.minimal_loop(proto, wrap, server_wrap)


def rss_rows(runner, protos):
    """Peak RSS of the client for a short and a long run, by /usr/bin/time (the
    kernel's maxrss) and by the probe's own VmHWM report."""
    rows = []
    for proto in protos:
        for secs in (runner.a.rss_short, runner.a.rss_long):
            r = runner.builtin(proto, secs, wrap=["/usr/bin/time", "-f", "maxrss_kb=%M"])
            kernel = bl.search_or_die(r"maxrss_kb=(\d+)", r["stderr"], "/usr/bin/time's maxrss").group(1)
            srv = json.loads(r["server"].splitlines()[-1]) if r["server"].strip() else {}
            rows.append([f"{proto}_rr", f"{secs} s", r["samples"], f"{kernel} KiB", f"{r['rss_kb']} KiB",
                         f"{srv.get('memory', {}).get('max_rss_kb', '?')} KiB"])
    return rows


def round_ratio(runs, raw_runs, q):
    """Each round's figure over the raw loop's of the same round: median and range."""
    ratios = [r[q] / w[q] for r, w in zip(runs, raw_runs)]
    return f"{bl.median(ratios):.3f} ({min(ratios):.3f}–{max(ratios):.3f})"


def add_run_args(p, rounds):
    """The options of a set of interleaved client runs (Runner's), shared with loop_cost.py."""
    p.add_argument("--rounds", type=int, default=rounds, help=f"interleaved rounds (default {rounds})")
    p.add_argument("--duration", type=int, default=5, help="seconds measured per run (default 5)")
    p.add_argument("--warmup", type=int, default=1, help="warm-up seconds, excluded (default 1)")
    p.add_argument("--size", type=int, default=64, help="message bytes (default 64)")
    p.add_argument("--protos", default="tcp,udp", help="tcp,udp (default both)")
    p.add_argument("--client-cpu", type=int, help="pin every client to this CPU (taskset)")
    p.add_argument("--server-cpu", type=int, help="pin every server to this CPU (taskset)")
    p.add_argument("--compare-probe", help="another pingpong probe binary (e.g. an older build) run beside the others")
    p.add_argument("--no-sockperf", action="store_true", help="leave sockperf out (where it is not installed)")
    p.add_argument("--forensics-off", action="store_true",
                   help="also run the built-in probe with --forensics off (no outlier capture, receive stamps "
                        "or one-way stamps): what they cost")
    p.add_argument("--server-forensics", action="store_true",
                   help="also run it with forensics on the server only (arrival stamps, turnaround, its reply "
                        "stamp; the client's off): which side's share of their cost")


def tools_and_protos(a):
    """The tools to run (in order) and the protocols, checked."""
    tools = [t for t in TOOLS if not (a.no_sockperf and t == TOOLS[1])]
    if a.compare_probe:
        bl.need_file(a.compare_probe, "--compare-probe names a pingpong binary")
        tools.insert(1, OTHER_PROBE)
    if getattr(a, "forensics_off", False):
        tools.insert(1, NO_FORENSICS)
    if getattr(a, "server_forensics", False):
        tools.insert(1, SERVER_FORENSICS)
    protos = [x for x in a.protos.split(",") if x]
    if not protos or any(x not in ("tcp", "udp") for x in protos):
        bl.die(f"--protos takes tcp and/or udp, not '{a.protos}'")
    return tools, protos


def main():
    p = bl.common_args(__doc__.splitlines()[0])
    add_run_args(p, rounds=5)
    p.add_argument("--rss-short", type=int, default=5, help="short run for the RSS table, s (default 5)")
    p.add_argument("--rss-long", type=int, default=60, help="long run for the RSS table, s (default 60)")
    a = p.parse_args()
    tools, protos = tools_and_protos(a)
    pair = bl.LabPair(a.pair)
    pair.require_up()
    with tempfile.TemporaryDirectory(prefix="labgate-bench-") as tmp:
        runner = Runner(a, pair, tmp)
        got = {(proto, t): [] for proto in protos for t in tools}
        for _ in range(a.rounds):
            for proto in protos:
                for t in tools:
                    got[(proto, t)].append(runner.one(t, proto))
        rss = rss_rows(runner, protos) if a.rss_long > 0 else []

    rows = []
    raw = TOOLS[2]
    for proto in protos:
        med = {t: {q: bl.median([r[q] for r in got[(proto, t)]]) for q in ("p50", "p99")} for t in tools}
        best = {q: min(med[t][q] for t in tools) for q in ("p50", "p99")}
        for t in tools:
            p99s = [r["p99"] for r in got[(proto, t)]]
            rows.append([f"{proto}_rr {a.size} B", t, bl.fmt_us(med[t]["p50"]), bl.fmt_us(med[t]["p99"]),
                         f"{med[t]['p50'] / best['p50']:.3f}", f"{med[t]['p99'] / best['p99']:.3f}",
                         round_ratio(got[(proto, t)], got[(proto, raw)], "p50"),
                         round_ratio(got[(proto, t)], got[(proto, raw)], "p99"),
                         f"{min(p99s) / 1000:.1f}–{max(p99s) / 1000:.1f} µs",
                         int(bl.median([r["samples"] for r in got[(proto, t)]]))])
    pinning = "unpinned" if a.client_cpu is None else f"client CPU {a.client_cpu}, server CPU {a.server_cpu}"
    if a.compare_probe:
        pinning += f"; --compare-probe {a.compare_probe}"
    bl.print_table(f"Probe fidelity: round-trip time on lab pair {pair.n}'s interconnect (veth), {pinning}",
                   ["test", "tool", "p50 RTT", "p99 RTT", "p50 / best", "p99 / best",
                    "p50 / raw loop, same round (median, range)", "p99 / raw loop, same round (median, range)",
                    "p99 range over rounds", "samples per run"],
                   rows, bl.this_command(),
                   notes=[f"Median over {a.rounds} interleaved rounds of {a.duration} s each "
                          f"(warm-up {a.warmup} s excluded; sockperf uses its own fixed warm-up). "
                          "All blocking receive (no busy-poll), TCP_NODELAY. Ratios are to the lowest of "
                          "the tools per column: 1.000 is the best. '/ raw loop, same round': each round's "
                          "figure over pingpong_min.c's in that round (they ran back to back), the median of "
                          "those ratios and their range. The built-in probe reports the highest "
                          "value of a histogram bucket (<= 0.1% high); pingpong_min sorts every sample."])
    if rss:
        bl.print_table("Built-in pingpong probe: peak memory, short vs long run",
                       ["test", "duration", "round trips", "client max RSS (/usr/bin/time)",
                        "client VmHWM (probe's report)", "server VmHWM"], rss, bl.this_command(),
                       notes=["Histograms and the request window are fixed-size and allocated before "
                              "the run. The per-interval series is sized for the planned duration, 48 B "
                              "per 1-s interval, and its pages become resident as intervals close: "
                              "2.6 KiB for 60 s, 169 KiB for 1 h; nothing else grows."])


if __name__ == "__main__":
    main()

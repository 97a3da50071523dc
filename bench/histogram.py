#!/usr/bin/python3
"""Figure: the latency histogram. Runs the Google Benchmark stats_bench
(harness/src/stats/histogram_bench.cc) once and prints its figures as tables:
ns per recorded sample, percentile error against exact percentiles, and memory
for a 10 s run vs a 1 h run. Needs no lab and no root."""
import json
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchlib as bl  # noqa: E402


def by_name(doc):
    """Each benchmark's median aggregate (or its only run), with its label."""
    out, labels = {}, {}
    for b in doc["benchmarks"]:
        name = b["run_name"]
        if b.get("run_type") == "aggregate":
            if b.get("aggregate_name") == "median":
                out[name] = b
        else:
            out.setdefault(name, b)
            labels.setdefault(name, b.get("label", ""))
    for name, b in out.items():
        b.setdefault("label", labels.get(name, ""))
    return out


def ns(b):
    """A benchmark's real time per iteration in ns, whatever its time unit."""
    scale = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[b["time_unit"]]
    return b["real_time"] * scale


def fresh_peak_rss(exe, arg):
    """Peak RSS (KiB) of a stats_bench process that runs only BM_MemoryPerRun/arg."""
    r = bl.run(["/usr/bin/time", "-f", "maxrss_kb=%M", str(exe), f"--benchmark_filter=BM_MemoryPerRun/{arg}/"],
               timeout=300)
    return int(bl.search_or_die(r"maxrss_kb=(\d+)", r.stderr, "/usr/bin/time's maxrss").group(1))


def main():
    p = bl.common_args(__doc__.splitlines()[0])
    p.add_argument("--repetitions", type=int, default=3, help="Google Benchmark repetitions; median shown")
    a = p.parse_args()
    exe = bl.built(a.build, "bench/stats_bench", "stats_bench")
    r = bl.run([str(exe), "--benchmark_format=json", f"--benchmark_repetitions={a.repetitions}",
                "--benchmark_report_aggregates_only=false"], timeout=600)
    doc = json.loads(r.stdout)
    b = by_name(doc)
    cmd = "bench/" + Path(sys.argv[0]).name + " " + " ".join(sys.argv[1:])
    ctx = doc.get("context", {})
    cpu = f"{ctx.get('num_cpus', '?')} CPUs at {ctx.get('mhz_per_cpu', '?')} MHz"

    rec = b["BM_Record"]
    rows = [["record one sample", f"{ns(rec):.2f} ns", "constant time, no allocation"],
            ["p99.99 of 1 M samples", f"{ns(b['BM_Percentile']) / 1000:.1f} µs", "walks the counters once"],
            ["histogram to JSON (1 M samples)", f"{ns(b['BM_ToJson']) / 1e6:.2f} ms", "compact form the probes write"]]
    bl.print_table("Histogram: cost", ["operation", "time", "note"], rows, cmd,
                   notes=[f"Median of {a.repetitions} Google Benchmark repetitions, {cpu}."])

    rows = []
    for shape in range(3):
        e = b[f"BM_PercentileError/{shape}"]
        rows.append([e.get("label", shape)] + [f"{e[f'err_pct_{q}']:+.4f}%" for q in
                                               ("p50", "p90", "p99", "p99_9", "p99_99", "max")]
                    + [f"{e['err_pct_worst']:.4f}%"])
    bl.print_table("Histogram: percentile error vs exact (1 M samples, sorted)",
                   ["samples", "p50", "p90", "p99", "p99.9", "p99.99", "max", "worst |error|"], rows, cmd,
                   notes=["Error = (histogram - exact) / exact, exact = nearest rank of the sorted samples. "
                          "The histogram reports the highest value of the bucket the rank falls in, so the "
                          "error is >= 0 and at most 1/1024 = 0.098% (3 significant digits); max is exact."])

    rows = []
    for arg, what in ((0, "10 s"), (1, "1 h")):
        m = b[f"BM_MemoryPerRun/{arg}/iterations:1"]
        rows.append([what, f"{int(m['samples']):,}", f"{int(m['bytes']):,} B",
                     f"{int(m['rss_growth_kib'])} KiB", f"{fresh_peak_rss(exe, arg)} KiB",
                     f"{ns(m) / 1e6:.0f} ms"])
    bl.print_table("Histogram: memory for a 10 s and a 1 h run at 100k round trips/s",
                   ["run", "samples", "sizeof(lg_hist)", "RSS growth while recording",
                    "peak RSS, fresh process", "time to record"],
                   rows, cmd, notes=["RSS growth = VmRSS after recording minus after creating the "
                                     "histogram (whose set-up touches all of it). Peak RSS = the whole "
                                     "stats_bench process running only that case, by /usr/bin/time "
                                     "(includes the program, its libraries and 512 KiB of sample "
                                     "values)."])


if __name__ == "__main__":
    main()

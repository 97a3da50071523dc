#!/usr/bin/env python3
"""One statistic, one figure, on a live netperf run (issue 12): for each test,
netperf's own -k P99/MEAN/MAX_LATENCY in the raw client output must be the
figure, with source "netperf's own <stat> (tool)", in run.json (figure and
verdict), junit.xml, both tables of report.html, `labgate compare` and the
run `labgate import` made of the same output. netperf's decade-wide buckets
give other numbers (checked here first), so any output that read them fails.

  check_figures.py RUN_DIR WORK TEST...
WORK holds, per TEST, the import of its client output (WORK/import-TEST/<stamp>-imported)
and `labgate compare RUN_DIR that-import` (WORK/compare-TEST.out)."""
import glob
import html
import json
import math
import os
import re
import sys
from decimal import ROUND_HALF_UP, Decimal

STATS = ("p99", "mean", "max")
KEYS = {"p99": "P99_LATENCY", "mean": "MEAN_LATENCY", "max": "MAX_LATENCY"}
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg, file=sys.stderr)


def three_digits(v):
    """report::three_digits: 3 significant digits, trailing zeros kept."""
    if v == 0:
        return "0"
    digits = max(0, 2 - int(math.floor(math.log10(abs(v)))))
    return "%.*f" % (digits, v)


def fmt_ns(ns, micro):
    """report::format_ns (Unicode in the HTML report, ASCII in compare)."""
    for scale, unit in ((1, " ns"), (1e3, micro), (1e6, " ms")):
        if float(three_digits(abs(ns) / scale)) < 1e3:
            return three_digits(ns / scale) + unit
    return three_digits(ns / 1e9) + " s"


def raw_netperf(path):
    """netperf's -k values (us) and its -v 2 histogram rows from the client output."""
    keys, rows = {}, []
    for line in open(path, encoding="utf-8", errors="replace"):
        m = re.match(r"^([A-Z0-9_]+)=(\S+)$", line.strip())
        if m:
            keys[m.group(1)] = m.group(2)
        m = re.match(r"^(UNIT_USEC|TEN_USEC|HUNDRED_USEC|UNIT_MSEC|TEN_MSEC|HUNDRED_MSEC|UNIT_SEC|TEN_SEC)\s*:(.*)$",
                     line.strip())
        if m:
            rows.append([int(x) for x in m.group(2).split(":")])
    return keys, rows


def bucket_p99_ns(rows):
    """The p99 a reader of netperf's buckets gets: the upper edge of the bucket holding it."""
    total = sum(sum(r) for r in rows)
    need, seen = math.ceil(0.99 * total), 0
    for decade, row in enumerate(rows):
        width = 10 ** decade * 1000  # ns: 1 us wide in UNIT_USEC, 10 us in TEN_USEC, ...
        for i, n in enumerate(row):
            seen += n
            if n and seen >= need:
                return (i + 1) * width
    return None


def figure(run_json, test, stat):
    for t in run_json["tests"]:
        if t["name"] == test:
            for f in t.get("figures", []):
                if f["stat"] == stat:
                    return t, f
            return t, None
    return None, None


def junit_props(path, test):
    text = open(path, encoding="utf-8").read()
    m = re.search(r'<testcase name="%s/a-&gt;b"[^>]*>(.*?)</testcase>' % re.escape(test), text, re.S)
    if not m:
        return None
    return {html.unescape(k): html.unescape(v)
            for k, v in re.findall(r'<property name="([^"]*)" value="([^"]*)"/>', m.group(1))}


def report_tables(path, test):
    """(the measurements table's cells for test, {stat: (value, source)} of its figures table)."""
    text = open(path, encoding="utf-8").read()
    summary = None
    for table in re.findall(r"<table[^>]*><thead>.*?</table>", text, re.S):
        head = re.search(r"<thead>(.*?)</thead>", table, re.S)
        names = [html.unescape(re.sub(r"<[^>]+>", "", c)) for c in re.findall(r"<th[^>]*>(.*?)</th>", head.group(1))]
        for row in re.findall(r"<tr>(.*?)</tr>", table, re.S):
            if re.search(r'<a href="#test-\d+">%s</a>' % re.escape(test), row):
                cells = [html.unescape(re.sub(r"<[^>]+>", "", c)) for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
                summary = dict(zip(names, cells))
    anchor = re.search(r'id="(test-\d+)"><h3>[^<]*&#183; %s &#183;' % re.escape(test), text)
    figures = {}
    if anchor:
        section = text[anchor.end():]
        nxt = re.search(r'id="test-\d+"><h3>', section)
        section = section[: nxt.start()] if nxt else section
        table = re.search(r"<tr><th>Figure</th>.*?</table>", section, re.S)
        if table:
            for stat, value, source in re.findall(
                    r'<tr><th>([^<]+)</th><td class="num">([^<]*)</td><td>([^<]*)</td></tr>', table.group(0)):
                figures[stat] = (html.unescape(value), html.unescape(source))
    return summary, figures


def compare_rows(path, test):
    """{stat: (A, B, rest of the line)} of `labgate compare`'s table for test."""
    rows, inside = {}, False
    for line in open(path, encoding="utf-8"):
        if line.startswith("Latency."):
            inside = line.startswith("Latency.%s/a->b " % test)
            line = line[line.index(" "):] if inside else line
        if inside:
            cols = re.split(r"\s{2,}", line.strip())
            if len(cols) >= 3 and cols[0] in STATS:
                rows[cols[0]] = (cols[1], cols[2], "  ".join(cols[3:]))
    return rows


def main():
    run_dir, work, tests = sys.argv[1], sys.argv[2], sys.argv[3:]
    run = json.load(open(os.path.join(run_dir, "run.json")))
    for test in tests:
        pair_dir = os.path.join(run_dir, "tests", test, "a-to-b")
        keys, rows = raw_netperf(os.path.join(pair_dir, "client.out"))
        # labgate keeps whole nanoseconds (round half away from zero, as C++ std::round);
        # Decimal reads netperf's decimal microseconds exactly, so 64.46 us is 64460 ns, not 64459.99999999999.
        want = {s: float((Decimal(keys[KEYS[s]]) * 1000).quantize(Decimal(1), rounding=ROUND_HALF_UP))
                for s in STATS if KEYS[s] in keys}
        if set(want) != set(STATS):
            fail("%s: netperf printed no %s" % (test, [KEYS[s] for s in STATS if s not in want]))
            continue
        # The buckets must disagree with netperf's own figures, or this test could not tell who read them.
        hist = json.load(open(os.path.join(pair_dir, "measurement.json")))["histogram"]
        bucket_mean = hist["sum"] / hist["total"]
        bucket_p99 = bucket_p99_ns(rows)
        if abs(bucket_mean - want["mean"]) < 0.005 * want["mean"]:
            fail("%s: the buckets' mean %.0f ns equals netperf's MEAN_LATENCY: not a discriminating run" %
                 (test, bucket_mean))
        print("%s: netperf's own p99 %s mean %s max %s; its buckets give p99 %s mean %.0f ns" %
              (test, keys["P99_LATENCY"], keys["MEAN_LATENCY"], keys["MAX_LATENCY"], bucket_p99, bucket_mean))
        imported = glob.glob(os.path.join(work, "import-" + test, "*-imported"))
        if len(imported) != 1:
            fail("%s: expected one import under %s, found %s" % (test, work, imported))
            continue
        imp = json.load(open(os.path.join(imported[0], "run.json")))
        summary, figures = report_tables(os.path.join(run_dir, "report.html"), test)
        imp_summary, imp_figures = report_tables(os.path.join(imported[0], "report.html"), test)
        comp = compare_rows(os.path.join(work, "compare-%s.out" % test), test)
        for stat in STATS:
            v = want[stat]
            detail = "netperf's own " + stat
            origin = detail + " (tool)"
            where = "%s %s" % (test, stat)
            for name, doc in (("run.json", run), ("imported run.json", imp)):
                t, f = figure(doc, test, stat)
                if not f:
                    fail("%s: %s has no figure" % (where, name))
                    continue
                if f["value"] != v or f["source"] != "tool" or f.get("detail") != detail:
                    fail("%s: %s says %s from %s/%s, netperf said %s ns (tool)" %
                         (where, name, f["value"], f.get("detail"), f["source"], v))
                judged = [b for b in t.get("budget", []) if b["stat"] == stat]
                if not judged or judged[0]["observed"] != v:
                    fail("%s: %s's verdict judged %s, not netperf's %s ns" %
                         (where, name, judged[0]["observed"] if judged else "nothing", v))
            for name, d in (("junit.xml", run_dir), ("imported junit.xml", imported[0])):
                p = junit_props(os.path.join(d, "junit.xml"), test) or {}
                prop = stat + "_us"
                if prop not in p or abs(float(p[prop]) - v / 1000) > 1e-9 or p.get(prop + ".source") != origin:
                    fail("%s: %s has %s=%s (%s), netperf said %s us (%s)" %
                         (where, name, prop, p.get(prop), p.get(prop + ".source"), v / 1000, origin))
            text = fmt_ns(v, " \u00b5s")
            for name, summ, figs in (("report.html", summary, figures), ("imported report.html", imp_summary,
                                                                          imp_figures)):
                if stat in ("p99", "max") and (not summ or summ.get(stat) != text):
                    fail("%s: %s's measurements table shows %s, netperf said %s" %
                         (where, name, summ.get(stat) if summ else "no row", text))
                if figs.get(stat) != (text, origin):
                    fail("%s: %s's figures table shows %s, netperf said %s" % (where, name, figs.get(stat),
                                                                                (text, origin)))
            ascii_text = fmt_ns(v, " us")
            row = comp.get(stat)
            if not row or row[0] != ascii_text or row[1] != ascii_text or origin not in row[2]:
                fail("%s: compare shows %s, netperf said %s on both sides from %s" % (where, row, ascii_text, origin))
    if failures:
        print("%d mismatch(es)" % len(failures), file=sys.stderr)
        return 1
    print("ok: %s: run.json, verdict, junit.xml, report.html (both tables), compare and import agree "
          "with netperf's own p99/mean/max" % ", ".join(tests))
    return 0


if __name__ == "__main__":
    sys.exit(main())

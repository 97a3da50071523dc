"""Shared pieces of the bench/ scripts: the lab pair's addressing (as ci/lab
builds it), a pair profile made from profiles/lab.toml, bounded commands, sshd
log counting, statistics and the table every script prints."""
import argparse
import os
import re
import shlex
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def die(msg):
    """Clear error and exit 2 (usage/set-up), never a traceback."""
    print(f"bench: {msg}", file=sys.stderr)
    sys.exit(2)


def common_args(description):
    """--build and --pair, the options every bench script shares."""
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--build", default=os.environ.get("LABGATE_BUILD_DIR", str(REPO / "build" / "ci")),
                   help="CMake build directory holding bin/labgate, probes/ and bench/ (default build/ci)")
    p.add_argument("--pair", type=int, default=5, help="ci/lab pair number to use (default 5)")
    return p


def need_file(path, hint):
    path = Path(path)
    if not path.exists():
        die(f"{path} not found; {hint}")
    return path


def built(build, rel, target):
    """A file of the build directory, or a clear error saying how to build it."""
    return need_file(Path(build) / rel, f"build it: cmake --build {build} --target {target}")


def compile_probe_revision(probe, rev, workdir):
    """REV's probes/PROBE as a static musl binary in workdir (what probes/CMakeLists.txt's
    labgate_probe() compiles, from `git archive REV`); a clear error otherwise."""
    src = Path(workdir) / f"src-{probe}-{rev.replace('/', '_')}"
    src.mkdir()
    archived = [f"probes/{probe}", "probes/common", "harness/src/stats/hist_core.c", "harness/include"]
    archive = subprocess.run(["git", "-C", str(REPO), "archive", rev, *archived], capture_output=True, timeout=60)
    if archive.returncode != 0:
        die(f"git archive {rev}: {archive.stderr.decode(errors='replace').strip()}")
    untar = subprocess.run(["tar", "-x", "-C", str(src)], input=archive.stdout, capture_output=True, timeout=60)
    if untar.returncode != 0:
        die(f"tar -x of {rev}'s sources: {untar.stderr.decode(errors='replace').strip()}")
    out = Path(workdir) / f"{probe}-{rev.replace('/', '_')}"
    srcs = sorted(str(p) for p in (src / "probes" / probe).glob("*.c"))
    srcs += sorted(str(p) for p in (src / "probes/common").glob("*.c"))
    run(["musl-gcc", "-static", "-O2", "-g0", "-std=gnu99", "-D_GNU_SOURCE", '-DLABGATE_VERSION="bench"',
         f"-I{src}/probes/common", f"-I{src}/harness/include", "-o", str(out), *srcs,
         f"{src}/harness/src/stats/hist_core.c", "-lm"], timeout=300)
    return out


def labgate_with_facts(build):
    """bin/labgate, after checking the facts probe it deploys is built too."""
    built(build, "probes/facts", "probe_facts")
    return built(build, "bin/labgate", "labgate")


def run(argv, timeout, check=True, **kw):
    """Runs argv with a timeout; a failure names the command and its stderr."""
    try:
        r = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, **kw)
    except subprocess.TimeoutExpired:
        die(f"`{shlex.join(argv)}` did not finish within {timeout} s")
    if check and r.returncode != 0:
        die(f"`{shlex.join(argv)}` exited {r.returncode}: {r.stderr.strip()[-800:]}")
    return r


class LabPair:
    """Pair N of ci/lab: namespaces, addresses, keys and sshd logs."""

    def __init__(self, n):
        if not 2 <= n <= 30:
            die(f"--pair must be 2..30 (pair 1 is the shared default lab), got {n}")
        self.n = n
        base = (n - 1) * 8
        self.ns = {"a": f"lg{n}-a", "b": f"lg{n}-b"}
        self.mgmt = {"a": f"198.18.0.{base + 2}", "b": f"198.18.0.{base + 6}"}
        self.ic = {"a": f"198.19.{n}.1", "b": f"198.19.{n}.2"}
        self.state = (REPO / ".lab" / f"pair{n}").resolve()
        self.key = self.state / "id_rsa"
        self.known_hosts = self.state / "known_hosts"

    def require_up(self):
        if os.geteuid() != 0:
            die("needs root (network namespaces of the lab); run with sudo")
        r = run([str(REPO / "ci" / "lab"), "status", "--pair", str(self.n)], timeout=30, check=False)
        if r.returncode != 0:
            die(f"lab pair {self.n} is not up; run: ci/lab up --pair {self.n}\n{r.stdout}")

    def sshd_log(self, host):
        return self.state / f"sshd-{host}-22.log"

    def in_ns(self, host, argv):
        return ["ip", "netns", "exec", self.ns[host]] + list(argv)

    def ssh(self, host, command, extra=()):
        """One OpenSSH client invocation, as Testinfra's ssh backend makes."""
        return ["ssh", "-i", str(self.key), "-o", f"UserKnownHostsFile={self.known_hosts}",
                "-o", "BatchMode=yes", "-o", "ConnectTimeout=5", *extra,
                f"root@{self.mgmt[host]}", command]

    def profile_text(self, preconditions=None):
        """profiles/lab.toml moved to this pair, without its tests; `preconditions`
        (TOML text), if given, replaces its [preconditions] section."""
        text = (REPO / "profiles" / "lab.toml").read_text()
        swaps = [('"198.18.0.2"', f'"{self.mgmt["a"]}"'), ('"198.18.0.6"', f'"{self.mgmt["b"]}"'),
                 ('"198.19.1.1"', f'"{self.ic["a"]}"'), ('"198.19.1.2"', f'"{self.ic["b"]}"'),
                 ('"../.lab/pair1/', f'"{self.state}/'), ('"lab-pair1"', f'"lab-pair{self.n}"')]
        for old, new in swaps:
            if old not in text:
                die(f"profiles/lab.toml no longer contains {old}; update bench/benchlib.py")
            text = text.replace(old, new)
        start = text.find("\n[preconditions]\n")
        end = text.find("\n# ---", start)
        if start < 0 or end < 0:
            die("profiles/lab.toml: cannot find its [preconditions] section; update bench/benchlib.py")
        if preconditions is None:
            preconditions = text[start + 1:end]
        return text[:start] + "\n" + preconditions + "\n"

    def write_profile(self, path, preconditions=None):
        Path(path).write_text(self.profile_text(preconditions))
        return Path(path)


class LogCounter:
    """Counts what sshd (LogLevel VERBOSE) logged since construction: one
    'Accepted publickey' per authenticated connection, one 'Starting session'
    per channel that ran a command or a subsystem (sftp)."""

    def __init__(self, paths):
        self.paths = [Path(p) for p in paths]
        self.offsets = [p.stat().st_size if p.exists() else 0 for p in self.paths]

    def counts(self):
        conns = sessions = 0
        for p, off in zip(self.paths, self.offsets):
            with open(p, "rb") as f:
                f.seek(off)
                for line in f.read().decode(errors="replace").splitlines():
                    conns += "Accepted publickey for" in line
                    sessions += "Starting session:" in line
        return conns, sessions


    def sessions_by_log(self):
        """Per log: (channels that ran a command, channels that ran a subsystem)."""
        out = []
        for p, off in zip(self.paths, self.offsets):
            with open(p, "rb") as f:
                f.seek(off)
                lines = f.read().decode(errors="replace").splitlines()
            out.append((sum("Starting session: command" in x for x in lines),
                        sum("Starting session: subsystem" in x for x in lines)))
        return out


def wait_sshd_logged(counter, sessions_expected, timeout=3.0):
    """sshd writes its log lines asynchronously; wait until the count settles."""
    deadline = time.monotonic() + timeout
    last = counter.counts()
    while time.monotonic() < deadline and last[1] < sessions_expected:
        time.sleep(0.05)
        last = counter.counts()
    return last


def median(xs):
    return statistics.median(xs) if xs else float("nan")


def fmt_us(ns):
    return f"{ns / 1000:.1f} µs"


def print_table(title, header, rows, command, notes=()):
    """A Markdown table, its notes and the command that reproduces it."""
    print(f"\n### {title}\n")
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for r in rows:
        print("| " + " | ".join(str(c) for c in r) + " |")
    for n in notes:
        print(f"\n{n}")
    print(f"\nreproduce: `{command}`")
    print(f"measured: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {machine()}")


def machine():
    cpus = os.cpu_count()
    load = os.getloadavg()[0]
    return f"{cpus} CPUs, load average {load:.1f}, kernel {os.uname().release}"


def this_command():
    return "sudo " + shlex.join(["bench/" + Path(sys.argv[0]).name] + sys.argv[1:])


def parse_iso(text):
    """Seconds since the epoch of run.json's times ("2024-05-01T12:00:00.000Z")."""
    from datetime import datetime, timezone
    return datetime.strptime(text.rstrip("Z"), "%Y-%m-%dT%H:%M:%S.%f").replace(tzinfo=timezone.utc).timestamp()


def search_or_die(pattern, text, what):
    m = re.search(pattern, text)
    if not m:
        die(f"cannot find {what} in:\n{text[-1500:]}")
    return m

"""100 precondition rules for a lab pair, read from the live hosts so that they
hold: sysctls, services, module parameters, interfaces, kernel and OS release.
Each rule comes with the one shell command a per-check tool (Testinfra, InSpec)
would send over SSH to answer it, and the answer that command must print."""
import re
import subprocess

from benchlib import die, run

SERVICES = ["acpid", "autofs", "avahi-daemon", "bluetooth", "cpuspeed", "crond", "cups", "iscsid",
            "mdmonitor", "sendmail", "smartd", "sysstat", "rhnsd", "pcscd", "xfs"]
INTERFACES = {"ic0": ("veth", 1500), "mgmt0": ("veth", 1500)}
# Sysctls whose value changes by itself or differs per namespace by design.
VOLATILE = re.compile(r"random|seed|ns_last_pid|file-nr|inode-|dentry|stat|hostname|domainname|"
                      r"tainted|entropy|boot_id|uuid|_cnt$|count|version|nr_|perf_event|cad_pid|printk|sched_|"
                      r"conf\.(?!all\.|default\.)|neigh\.(?!default\.)|ip_local_port_range|base_reachable")
PREFIXES = ("net.ipv4.tcp_", "net.core.", "net.ipv4.ip", "net.ipv4.udp", "vm.", "kernel.")


class Rule:
    """One precondition: its TOML section and line, and the per-check command."""

    def __init__(self, section, toml_line, command, expect):
        self.section, self.toml_line, self.command, self.expect = section, toml_line, command, expect

    def holds(self, output):
        return " ".join(output.split()) == " ".join(self.expect.split())


def sysctls(pair, host):
    r = run(pair.in_ns(host, ["sysctl", "-a"]), timeout=30, check=False)
    out = {}
    for line in r.stdout.splitlines():
        key, sep, value = line.partition(" = ")
        if sep and value.strip() and key.startswith(PREFIXES) and not VOLATILE.search(key):
            out[key] = " ".join(value.split())
    return out


def toml_value(v):
    return v if re.fullmatch(r"-?\d{1,15}", v) else '"' + v.replace('"', '\\"') + '"'


def module_params(limit):
    """Built-in module parameters readable here (kernel-wide, same in both namespaces)."""
    found = []
    out = subprocess.run(["sh", "-c", "grep -H . /sys/module/*/parameters/* 2>/dev/null"],
                         capture_output=True, text=True, timeout=20).stdout
    for line in out.splitlines():
        m = re.match(r"/sys/module/([\w-]+)/parameters/([\w-]+):(\S+)$", line)
        if m and re.fullmatch(r"[\w.-]{1,20}", m.group(3)):
            found.append(m.groups())
    seen, picked = set(), []
    for mod, param, value in found:  # one parameter per module: spread over many modules
        if mod not in seen and len(picked) < limit:
            seen.add(mod)
            picked.append((mod, param, value))
    return picked


def build(pair, total=100):
    """Returns (rules, preconditions TOML text); `total` rules per host."""
    rules = []
    rel = run(pair.in_ns("a", ["uname", "-r"]), timeout=10).stdout.strip()
    rules.append(Rule("", f'kernel_release = "{rel}"', "uname -r", rel))
    if total < 20:
        die(f"--rules must be at least 20 (one of each kind and some sysctls), got {total}")
    for svc in SERVICES[:max(1, total * 15 // 100)]:
        # Testinfra's is_enabled on SysV: an S link in a runlevel directory; absent = disabled.
        rules.append(Rule("services", svc, f"ls /etc/rc[2345].d/S??{svc} 2>/dev/null | wc -l", "0"))
    for name, (driver, mtu) in INTERFACES.items():
        rules.append(Rule(f"interfaces.{name}", f'driver = "{driver}"',
                          f"ip -d -o link show {name} | grep -o ' {driver} ' | tr -d ' '", driver))
        rules.append(Rule(f"interfaces.{name}", f"mtu = {mtu}", f"cat /sys/class/net/{name}/mtu", str(mtu)))
        rules.append(Rule(f"interfaces.{name}", 'link = "up"', f"cat /sys/class/net/{name}/operstate", "up"))
    for mod, param, value in module_params(max(1, total // 10)):
        rules.append(Rule(f"modules.{mod}", f"parameters.{param} = \"{value}\"",
                          f"cat /sys/module/{mod}/parameters/{param}", value))
    a, b = sysctls(pair, "a"), sysctls(pair, "b")
    keys = sorted(k for k in a if b.get(k) == a[k])
    need = total - len(rules)
    if len(keys) < need:
        die(f"only {len(keys)} stable sysctls agree on both hosts, {need} needed")
    step = len(keys) / need  # spread over the namespaces' whole tree
    for i in range(need):
        k = keys[int(i * step)]
        rules.append(Rule("sysctl", f'"{k}" = {toml_value(a[k])}', f"sysctl -n {k}", a[k]))
    return rules, to_toml(rules)


def to_toml(rules):
    lines = ["[preconditions]", 'same_on_all_hosts = ["kernel_release"]']
    lines += [r.toml_line for r in rules if r.section == ""]
    lines += ["", "[preconditions.services]",
              "disabled = [" + ", ".join(f'"{r.toml_line}"' for r in rules if r.section == "services") + "]"]
    sections = []
    for r in rules:
        if r.section not in ("", "services") and r.section not in sections:
            sections.append(r.section)
    for s in sections:
        lines += ["", f"[preconditions.{s}]"]
        lines += [r.toml_line for r in rules if r.section == s]
    return "\n".join(lines) + "\n"

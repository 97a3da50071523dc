# Sourced by the end-to-end scripts: their work directory (results folders,
# profiles, outputs) under the build tree, removed when the script passes and
# kept when it fails, its path printed, so a failed CI run keeps its evidence.
#   e2e_work BIN_DIR NAME   sets $work (BIN_DIR/../e2e/NAME.XXXXXX)
#   e2e_work_done RC        in the EXIT trap, with the script's exit code
e2e_work() {
  local root
  root=$(cd "$1/.." && pwd)/e2e
  mkdir -p "$root" && work=$(mktemp -d "$root/$2.XXXXXX") || {
    echo "FAIL: cannot make a work directory under $root" >&2
    exit 1
  }
}
e2e_work_done() {
  if [ "$1" -eq 0 ] && [ -z "${KEEP:-}" ]; then
    rm -rf "$work"
  else
    echo "kept for inspection (exit $1): $work" >&2
    local d
    for d in "$work"/results/*/; do [ -d "$d" ] && echo "  results folder: ${d%/}" >&2; done
  fi
}
# The head of a profile for lab pair N as root (lab, ssh defaults, hosts a and
# b on the pair's IPv4 interconnect), for a script to append its tests to.
#   e2e_pair_profile N SOURCE_DIR > FILE
e2e_pair_profile() {
  local pair=$1 src=$2 base=$((($1 - 1) * 8))
  cat <<TOML
[lab]
name = "lab-pair$pair"
lease_wait = "120s"
[defaults.ssh]
user = "root"
identity = "$src/.lab/pair$pair/id_rsa"
known_hosts = "$src/.lab/pair$pair/known_hosts"
connect_timeout = "5s"
command_timeout = "60s"
probe_dir = "/tmp"
[hosts.a]
address = "198.18.0.$((base + 2))"
test_address = "198.19.$pair.1"
[hosts.b]
address = "198.18.0.$((base + 6))"
test_address = "198.19.$pair.2"
TOML
}

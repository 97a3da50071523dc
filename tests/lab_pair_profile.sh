# The part of a lab profile every lab script writes the same way: lab pair N's
# name, its root key and known_hosts, and its two hosts at ci/lab's addresses
# (management 198.18.0.(8(N-1)+2|6), interconnect 198.19.N.1|2, or with `ipv6`
# fd4c:6762:0:N::1|2). Source it, then: lab_pair_profile N [ipv4|ipv6] [DESCRIPTION]
# (needs $src, the source tree whose .lab/ holds the pair's keys).
lab_pair_profile() {
  local pair=$1 family=${2:-ipv4} description=${3:-}
  local base=$(((pair - 1) * 8)) test_a="198.19.$1.1" test_b="198.19.$1.2"
  if [ "$family" = ipv6 ]; then test_a="fd4c:6762:0:$pair::1" test_b="fd4c:6762:0:$pair::2"; fi
  cat <<TOML
[lab]
name = "lab-pair$pair"
${description:+description = \"$description\"}
lease_wait = "120s"

[defaults.ssh]
user = "root"
port = 22
identity = "$src/.lab/pair$pair/id_rsa"
known_hosts = "$src/.lab/pair$pair/known_hosts"
legacy_algorithms = false
accept_new_host_keys = false
connect_timeout = "5s"
command_timeout = "60s"
probe_dir = "/tmp"

[hosts.a]
address = "198.18.0.$((base + 2))"
test_address = "$test_a"

[hosts.b]
address = "198.18.0.$((base + 6))"
test_address = "$test_b"

TOML
}

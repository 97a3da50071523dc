# Profiles of a multicast feed on the mesh lab, for the lab tests and the bench
# (sourced): profiles/lab-mesh.toml's hosts and defaults, then feeds written here.

# mesh_profile_head SRC: profiles/lab-mesh.toml up to its first test, its ssh
# paths made absolute (the profile written from it lives elsewhere).
mesh_profile_head() {
  sed -e "s|\"\.\./\.lab/|\"$1/.lab/|" "$1/profiles/lab-mesh.toml" | awk '/^\[\[test\]\]/{exit} {print}'
}

# mesh_feed_test NAME RATE REPLY_EVERY DURATION BUDGET [MORE_KEYS]: m1's feed to
# m2..m6 on 239.1.1.1:5000, 500 ms of warm-up.
mesh_feed_test() {
  cat <<TOML
[[test]]
name = "$1"
kind = "udp_multicast"
from = "m1"
to = ["m2", "m3", "m4", "m5", "m6"]
group = "239.1.1.1:5000"
rate = "$2"
reply_every = $3
duration = "$4"
warmup = "500ms"
budget = $5
${6:-}
TOML
}

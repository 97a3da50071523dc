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

# host_tag_of LABGATE PROFILE HOST (sourced by the fault matrix and the security
# tests): prints the tag labgate puts in HOST's run and lease directory names,
# hk- and the first 16 hex digits of the SHA-256 of the host key it is shown,
# from the fingerprint `labgate keyscan` prints through labgate's own SSH stack.
# Returns 1 (printing why on stderr) when keyscan names no key for HOST.
host_tag_of() {
  local fp
  fp=$("$1" keyscan "$2" 2>&1 | sed -nE "s/^  host $3 \\(.*\\): [^ ]+ SHA256:([A-Za-z0-9+\\/]+).*/\\1/p" | head -1)
  [ -n "$fp" ] || { echo "labgate keyscan $2 printed no SHA256 fingerprint for host $3" >&2; return 1; }
  printf 'hk-%s\n' "$(printf '%s=' "$fp" | base64 -d 2>/dev/null | od -An -tx1 -N8 | tr -d ' \n')"
}

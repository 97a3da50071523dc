// Deployment's remote shell scripts (see remote_scripts.h).
#include "remote_scripts.h"

#include "labgate/transport/remote_dir.h"
#include "labgate/transport/shell_quote.h"
#include "labgate/transport/stat_line.h"

namespace labgate::deploy {

namespace {

// marked DIR: pids of every process carrying the run's marker (one grep over all
// of /proc, not one per process), whatever group or session it moved to.
// stop_dir DIR GRACE: kill the recorded groups and every marked process (setsid'd
// descendants leave the group but keep the environment), wait, KILL the rest,
// remove DIR.
constexpr const char* kStopDir = R"SH(
marked() {
  grep -lxzF "LABGATE_RUN=$1" /proc/[0-9]*/environ 2>/dev/null | sed -n 's|^/proc/\([0-9]*\)/environ$|\1|p'
}
stop_dir() {
  d=$1; grace=$2
  [ -d "$d" ] && [ ! -h "$d" ] || return 0
  pgids=
  if [ -f "$d/pgids" ] && [ ! -h "$d/pgids" ]; then
    for p in $(cat "$d/pgids"); do
      case $p in ''|*[!0-9]*) continue ;; esac
      [ "$p" -gt 1 ] || continue
      # A live leader must carry our marker; a gone or zombie one reads as empty.
      env_of=$(tr '\0' '\n' < "/proc/$p/environ" 2>/dev/null)
      case "$env_of" in
        '') ;;
        *"LABGATE_RUN=$d"*) ;;
        *) continue ;;
      esac
      kill -TERM -$p 2>/dev/null && pgids="$pgids $p"
    done
  fi
  strays=
  for p in $(marked "$d"); do kill -TERM $p 2>/dev/null && strays="$strays $p"; done
  n=0
  while [ -n "$pgids$strays" ] && [ $n -lt "$grace" ]; do
    alive=
    for p in $pgids; do kill -0 -$p 2>/dev/null && alive="$alive $p"; done
    pgids=$alive
    alive=
    for p in $strays; do kill -0 $p 2>/dev/null && alive="$alive $p"; done
    strays=$alive
    [ -n "$pgids$strays" ] || break
    sleep 0.1
    n=$((n+1))
  done
  for p in $pgids; do kill -KILL -$p 2>/dev/null; done
  # Whatever still carries the marker now (started during the wait) goes too.
  for p in $(marked "$d"); do kill -KILL $p 2>/dev/null; done
  rm -rf "$d"
}
)SH";

// The machine a run directory was made on, in its file "boot": on storage several
// machines mount, cloned images present one host key and so one directory
// prefix. The boot id (random at every boot) tells machines apart; the network
// namespace (where the kernel has them) tells apart hosts that share one kernel.
constexpr const char* kMachine = R"SH(
machine() {
  b=$(cat /proc/sys/kernel/random/boot_id 2>/dev/null) && [ -n "$b" ] || return 1
  echo "$b $(readlink /proc/self/ns/net 2>/dev/null)"
}
)SH";

// sweepable DIR: its run is provably over. Made on this machine in this boot (and
// we hold this host's lease, so no run of it is live); or, without a boot file (an
// older labgate's, or one being made this instant), over a minute old. Never a
// directory another machine made: a clone sharing the storage may be using it.
constexpr const char* kSweepable = R"SH(
me=$(machine)
sweepable() {
  if [ -f "$1/boot" ] && [ ! -h "$1/boot" ]; then
    [ -n "$me" ] && [ "$(cat "$1/boot" 2>/dev/null)" = "$me" ]
    return
  fi
  [ -n "$(find "$1" -maxdepth 0 -mmin +1 2>/dev/null)" ]
}
)SH";

// After the mkdir, in the same request (issue 23: a round trip each was three):
// "uid N" and "stat ..." of the run directory $rd (what the caller checks, in
// kStatFormat), then its files: the machine's stamp into $rd/boot (kMachine) and
// the owner note $note into $rd/owner, written only once this
// shell has made the caller's checks itself: $rd a directory, not a symlink,
// ours, mode 0700, and every directory from $pd up owned by root or us, so
// nobody else could have swapped $rd for a symlink since (docs/security.md, 4).
// Else "owner refused: WHY" and no note ("write failed": the shell's message on
// stderr, the caller diagnoses). noclobber: never over a planted name.
std::string stat_check_and_note() {
  return std::string(R"SH(
u=$(id -u); echo "uid $u"
s=$(stat -c ')SH") + transport::kStatFormat + R"SH(' -- "$rd" 2>/dev/null) || s=ABSENT
echo "stat $s"
why=
if [ -h "$rd" ] || [ ! -d "$rd" ]; then why="$rd is not a directory"
else
  m=$(stat -c '%u %a' -- "$rd")
  [ "$m" = "$u 700" ] || why="$rd has owner and mode $m, not $u 700"
fi
p=$pd
while [ -z "$why" ] && [ -n "$p" ]; do
  o=$(stat -c %u -- "$p") || o=unknown
  [ "$o" = 0 ] || [ "$o" = "$u" ] || why="$p is owned by uid $o"
  [ ! -h "$p" ] || why="$p is a symlink"
  p=${p%/*}
done
if [ -z "$why" ]; then
  (umask 077; set -C
   if b=$(machine); then echo "$b" > "$rd/boot" || exit 1; fi
   printf '%s\n' "$note" > "$rd/owner") && echo "owner written" || why="write failed"
fi
[ -z "$why" ] || echo "owner refused: $why"
exit 0
)SH";
}

}  // namespace

namespace {

// The run directory's script's arguments: its own, then probe_dir's components
// for dir_safe (issue 23: probe_dir resolved in the same request).
std::vector<std::string> with_probe_dir_paths(std::vector<std::string> args, const std::string& probe_dir) {
  const auto paths = transport::remote_dir_paths(probe_dir);
  args.insert(args.end(), paths.begin(), paths.end());
  return args;
}

}  // namespace

std::vector<std::string> make_private_dir_argv(const std::string& dir, const std::string& probe_dir,
                                              const std::string& owner_note) {
  return transport::sh_argv(std::string(kMachine) + transport::dir_safe_shell() +
                                "rd=$1 pd=$2 note=$3\nshift 3\ndir_safe \"$@\" || exit 0\n"
                                "mkdir -m 0700 \"$rd\" || exit 1" +
                                stat_check_and_note(),
                            with_probe_dir_paths({dir, probe_dir, owner_note}, probe_dir));
}

std::vector<std::string> sweep_and_make_private_dir_argv(const std::string& dir, const std::string& probe_dir,
                                                         const std::string& prefix, const std::string& owner_note,
                                                         int grace_tenths) {
  return transport::sh_argv(std::string(kStopDir) + kMachine + kSweepable + transport::dir_safe_shell() + R"SH(
rd=$1 pd=$2 pre=$3 grace=$4 note=$5
shift 5
dir_safe "$@" || exit 0
for d in "$pd"/"$pre"*; do
  [ -d "$d" ] && [ ! -h "$d" ] && [ -O "$d" ] || continue
  if sweepable "$d"; then stop_dir "$d" "$grace" && echo "swept $d"; else echo "kept $d"; fi
done
mkdir -m 0700 "$rd" || exit 1)SH" +
                                stat_check_and_note(),
                            with_probe_dir_paths({dir, probe_dir, prefix, std::to_string(grace_tenths), owner_note},
                                                 probe_dir));
}

std::string probe_cache_dir(const std::string& probe_dir, const std::string& tag, long uid) {
  return (probe_dir == "/" ? "" : probe_dir) + "/labgate-probe-cache." + tag + "-u" + std::to_string(uid);
}

namespace {

// ours_private DIR: a directory, not a symlink, owned by us with mode 0700: only
// we (and root) can have put anything in it.
constexpr const char* kOursPrivate = R"SH(
ours_private() {
  [ -d "$1" ] && [ ! -h "$1" ] && [ "$(stat -c '%u %a' -- "$1" 2>/dev/null)" = "$(id -u) 700" ]
}
)SH";

}  // namespace

std::vector<std::string> cached_probe_argv(const std::string& run_dir, const std::string& file,
                                           const std::string& cache_dir, const std::string& name,
                                           const std::string& digest) {
  return transport::sh_argv(std::string(kOursPrivate) + R"SH(
rd=$1 f=$2 cd=$3 want=$5
c="$cd/$4.$want"
if ours_private "$cd" && [ -f "$c" ] && [ ! -h "$c" ]; then
  # Where the host has sha256sum, bytes that are not what the name says are
  # never run (a copy cut short by a full disk, edited by hand).
  if command -v sha256sum >/dev/null 2>&1 && [ "$(sha256sum < "$c" 2>/dev/null | cut -c1-64)" != "$want" ]; then
    rm -f -- "$c"
  elif (umask 077; set -C; cat -- "$c" > "$f") 2>/dev/null && cmp -s -- "$c" "$f" && chmod 0700 -- "$f"; then
    d=$(env LABGATE_RUN="$rd" "$f" --self-digest 2>/dev/null)
    if [ "$d" = "$want" ]; then echo "cached $d"; exit 0; fi
    rm -f -- "$c"
  fi
  rm -f -- "$f"
fi
echo absent
)SH",
                            {run_dir, file, cache_dir, name, digest});
}

std::vector<std::string> verify_and_cache_probe_argv(const std::string& file, const std::string& cache_dir,
                                                     const std::string& name, const std::string& digest) {
  return transport::sh_argv(std::string(kOursPrivate) + R"SH(
cd=$1 n=$2 want=$3 f=$4
chmod 0700 -- "$f" || exit 1
d=$("$f" "$5"); s=$?
printf '%s\n' "$d"
[ "$s" = 0 ] && [ "$d" = "$want" ] || exit "$s"
{
  [ -e "$cd" ] || [ -h "$cd" ] || (umask 077; mkdir -m 0700 -- "$cd")
  ours_private "$cd" || exit 0
  t="$cd/.part.$$"
  rm -f -- "$t"
  if (umask 077; set -C; cat -- "$f" > "$t") && cmp -s -- "$f" "$t" && mv -f -- "$t" "$cd/$n.$want"; then
    for o in "$cd/$n".*; do
      x=${o#"$cd/$n."}
      case $x in "$want"|*[!0-9a-f]*) continue ;; esac
      [ ${#x} = 64 ] && rm -f -- "$o"
    done
  else
    rm -f -- "$t"
  fi
} >/dev/null 2>&1
exit 0
)SH",
                            {cache_dir, name, digest, file, "--self-digest"});
}

std::vector<std::string> cleanup_dir_argv(const std::string& dir, int grace_tenths) {
  return transport::sh_argv(std::string(kStopDir) + "stop_dir \"$1\" \"$2\"",
                            {dir, std::to_string(grace_tenths)});
}

std::vector<std::string> cleanup_dir_then_argv(const std::string& dir, const std::vector<std::string>& then,
                                               int grace_tenths) {
  std::vector<std::string> args{dir, std::to_string(grace_tenths)};
  args.insert(args.end(), then.begin(), then.end());
  return transport::sh_argv(std::string(kStopDir) + R"SH(
stop_dir "$1" "$2"; s=$?
shift 2
"$@"; echo "labgate-then $?"
exit $s
)SH",
                            args);
}

std::vector<std::string> sweep_leftovers_argv(const std::string& probe_dir, const std::string& prefix,
                                              const std::string& keep, int grace_tenths) {
  return transport::sh_argv(std::string(kStopDir) + kMachine + kSweepable + R"SH(
for d in "$1"/"$2"*; do
  [ "$d" = "$3" ] && continue
  [ -d "$d" ] && [ ! -h "$d" ] && [ -O "$d" ] || continue
  if sweepable "$d"; then stop_dir "$d" "$4" && echo "$d"; else echo "kept $d" >&2; fi
done
exit 0
)SH",
                            {probe_dir, prefix, keep, std::to_string(grace_tenths)});
}

}  // namespace labgate::deploy

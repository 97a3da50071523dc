#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan+UBSan) outside the main CMake
# build, replays the regression inputs, then fuzzes each target for SECONDS.
# Usage: tests/fuzz/run.sh [SECONDS]   (default 20; exit 1 on any crash)
set -euo pipefail

SECONDS_PER_TARGET="${1:-20}"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
BUILD="${LABGATE_FUZZ_BUILD:-$ROOT/build/fuzz}"
CXX="${CXX_FUZZ:-clang++}"
CC_="${CC_FUZZ:-clang}"
# The main build's compiler cache, when ci/test set one (CMAKE_CXX_COMPILER_LAUNCHER):
# no compile line below holds the clone's path except through -I, which
# CCACHE_BASEDIR makes relative, so a fresh clone hits what the last one built.
LAUNCHER="${CMAKE_CXX_COMPILER_LAUNCHER:-}"
mkdir -p "$BUILD"

# Each target: the harness concepts it links (static archives; the linker pulls
# only the objects it needs, so tool_driver's SSH code never gets linked) and
# the longest input worth generating.
declare -A LIBS=(
  [profile]="profile util"
  [units]="util"
  [facts]="facts util"
  [probe_output]="storage/disk_probe cmdlatency measure profile stats util"
  [netperf]="tools measure profile stats util"
  [sockperf]="tools measure profile stats util"
  [iperf3]="tools measure profile stats util"
  [outliers]=""
  [stream_gaps]="stats"
)
# Concepts a target links as objects, not an archive: the test kinds register
# themselves from static initialisers, which an archive's unreferenced objects
# would never run. Compiled with their profile side only (LABGATE_PROFILE_ONLY),
# so the profile fuzzer reads every kind's keys and checks without the gate.
declare -A OBJ_CONCEPTS=(
  [profile]="kinds"
)
# Probe (C) sources a target compiles itself, beside the harness archives.
declare -A PROBE_SRCS=(
  [outliers]="common/lg_outliers.c common/lg_measure_util.c"
  [stream_gaps]="stream/st_gaps.c common/lg_outliers.c common/lg_moment.c common/lg_measure_util.c"
)
declare -A MAXLEN=(
  [profile]=16384 [units]=64 [facts]=16384 [probe_output]=16384
  [netperf]=8192 [sockperf]=8192 [iperf3]=32768 [outliers]=4096 [stream_gaps]=4096
)
TARGETS=(units profile facts probe_output netperf sockperf iperf3 outliers stream_gaps)

version="$(sed -n 's/^project(labgate VERSION \([0-9.]*\).*/\1/p' "$ROOT/CMakeLists.txt")"
san="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
# -Wno-unused-command-line-argument: the pkg-config flags include -pthread at link.
cflags="-g -O1 $san -fsanitize=fuzzer-no-link -I$ROOT/harness/include -I$ROOT/harness/src -I$ROOT/probes/common \
-DLABGATE_VERSION=\\\"$version\\\" \
$(pkg-config --cflags tomlplusplus spdlog fmt nlohmann_json)"
ldlibs="$(pkg-config --libs tomlplusplus spdlog fmt) -pthread"

# --- build: a generated ninja file gives parallel, header-aware rebuilds ------
ninja_file="$BUILD/build.ninja"
{
  echo "cflags = $cflags"
  echo "rule cxx"
  echo "  command = $LAUNCHER $CXX -std=c++20 -MD -MF \$out.d \$cflags -c \$in -o \$out"
  echo "  depfile = \$out.d"
  echo "  deps = gcc"
  echo "rule cc"
  echo "  command = $LAUNCHER $CC_ -std=gnu99 -MD -MF \$out.d \$cflags -c \$in -o \$out"
  echo "  depfile = \$out.d"
  echo "  deps = gcc"
  echo "rule ar"
  echo "  command = rm -f \$out && ar rcs \$out \$in"
  echo "rule link"
  echo "  command = $CXX $san -fsanitize=fuzzer \$in -o \$out $ldlibs"
  # An entry CONCEPT/FILE is that one source of the concept (its other files,
  # e.g. storage's regex-heavy sysbench parser, are not compiled for nothing).
  concepts=$(for t in "${TARGETS[@]}"; do echo ${LIBS[$t]}; done | tr ' ' '\n' | sort -u)
  for c in $concepts; do
    objs=()
    dir="${c%%/*}" only=""
    [[ "$c" == */* ]] && only="${c#*/}"
    for src in "$ROOT"/harness/src/"$dir"/*.cc "$ROOT"/harness/src/"$dir"/*.c; do
      [[ -e "$src" ]] || continue
      case "$src" in *_test.cc | *_bench.cc) continue ;; esac
      [[ -z "$only" || "$(basename "$src")" == "$only".* ]] || continue
      obj="obj/$dir/$(basename "$src").o"
      rule=cxx; [[ "$src" == *.c ]] && rule=cc
      echo "build $obj: $rule $src"
      objs+=("$obj")
    done
    echo "build lib/liblabgate_${c//\//_}.a: ar ${objs[*]}"
  done
  declare -A obj_built=()
  for t in "${TARGETS[@]}"; do
    for c in ${OBJ_CONCEPTS[$t]:-}; do
      for src in "$ROOT"/harness/src/"$c"/*.cc; do
        case "$src" in *_test.cc | *_bench.cc) continue ;; esac
        obj="obj/$c-profile/$(basename "$src").o"
        [[ -n "${obj_built[$obj]:-}" ]] && continue
        obj_built[$obj]=1
        echo "build $obj: cxx $src"
        echo "  cflags = \$cflags -DLABGATE_PROFILE_ONLY"
      done
    done
  done
  declare -A probe_built=()
  for t in "${TARGETS[@]}"; do
    echo "build obj/fuzz/${t}_fuzz.o: cxx $HERE/${t}_fuzz.cc"
    archives="" objects=""
    for c in ${LIBS[$t]}; do archives+=" lib/liblabgate_${c//\//_}.a"; done
    for src in ${PROBE_SRCS[$t]:-}; do
      obj="obj/probes/${src//\//_}.o"
      if [[ -z "${probe_built[$obj]:-}" ]]; then  # one rule per object, whatever targets share it
        probe_built[$obj]=1
        echo "build $obj: cc $ROOT/probes/$src"
        echo "  cflags = \$cflags -D_GNU_SOURCE"
      fi
      objects+=" $obj"
    done
    for c in ${OBJ_CONCEPTS[$t]:-}; do
      for src in "$ROOT"/harness/src/"$c"/*.cc; do
        case "$src" in *_test.cc | *_bench.cc) continue ;; esac
        objects+=" obj/$c-profile/$(basename "$src").o"
      done
    done
    # The probe objects before the archives, so the linker pulls what they call.
    echo "build bin/${t}_fuzz: link obj/fuzz/${t}_fuzz.o$objects$archives"
  done
} >"$ninja_file.new"
mv "$ninja_file.new" "$ninja_file"
if ! ninja -C "$BUILD" -j "${FUZZ_JOBS:-2}" >"$BUILD/build.log" 2>&1; then
  tail -n 60 "$BUILD/build.log"
  echo "FUZZ BUILD FAILED (log $BUILD/build.log)"
  exit 1
fi

# --- seed corpora from the repository ---------------------------------------
seeds="$BUILD/seeds"
rm -rf "$seeds"
mkdir -p "$seeds"
for t in "${TARGETS[@]}"; do mkdir -p "$seeds/$t"; done
seed() {  # seed TARGET FILE... : copy each file into the target's seed dir
  local t="$1"; shift
  for f in "$@"; do [[ -f "$f" ]] && cp "$f" "$seeds/$t/$(echo "${f#$ROOT/}" | tr / _)"; done
  return 0
}
tool_seed() {  # the tool targets read one leading byte (the expected kind; 0xff = none)
  local t="$1"; shift
  for f in "$@"; do
    [[ -f "$f" ]] || continue
    { printf '\377'; cat "$f"; } >"$seeds/$t/$(echo "${f#$ROOT/}" | tr / _)"
  done
}
shopt -s nullglob globstar
seed profile "$ROOT"/profiles/*.toml "$ROOT"/tests/fixtures/profiles/* "$ROOT"/tests/fixtures/tools/*.toml
# Units: every quoted unit value the shipped profiles use, one per file.
grep -ohE '"[0-9][0-9.]*[A-Za-z%/]+[A-Za-z/]*"' "$ROOT"/profiles/*.toml "$ROOT"/tests/fixtures/profiles/* |
  tr -d '"' | sort -u | head -200 | { i=0; while read -r v; do printf '%s' "$v" >"$seeds/units/u$i"; i=$((i + 1)); done; }
# Facts: the snapshot the reader's unit test is built on.
sed -n '/kSnapshot = R"j(/,/^})j";/p' "$ROOT/harness/src/facts/parse_test.cc" |
  sed -e '1s/.*R"j(//' -e '$s/)j";$//' >"$seeds/facts/parse_test_snapshot.json"
seed probe_output "$ROOT"/harness/src/measure/testdata/* "$ROOT"/harness/src/storage/testdata/* "$ROOT"/harness/src/cmdlatency/testdata/*
tool_seed netperf "$ROOT"/tests/fixtures/tools/netperf/*
tool_seed sockperf "$ROOT"/tests/fixtures/tools/sockperf/*
tool_seed iperf3 "$ROOT"/tests/fixtures/tools/iperf3/*

# --- replay regressions, then fuzz -------------------------------------------
status=0
summary=()
for t in "${TARGETS[@]}"; do
  bin="$BUILD/bin/${t}_fuzz"
  regs=("$HERE"/regressions/"$t"/*)
  if ((${#regs[@]})); then
    if ! "$bin" -rss_limit_mb=2048 -timeout=10 "${regs[@]}" >"$BUILD/$t.replay.log" 2>&1; then
      echo "FUZZ REGRESSION: $t fails on a file in tests/fuzz/regressions/$t (log $BUILD/$t.replay.log)"
      tail -n 30 "$BUILD/$t.replay.log"
      status=1
    fi
  fi
  corpus="$BUILD/corpus/$t"
  crashes="$BUILD/crashes/$t"
  mkdir -p "$corpus" "$crashes"
  log="$BUILD/$t.log"
  echo "== fuzzing $t for ${SECONDS_PER_TARGET}s"
  # A fixed seed makes a CI run explore the same way each time (LABGATE_FUZZ_SEED varies it).
  if ! "$bin" -seed="${LABGATE_FUZZ_SEED:-1}" -max_total_time="$SECONDS_PER_TARGET" -max_len="${MAXLEN[$t]}" -rss_limit_mb=2048 \
      -timeout=10 -print_final_stats=1 -artifact_prefix="$crashes/" \
      "$corpus" "$seeds/$t" >"$log" 2>&1; then
    input="$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -n 1)"
    echo "FUZZ CRASH: $t, input ${input:-<none written>} (log $log)"
    grep -m1 -A 25 -E 'ERROR: |runtime error|uncaught exception|terminate called' "$log" || tail -n 30 "$log"
    status=1
  fi
  execs="$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")"
  units="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")"
  summary+=("$(printf '%-13s %10s execs/s %12s execs %6s corpus files' "$t" "${execs:-?}" "${units:-?}" \
    "$(find "$corpus" -type f | wc -l)")")
done
echo "== fuzz summary (${SECONDS_PER_TARGET}s per target)"
printf '%s\n' "${summary[@]}"
exit "$status"

#!/usr/bin/env bash
# Runs every example scenario and every CLI command (scripts/output_commands.txt)
# with the aifabric of this checkout and with that of an earlier commit, and
# checks that they write the same bytes: every output file, the exit code,
# stdout and stderr. What only the machine decides is masked before the
# comparison: the wall_s and events_per_s figures (summary.json, compare -J),
# and on the printed lines the wall seconds, events per second, peak memory
# and the wall-time row of `aifabric compare`.
#
#   scripts/compare_outputs.sh REV [--quick] [--keep DIR] [--base-binary FILE]
#
# REV: the commit to compare against (the layers refactor was checked against
# 7407b5c). Its aifabric is built in a temporary git worktree; this
# checkout's is build/src/cli/aifabric, built first if missing. --quick skips
# the lines of the command list marked "slow" (the two scale training steps).
# --keep DIR keeps both output trees there. --base-binary FILE uses an
# aifabric already built at REV instead of building it. Exit 0 if
# everything matches, 1 and the differing files otherwise.
set -euo pipefail

usage() { echo "usage: $0 REV [--quick] [--keep DIR] [--base-binary FILE]" >&2; exit 2; }
[ $# -ge 1 ] || usage
rev="$1"; shift
quick=0
keep=""
base_bin=""
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=1 ;;
    --keep) [ $# -ge 2 ] || usage; keep="$2"; shift ;;
    --base-binary) [ $# -ge 2 ] || usage; base_bin="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"; shift ;;
    *) usage ;;
  esac
  shift
done

repo="$(cd "$(dirname "$0")/.." && pwd)"
jobs="${JOBS:-2}"
work="$(mktemp -d /tmp/aifabric-compare.XXXXXX)"
base_tree="$work/base-tree"
cleanup() {
  git -C "$repo" worktree remove --force "$base_tree" >/dev/null 2>&1 || true
  if [ -z "$keep" ]; then rm -rf "$work"; fi
}
trap cleanup EXIT

build_aifabric() {  # build_aifabric SOURCE_DIR BUILD_DIR
  cmake -S "$1" -B "$2" -DCMAKE_BUILD_TYPE=Release >"$2.configure.log" 2>&1 || { cat "$2.configure.log"; exit 1; }
  cmake --build "$2" -j"$jobs" --target aifabric >"$2.build.log" 2>&1 || { tail -40 "$2.build.log"; exit 1; }
}

if [ -z "$base_bin" ]; then
  echo "compare_outputs: building aifabric at $rev"
  git -C "$repo" worktree add --detach "$base_tree" "$rev" >/dev/null 2>&1
  # report.html embeds ECharts from web/report/node_modules.
  if [ -d "$repo/web/report/node_modules" ] && [ ! -e "$base_tree/web/report/node_modules" ]; then
    ln -s "$repo/web/report/node_modules" "$base_tree/web/report/node_modules"
  fi
  mkdir -p "$work/base-build"
  build_aifabric "$base_tree" "$work/base-build"
  base_bin="$work/base-build/src/cli/aifabric"
fi
head_bin="$repo/build/src/cli/aifabric"
if [ ! -x "$head_bin" ]; then
  echo "compare_outputs: building this checkout's aifabric"
  build_aifabric "$repo" "$repo/build"
fi

# Masks what the machine decides, in place.
normalize() {  # normalize DIR
  find "$1" -type f -name '*.json' -print0 | xargs -0 -r perl -0pi -e \
    's/("(?:wall_s|events_per_s)": )(\[[^\]]*\]|[-+0-9.eE]+)/$1"<masked>"/g'
  find "$1" -type f \( -name 'stdout' -o -name 'stderr' \) -print0 | xargs -0 -r perl -pi -e '
    s/in [0-9.]+ s wall/in <masked> s wall/g;
    s/[0-9.]+ M events\/s/<masked> M events\/s/g;
    s/peak memory [0-9]+ MiB/peak memory <masked> MiB/g;
    s/^(wall_s \(this machine\)).*/$1 <masked>/;
    $_ = "" if /^progress: /;'
}

# Runs every command of the list with one binary, each in its own folder
# under a run folder that links the inputs, so paths read the same.
run_all() {  # run_all BINARY OUT_DIR
  local bin="$1" out="$2" n=0
  mkdir -p "$out"
  while IFS= read -r line; do
    case "$line" in ''|'#'*) continue ;; esac
    if [ "$quick" = 1 ] && [[ "$line" == slow\ * ]]; then continue; fi
    line="${line#slow }"
    n=$((n + 1))
    local dir="$work/run"
    rm -rf "$dir"
    mkdir -p "$dir"
    ln -s "$repo/examples" "$dir/examples"
    ln -s "$repo/data" "$dir/data"
    (cd "$dir" && set +e && aifabric() { "$bin" "$@"; } && eval "$line" >stdout 2>stderr; echo $? >exit_code) || true
    rm "$dir/examples" "$dir/data"
    printf '%s\n' "$line" >"$dir/command"
    mv "$dir" "$out/$(printf '%03d' "$n")"
  done <"$repo/scripts/output_commands.txt"
  normalize "$out"
}

echo "compare_outputs: running the commands with $rev"
run_all "$base_bin" "$work/before"
echo "compare_outputs: running the commands with this checkout"
run_all "$head_bin" "$work/after"

if [ -n "$keep" ]; then
  mkdir -p "$keep"
  rm -rf "$keep/before" "$keep/after"
  cp -r "$work/before" "$work/after" "$keep/"
fi
commands=$(ls "$work/before" | wc -l)
files=$(find "$work/before" -type f | wc -l)
if diff -rq "$work/before" "$work/after" >"$work/diff.txt"; then
  echo "compare_outputs: identical: $commands commands, $files files (exit codes, stdout, stderr and outputs) against $rev"
  exit 0
fi
echo "compare_outputs: DIFFERENT against $rev:"
sed "s|$work/||g" "$work/diff.txt"
exit 1

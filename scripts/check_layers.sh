#!/usr/bin/env bash
# Checks the shape of the code against docs/architecture.md: every src/
# folder includes only the folders it may use (the table below, read
# top-down cli -> server -> plan/observe -> report -> run -> scenario -> libraries), and no source
# file (tests aside) is longer than 600 lines. Tests (*_test.cc) and the
# test helpers beside them may use more. Prints every breach; exit 1 if any.
#   scripts/check_layers.sh [SRC_DIR]
set -euo pipefail
src="${1:-$(cd "$(dirname "$0")/.." && pwd)/src}"

declare -A may_use=(
  [core]=""
  [engine]="core"
  [telemetry]="core engine"
  [fabric]="core engine"
  [packet]="core engine fabric telemetry"
  [transport]="core engine fabric packet telemetry"
  [flow]="core engine fabric telemetry"
  [diagnosis]="core fabric"
  [workload]="core engine fabric"
  [sched]="core engine fabric flow workload"
  [chakra]="core fabric workload"
  [scenario]="core engine fabric packet transport workload sched"
  [run]="scenario core engine telemetry fabric packet transport flow diagnosis workload sched chakra"
  [report]="run scenario core engine telemetry fabric packet transport flow diagnosis workload sched chakra"
  [observe]="core telemetry fabric diagnosis scenario report"
  [plan]="report run scenario core engine telemetry fabric packet transport flow diagnosis workload sched chakra"
  [server]="plan observe report run scenario core telemetry fabric diagnosis"
  [calibrate]="run scenario core engine fabric workload"
  [cli]="server plan observe calibrate report run scenario core"
)
max_lines=600
breaches=0

for dir in "$src"/*/; do
  folder="$(basename "$dir")"
  if [ -z "${may_use[$folder]+set}" ]; then
    echo "check_layers: src/$folder is not in the table of who may use whom"
    breaches=$((breaches + 1))
    continue
  fi
  allowed=" $folder ${may_use[$folder]} "
  for file in "$dir"*.h "$dir"*.cc; do
    [ -e "$file" ] || continue
    case "$(basename "$file")" in *_test.cc|*test*.h|fake_*.h) continue ;; esac
    while IFS= read -r used; do
      if [[ "$allowed" != *" $used "* ]]; then
        echo "check_layers: src/$folder/$(basename "$file") includes $used/, which src/$folder may not use"
        breaches=$((breaches + 1))
      fi
    done < <(sed -n 's|^#include "\([a-z_]*\)/.*"|\1|p' "$file" | sort -u)
    lines=$(wc -l <"$file")
    if [ "$lines" -gt "$max_lines" ]; then
      echo "check_layers: src/$folder/$(basename "$file") has $lines lines (at most $max_lines)"
      breaches=$((breaches + 1))
    fi
  done
done

if [ "$breaches" -gt 0 ]; then
  echo "check_layers: $breaches breach(es)"
  exit 1
fi
echo "check_layers: every folder includes only what it may use; no source file over $max_lines lines"

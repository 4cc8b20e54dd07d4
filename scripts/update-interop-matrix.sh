#!/usr/bin/env bash
# Runs the whole of suites/interop as docs/interop.md says (two jobs) and
# keeps what the docs' stacks × behaviours matrix is generated from:
# docs/interop-last-run.json, the run's JSON report cut to its
# `conform_version`, `totals` and `interop.behaviours` (the whole report,
# every run's checks and evidence, is megabytes), with a `recorded` member
# saying what was run, when, and its wall time. Then rewrites the docs'
# generated sections (scripts/update-docs.sh).
#
#   scripts/update-interop-matrix.sh [BUILD_DIR]     (BUILD_DIR: build)
#
# --from REPORT.json keeps the matrix of a run already made instead: its
# wall time is then unknown, and its command is COMMAND (default: "conform
# run suites/interop -j 2").
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
from=
if [[ "${1:-}" == --from ]]; then from=$(realpath "$2"); shift 2; fi
build=$(cd "${1:-$root/build}" && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

command="conform run suites/interop -j 2"
if [[ -z "$from" ]]; then
  start=$(date +%s.%N)
  (cd "$root" && "$build/conform" run suites/interop -j 2 --out "$out/runs" --json "$out/report.json" \
    >"$out/console.txt") || [[ $? == 1 ]]  # 1: some case failed, as expected of third-party stacks
  wall=$(echo "$(date +%s.%N) - $start" | bc)
  from=$out/report.json
else
  command=${COMMAND:-$command}
  wall=
fi

python3 - "$from" "$root/docs/interop-last-run.json" "$command" "$(date -u +%F)" "$wall" <<'PY'
import json, sys
src, dst, command, date, wall = sys.argv[1:]
report = json.load(open(src))
kept = {
    "conform_version": report["conform_version"],
    "recorded": {"command": command, "date": date, "wall_s": round(float(wall), 1) if wall else None},
    "totals": report["totals"],
    "interop": {"behaviours": report["interop"]["behaviours"]},
}
with open(dst, "w") as f:
    json.dump(kept, f, indent=1, ensure_ascii=False)
    f.write("\n")
PY
echo "wrote docs/interop-last-run.json ($(wc -c <"$root/docs/interop-last-run.json") bytes)"
"$root/scripts/update-docs.sh" "$build"

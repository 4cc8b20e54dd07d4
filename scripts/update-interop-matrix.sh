#!/usr/bin/env bash
# Runs the whole of suites/interop as docs/interop.md says (conform's
# default jobs: three per CPU, written out in the recorded command) and
# keeps what the docs' stacks × behaviours matrix is generated from:
# docs/interop-last-run.json, the run's JSON report cut to its
# `conform_version`, `totals` and `interop.behaviours` (the whole report,
# every run's checks and evidence, is megabytes), with a `recorded` member
# saying what was run, the day, and its wall time. Then rewrites the docs'
# generated sections (scripts/update-docs.sh).
#
#   scripts/update-interop-matrix.sh [--from REPORT.json] [BUILD_DIR]   (BUILD_DIR: build)
#
# --from keeps the matrix of a run already made instead: its `recorded`
# when it has one (a file this script wrote), else its command is COMMAND
# (default: "conform run suites/interop -j N", N three per CPU here), its day the report file's,
# and its wall time unknown. The new file replaces the old only once
# `conform report --markdown` has read it; a failure leaves the docs as
# they were and exits 2.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
fail() { echo "update-interop-matrix.sh: $*" >&2; exit 2; }
from=
if [[ "${1:-}" == --from ]]; then
  [[ $# -ge 2 ]] || fail "--from needs the JSON report of a run"
  [[ -f "$2" ]] || fail "$2: not a regular file"
  from=$(realpath "$2")
  shift 2
fi
build=$(cd "${1:-$root/build}" && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

jobs=$((3 * $(nproc)))
command="conform run suites/interop -j $jobs"
wall=
if [[ -z "$from" ]]; then
  start=$(date +%s.%N)
  (cd "$root" && "$build/conform" run suites/interop -j "$jobs" --out "$out/runs" --json "$out/report.json" \
    >"$out/console.txt") || [[ $? == 1 ]]  # 1: some case failed, as expected of third-party stacks
  wall=$(echo "$(date +%s.%N) - $start" | bc)
  from=$out/report.json
else
  command=${COMMAND:-$command}
fi

kept=$out/interop-last-run.json
python3 - "$from" "$kept" "$command" "$wall" 2>"$out/python.err" <<'PY' || fail "$from: not the JSON report of a run with interop cases"
import datetime, json, os, sys
src, dst, command, wall = sys.argv[1:]
report = json.load(open(src))
recorded = report.get("recorded") or {
    "command": command,
    "date": datetime.date.fromtimestamp(os.path.getmtime(src)).isoformat(),
    "wall_s": round(float(wall), 1) if wall else None,
}
kept = {
    "conform_version": report["conform_version"],
    "recorded": recorded,
    "totals": report["totals"],
    "interop": {"behaviours": report["interop"]["behaviours"]},
}
with open(dst, "w") as f:
    json.dump(kept, f, indent=1, ensure_ascii=False)
    f.write("\n")
PY
"$build/conform" report "$kept" --markdown "$out/check.md" || fail "the matrix was not kept"
mv "$kept" "$root/docs/interop-last-run.json"
echo "wrote docs/interop-last-run.json ($(wc -c <"$root/docs/interop-last-run.json") bytes)"
"$root/scripts/update-docs.sh" "$build"

#!/bin/sh
# The whole of suites/interop (every pair of every workload, real programs
# through the loopback relay) as a user runs it, `conform run
# suites/interop`: prints the closing lines, the jobs, the wall time against
# the 180 s target (issues 17 and 40), and the slowest runs. conform's
# default is three jobs per CPU for such runs, which mostly wait on the
# programs; JOBS=N runs N at once instead.
# Usage: [JOBS=N] bench/interop_suite.sh [BUILD_DIR]   (default: build, conform's default jobs)
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
jobs=${JOBS:-}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
start=$(date +%s.%N)
"$build/conform" run "$here/suites/interop" ${jobs:+-j "$jobs"} --out "$out/runs" --json "$out/report.json" \
  > "$out/console.txt" || true
end=$(date +%s.%N)
grep -E "^[0-9]+ passed" "$out/console.txt" | tail -1
wall=$(echo "$end - $start" | bc)
used=$(sed -n '1s/.* \([0-9]*\) jobs .*/\1/p' "$out/console.txt")
whose="conform's default"; [ -n "$jobs" ] && whose="JOBS"
echo "suites/interop with -j $used ($whose): $wall s wall (target: 180 s)"
python3 - "$out/report.json" <<'PY'
import json, sys
cases = json.load(open(sys.argv[1]))["cases"]
print(f"{len(cases)} runs; the slowest:")
for c in sorted(cases, key=lambda c: -c["duration_s"])[:5]:
    print(f"  {c['duration_s']:6.2f} s  {c['status']:<12} {c['id']}")
PY

#!/bin/sh
# The whole of suites/rfc9000, mutants included, as a user runs it with two
# jobs: prints the wall time and, from the JSON report, the simulated time of
# the 6000-frame fan-out case against its wall time.
# Usage: bench/rfc9000_suite.sh [BUILD_DIR]   (default: build)
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
start=$(date +%s.%N)
"$build/conform" run "$here/suites/rfc9000" -j 2 --out "$out/runs" --json "$out/report.json" > "$out/console.txt"
end=$(date +%s.%N)
tail -2 "$out/console.txt"
echo "suites/rfc9000 with -j 2: $(echo "$end - $start" | bc) s wall"
python3 - "$out/report.json" "$out/runs" <<'PY'
import json, sys, re
report = json.load(open(sys.argv[1]))
for case in report["cases"]:
    if case["id"] == "max-streams-uni/fanout-frames[frames=6000]":
        run = case["runs"][0]
        log = open(run["artifact_dir"] + "/log.txt").read()
        sim_us = int(re.search(r"at (\d+) us of virtual time", log).group(1))
        wall = run["duration_s"]
        print(f"6000-frame fan-out: {sim_us / 1e6:.1f} s simulated in {wall:.3f} s wall "
              f"({sim_us / 1e6 / wall:.0f} simulated s per wall s)")
PY

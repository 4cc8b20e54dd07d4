#!/usr/bin/env bash
# Relay against direct (issue 8): runs tcp_relay_throughput.toml REPS times
# (default 7; as root: the plugin captures on lo). Each run times 300 answers
# of 1 MiB directly, through the relay (splice) and through the relay copying
# (copy), one right after the other, so a machine's load weighs on all three.
# A leg's figure in a run is 1 MiB over its median transfer time, the first
# 20 transfers left out as warm-up; a transfer is timed by the client from
# its request's first byte to the answer's last, on a connection opened
# before the first (no handshake in it). The relay's cost is relay time over
# direct time in the same run. Printed: each run, then the median and range
# over the runs, and the verdict against the target: at most +15 %.
# Usage: REPS=N bench/tcp_relay_throughput.sh [build dir]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
reps=${REPS:-7}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
for r in $(seq "$reps"); do
  "$build/conform" run "$here/tcp_relay_throughput.toml" -j 1 --out "$out/$r" > "$out/$r.txt" ||
    { cat "$out/$r.txt"; exit 2; }
done
echo "load after:  $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$out" "$reps" <<'PY'
import json, statistics, sys
out, reps = sys.argv[1], int(sys.argv[2])
legs = {"direct": "throughput[leg=direct]", "relay": "throughput[leg=relay]",
        "relay-copy": "throughput-copy"}
WARM_UP = 20

def median_ms(run, case):
    info = json.load(open(f"{out}/{run}/bench/{case}/tcp_info.json"))
    ms = [t["ms"] for t in info["transfers"] if t["completed"] and t["index"] >= WARM_UP]
    if len(ms) < 100:
        sys.exit(f"run {run}, {case}: only {len(ms)} completed transfers")
    return statistics.median(ms)

mib_s = {leg: [] for leg in legs}
cost = {"relay": [], "relay-copy": []}
for run in range(1, reps + 1):
    ms = {leg: median_ms(run, case) for leg, case in legs.items()}
    for leg in legs:
        mib_s[leg].append(1000 / ms[leg])
    for leg in cost:
        cost[leg].append((ms[leg] / ms["direct"] - 1) * 100)
    print(f"run {run}: " + ", ".join(f"{leg} {ms[leg]:.3f} ms" for leg in legs) +
          f"; relay {cost['relay'][-1]:+.0f} %, relay-copy {cost['relay-copy'][-1]:+.0f} %")

print(f"over {reps} runs, median [min..max]:")
for leg in legs:
    v = mib_s[leg]
    print(f"  {leg:<10} {statistics.median(v):7.0f} MiB/s  [{min(v):.0f}..{max(v):.0f}]")
for leg, v in cost.items():
    print(f"  {leg:<10} costs {statistics.median(v):+.1f} % over direct  [{min(v):+.1f}..{max(v):+.1f}]")
m = statistics.median(cost["relay"])
print(f"target (relay at most +15 % over direct): {'met' if m <= 15 else 'NOT met'} ({m:+.1f} %)")
PY

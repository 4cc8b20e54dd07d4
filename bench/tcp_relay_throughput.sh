#!/usr/bin/env bash
# Relay against direct: runs tcp_relay_throughput.toml (as root: the plugin
# captures on lo) and prints each leg's throughput from the client's own
# timings in tcp_info.json, and the relay's cost over direct. Target
# (issue 8): at most 15 %. Usage: bench/tcp_relay_throughput.sh [build dir]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
out=$(mktemp -d)
"$build/conform" run "$here/tcp_relay_throughput.toml" -j 1 --out "$out" >/dev/null || true
total_ms() { grep -o '"ms": [0-9.e+-]*' "$1" | awk '{s += $2} END {printf "%.3f", s}'; }
count() { grep -c '"completed": true' "$1"; }
declare -A ms
for leg in direct relay; do
  f="$out/bench/throughput[leg=$leg]/tcp_info.json"
  ms[$leg]=$(total_ms "$f")
  n=$(count "$f")
  awk -v n="$n" -v ms="${ms[$leg]}" -v leg="$leg" \
    'BEGIN {printf "%-7s %4d x 1 MiB in %9.1f ms: %8.1f MiB/s\n", leg, n, ms, n / (ms / 1000)}'
done
awk -v d="${ms[direct]}" -v r="${ms[relay]}" \
  'BEGIN {printf "relay costs %+.1f %% over direct (target: at most +15 %%)\n", (r / d - 1) * 100}'
rm -rf "$out"

#!/bin/sh
# Issue 36's benchmark: `conform check` on a production-sized capture.
#
#   synthesise  RUNS runs (seeds 1..RUNS) of a request-response case with
#               CLIENTS clients, each fetching one BYTES-byte answer, on
#               conform's simulator; each run's server.pcap holds its CLIENTS
#               connections and keys.log their secrets. A seed gives every
#               connection its own IDs, so the runs' captures, appended one
#               after the other (mergecap -a), hold RUNS x CLIENTS distinct
#               connections that all decrypt with the key logs concatenated.
#               Run N's times are moved N x 10 s later (editcap -t): as on a
#               server, CLIENTS connections at a time, one batch after the
#               other, each closed well before the next.
#   measure     `conform check CAPTURE --keylog KEYS suites/capture -j N` as a
#               user runs it, whole process, under /usr/bin/time -v, for each
#               N of JOBS (default "1 2"): wall time, MB/s over the capture's
#               size, peak RSS, and the size of --out.
#
#   compare     with BASELINE=path/to/another/conform, each measurement is
#               made with that binary too, just before this build's, ROUNDS
#               times over (default 1): on a machine whose speed drifts by a
#               third from minute to minute, only figures taken side by side
#               compare.
# Defaults: 100 runs x 100 clients x 200 000 bytes, about 2.4 GB and 10 000
# connections (the issue's size); smaller ones for a quick look, e.g.
# RUNS=2 CLIENTS=100 BYTES=20000.
# Usage: [RUNS=N] [CLIENTS=N] [BYTES=N] [JOBS="1 2"] [BASELINE=CONFORM [ROUNDS=N]]
#        bench/check_scale.sh [BUILD_DIR [WORK_DIR]]
# WORK_DIR (default: a temporary folder, removed at the end) keeps the
# capture for another measurement when given.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
runs=${RUNS:-100}
clients=${CLIENTS:-100}
bytes=${BYTES:-200000}
if [ -n "${2:-}" ]; then
  work=$2
  mkdir -p "$work"
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
cat > "$work/scale.toml" <<EOF
[suite]
title = "check scale (bench/check_scale.sh)"
rfc = "RFC 9000"

[[case]]
id = "scale/clients"
summary = "$clients clients, each fetching one answer of $bytes bytes"
rfc = "9000§2.2"
requirement = "every byte of every stream MUST be delivered (§2.2)"
plugin = "quic"
scenario = "request-response"
params = { requests = 1, request_bytes = 100, response_bytes = $bytes, concurrency = 1, clients = $clients }
network = { rtt_ms = 10 }
no_mutant = "a benchmark's workload, not a case"
timeout = 3600

  [[case.expect]]
  check = "streams_delivered"
  level = "MUST"
  from = "client"
  dir = "bidi"
EOF
capture=$work/scale.pcap
keys=$work/scale.keys
if [ ! -s "$capture" ]; then
  start=$(date +%s.%N)
  seed=1
  while [ "$seed" -le "$runs" ]; do
    "$build/conform" run "$work/scale.toml" --seed "$seed" --out "$work/run-$seed" -q > /dev/null
    editcap -t $((seed * 10)) "$work/run-$seed/scale/clients/server.pcap" "$work/run-$seed/shifted.pcap"
    seed=$((seed + 1))
  done
  # shellcheck disable=SC2046
  mergecap -a -w "$capture" $(ls -v "$work"/run-*/shifted.pcap)
  cat "$work"/run-*/scale/clients/keys.log > "$keys"
  rm -rf "$work"/run-*
  echo "synthesised in $(echo "$(date +%s.%N) - $start" | bc) s"
fi
size=$(stat -c %s "$capture")
echo "capture: $size bytes, $runs x $clients connections"
# Each measurement writes a --out folder of a new name, and they are removed
# only after the last: ext4 makes files slowly (several seconds for the
# 10 000 folders) right after as many were deleted, which a user's first
# check does not pay.
rm -rf "$work"/out "$work"/out-*
# measure BINARY LABEL JOBS: one whole-process run, and its figures.
measure() {
  out=$work/out-$$-$2-j$3-$round
  # The baseline finds its plugins where this build keeps them.
  CONFORM_PLUGIN_PATH=$build/plugins /usr/bin/time -v "$1" check "$capture" --keylog "$keys" \
    "$here/suites/capture" --out "$out" -q -j "$3" > "$work/console.txt" 2> "$work/time.txt" || true
  tail -1 "$work/console.txt"
  wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$work/time.txt")
  rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$work/time.txt")
  secs=$(echo "$wall" | awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }')
  echo "$2 conform check -j $3: $wall wall ($secs s), $(echo "scale=1; $size / 1000000 / $secs" | bc) MB/s, peak RSS $((rss / 1024)) MiB"
  echo "--out: $(du -sb "$out" | cut -f1) bytes"
}
round=1
while [ "$round" -le "${ROUNDS:-1}" ]; do
  for jobs in ${JOBS:-1 2}; do
    if [ -n "${BASELINE:-}" ]; then measure "$BASELINE" baseline "$jobs"; fi
    measure "$build/conform" build "$jobs"
  done
  round=$((round + 1))
done
rm -rf "$work"/out-*

#!/usr/bin/env bash
# Regenerates captures/third-party/{chromium,firefox,quinn-0.9}/: one small
# run of each stack through conform's external plugin (suites/interop's
# workloads, shrunk), keeping the relay's client-side capture, the key log
# that decrypts it, and the tshark-derived facts (frame counts, every
# MAX_STREAMS and STREAMS_BLOCKED value) in facts.txt beside them.
#
# Run after scripts/setup.sh has built conform and installed chromium,
# firefox-esr, libnss3-tools, the quinn 0.9 crates and tshark. Real time:
# a rerun gives different (equally valid) files; commit each folder whole.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
build=${CONFORM_BUILD_DIR:-$here/build}
out=${1:-$here/captures/third-party}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cat > "$work/captures.toml" <<'TOML'
[suite]
title = "Third-party captures (scripts/make-third-party-captures-native.sh)"

[[case]]
id = "capture/browser"
summary = "a page of 30 images from conform's server held at 10 bidi streams"
rfc = "9000§4.6"
requirement = "an endpoint blocked by the peer's limit SHOULD send STREAMS_BLOCKED (§4.6)"
plugin = "external"
scenario = "request-response"
params = { requests = 30, response_bytes = 200, time_limit_ms = 40000 }
server = { implementation = "conform", initial_max_streams_bidi = 10 }
network = { rtt_ms = 2 }
matrix = { "client.implementation" = ["chromium", "firefox"] }
timeout = 90

  [[case.expect]]
  check = "streams_blocked_sent"
  by = "client"
  dir = "bidi"

[[case]]
id = "capture/quinn"
summary = "quinn 0.9 both ways: 20 bidi streams at a limit of 5, 20 uni streams at a limit of 5"
rfc = "9000§4.6"
requirement = "a receiver is expected to raise the stream limit with MAX_STREAMS (§4.6); every stream MUST be delivered (§2.2)"
plugin = "external"
scenario = "raw-streams"
params = { client_open_bidi = 20, server_open_uni = 20, bytes = 200 }
client = { implementation = "quinn-0.9", initial_max_streams_uni = 5 }
server = { implementation = "quinn-0.9", initial_max_streams_bidi = 5 }
network = { rtt_ms = 2 }
timeout = 60

  [[case.expect]]
  check = "max_streams_extended"
  by = "server"
  dir = "bidi"
TOML

"$build/conform" run "$work/captures.toml" --out "$work/out" --json "$work/r.json" || true

# keep STACK CASE-FOLDER: the client-side capture, its key log, the facts.
keep() {
  local stack=$1 run=$2 dest=$out/$1
  mkdir -p "$dest"
  cp "$run/client.pcap" "$dest/client.pcap"
  cp "$run/keys.log" "$dest/keys.log"
  local tshark=(tshark -n -r "$dest/client.pcap" -o "tls.keylog_file:$dest/keys.log")
  {
    echo "# $stack: tshark $(tshark --version | head -1 | awk '{print $2}') on client.pcap with keys.log"
    echo "# made by scripts/make-third-party-captures-native.sh ($(date -u +%F))"
    echo "frames: $("${tshark[@]}" | wc -l)"
    echo "connections: $("${tshark[@]}" -T fields -e quic.connection.number | tr ',' '\n' | sort -u | grep -c . || true)"
    echo "undecrypted packets: $("${tshark[@]}" -Y quic.decryption_failed | wc -l)"
    echo "# frame, UDP source port, QUIC frame types (decimal: 18 MAX_STREAMS bidi, 19 uni, 22 STREAMS_BLOCKED bidi, 23 uni), MAX_STREAMS values, STREAMS_BLOCKED values"
    "${tshark[@]}" -Y 'quic.frame_type == 0x12 || quic.frame_type == 0x13 || quic.frame_type == 0x16 || quic.frame_type == 0x17' \
      -T fields -e frame.number -e udp.srcport -e quic.frame_type -e quic.ms.max_streams \
      -e quic.sib.stream_limit
  } > "$dest/facts.txt"
  echo "$dest: $(grep -c '^[0-9]' "$dest/facts.txt" || true) frames with MAX_STREAMS or STREAMS_BLOCKED"
}

keep chromium "$work/out/capture/browser[client.implementation=chromium]"
keep firefox "$work/out/capture/browser[client.implementation=firefox]"
keep quinn-0.9 "$work/out/capture/quinn"

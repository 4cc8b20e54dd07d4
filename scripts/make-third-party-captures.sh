#!/usr/bin/env bash
# Records captures/third-party/<stack>/: one small capture and key log of each
# stack installed from npm or Debian (docs/interop.md), made by `conform run` with the
# external plugin through the loopback relay (the relay's client-side
# capture, client.pcap, and the case's merged keys.log), and facts.txt:
# tshark's frame counts and every MAX_STREAMS and STREAMS_BLOCKED value,
# the ground truth these captures give the third-party corpus.
# Needs the build, its peers (scripts/setup.sh) and tshark. Real time:
# each run differs a little (timings, connection IDs, counts), and tests pin
# what the committed captures show, so remake only the stacks you name.
#   scripts/make-third-party-captures.sh [BUILD_DIR [STACK...]]
# STACK: lsquic quiche quinn-0.11 chromium firefox quinn-0.9 quic-go ngtcp2
# (default: all).
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
shift || true
stacks=("$@")
[ ${#stacks[@]} -gt 0 ] || stacks=(lsquic quiche quinn-0.11 chromium firefox quinn-0.9 quic-go ngtcp2)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export CONFORM_PLUGIN_PATH=$build/plugins

# The suite: one case per stack, the stack under test in the role named.
cat > "$out/suite.toml" <<'TOML'
[[case]]
id = "lsquic"
summary = "lsquic's server (Bun) answers 120 requests of conform's client, raising MAX_STREAMS past 100; only conform's key log"
rfc = "9000§4.6"
requirement = "a receiver is expected to raise MAX_STREAMS (§4.6); every stream MUST be delivered (§2.2)"
plugin = "external"
scenario = "request-response"
params = { requests = 120, response_bytes = 200, time_limit_ms = 8000 }
client = { implementation = "conform" }
server = { implementation = "lsquic" }
network = { rtt_ms = 4 }
  [[case.expect]]
  check = "no_connection_error"

[[case]]
id = "quiche"
summary = "quiche against itself: the server opens 40 uni streams at a client limit of 10; Retry, then a second ClientHello"
rfc = "9000§4.6"
requirement = "a receiver is expected to raise MAX_STREAMS (§4.6); every stream MUST be delivered (§2.2)"
plugin = "external"
scenario = "streams-toward"
params = { toward = "client", dir = "uni", streams = 40, time_limit_ms = 8000 }
client = { implementation = "quiche", initial_max_streams_uni = 10 }
server = { implementation = "quiche" }
network = { rtt_ms = 4 }
  [[case.expect]]
  check = "no_connection_error"

[[case]]
id = "quinn-0.11"
summary = "quinn 0.11 against itself: the client opens 20 bidi streams at a server limit of 2; the client's key log only"
rfc = "9000§4.6"
requirement = "an endpoint held at a stream limit SHOULD send STREAMS_BLOCKED (§4.6)"
plugin = "external"
scenario = "held-at-limit"
params = { held = "client", dir = "bidi", streams = 20, time_limit_ms = 8000 }
client = { implementation = "quinn-0.11" }
server = { implementation = "quinn-0.11", initial_max_streams_bidi = 2 }
network = { rtt_ms = 4 }
  [[case.expect]]
  check = "no_connection_error"

[[case]]
id = "quinn-0.9"
summary = "quinn 0.9 against itself: the client opens 20 bidi streams at a server limit of 5, which the server raises"
rfc = "9000§4.6"
requirement = "a receiver is expected to raise MAX_STREAMS (§4.6); every stream MUST be delivered (§2.2)"
plugin = "external"
scenario = "streams-toward"
params = { toward = "server", dir = "bidi", streams = 20, time_limit_ms = 8000 }
client = { implementation = "quinn-0.9" }
server = { implementation = "quinn-0.9", initial_max_streams_bidi = 5 }
network = { rtt_ms = 4 }
  [[case.expect]]
  check = "no_connection_error"
TOML
# quic-go and ngtcp2 against themselves, each client held at its server's
# 10 bidi streams: quic-go says STREAMS_BLOCKED and raises MAX_STREAMS in
# packets of several descending values, ngtcp2 says none (PEERS.md).
for stack in quic-go ngtcp2; do
  cat >> "$out/suite.toml" <<TOML

[[case]]
id = "$stack"
summary = "$stack against itself: the client sends 40 requests at a server limit of 10 bidi streams"
rfc = "9000§4.6"
requirement = "an endpoint held at a stream limit SHOULD send STREAMS_BLOCKED (§4.6); a receiver is expected to raise MAX_STREAMS"
plugin = "external"
scenario = "request-response"
params = { requests = 40, response_bytes = 200, time_limit_ms = 8000 }
client = { implementation = "$stack" }
server = { implementation = "$stack", initial_max_streams_bidi = 10 }
network = { rtt_ms = 4 }
  [[case.expect]]
  check = "no_connection_error"
TOML
done
# The browsers: a page of 100 images from conform's server held at 10 bidi
# streams, where PEERS.md says both send STREAMS_BLOCKED.
for browser in chromium firefox; do
  cat >> "$out/suite.toml" <<TOML

[[case]]
id = "$browser"
summary = "$browser loads a page of 100 images from conform's server held at 10 bidi streams; STREAMS_BLOCKED expected"
rfc = "9000§4.6"
requirement = "an endpoint held at a stream limit SHOULD send STREAMS_BLOCKED (§4.6)"
plugin = "external"
scenario = "request-response"
params = { requests = 100, response_bytes = 200, time_limit_ms = 40000 }
client = { implementation = "$browser" }
server = { implementation = "conform", initial_max_streams_bidi = 10 }
network = { rtt_ms = 2 }
timeout = 90
  [[case.expect]]
  check = "no_connection_error"
TOML
done
filters=()
for stack in "${stacks[@]}"; do filters+=(--filter "$stack"); done
"$build/conform" run "$out/suite.toml" --out "$out/run" -q -j1 "${filters[@]}" || true

# The version of `stack` as installed: its Debian package, or its npm package
# in the build's peers folder (scripts/setup.sh).
version_of() {
  local deb='' npm=''
  case $1 in
    chromium) deb=chromium ;;
    firefox) deb=firefox-esr ;;
    quinn-0.9) deb=librust-quinn-dev ;;
    ngtcp2) deb=ngtcp2-client ;;
    quic-go) deb=golang-github-lucas-clemente-quic-go-dev ;;
    lsquic) npm=@oven/bun-linux-x64 ;;
    quiche) npm=@matrixai/quic ;;
    quinn-0.11) npm=@deno/linux-x64-glibc ;;
  esac
  if [ -n "$deb" ]; then
    echo "Debian $deb $(dpkg-query -W -f '${Version}' "$deb")"
  else
    echo "npm $npm $(node -p "require('$build/peers/node_modules/$npm/package.json').version")"
  fi
}

for stack in "${stacks[@]}"; do
  dest=$here/captures/third-party/$stack
  mkdir -p "$dest"
  cp "$out/run/$stack/client.pcap" "$dest/$stack.pcap"
  cp "$out/run/$stack/keys.log" "$dest/$stack.keys"
  printf "client\nthe relay's client.pcap: the client's datagrams as it sent them, the server's as the relay handed them to the client on loopback\n" > "$dest/$stack.vantage"
  # tshark matches the key log to the first ClientHello; after a Retry
  # quiche's client sends a new one, which the key log names: tshark is
  # shown the capture from the datagram after the Retry on.
  view=$dest/$stack.pcap
  retry=$(tshark -r "$view" -Y 'quic.long.packet_type == 3' -T fields -e frame.number 2>/dev/null | awk 'NR == 1')
  if [ -n "$retry" ]; then
    view=$out/$stack-after-retry.pcap
    editcap -r "$dest/$stack.pcap" "$view" "$((retry + 1))-999999999"
  fi
  tshark_fields() { tshark -r "$view" -o "tls.keylog_file:$dest/$stack.keys" -Y "$1" -T fields "${@:2}" 2>/dev/null; }
  {
    echo "# $stack: tshark $(tshark --version | head -1 | awk '{print $3}') on $stack.pcap with $stack.keys"
    [ -z "$retry" ] || echo "# frames after the Retry (frame $retry) only, renumbered from 1: tshark keys the first ClientHello"
    echo "# $stack as installed: $(version_of "$stack")"
    echo "# made by: scripts/make-third-party-captures.sh BUILD_DIR $stack; the case:"
    grep -A1 "^id = \"$stack\"" "$out/suite.toml" | tail -1 | sed "s/^/# /"
    echo "## frames by type (count, quic.frame_type)"
    tshark_fields quic -e quic.frame_type | tr ',' '\n' | grep . | sort -n | uniq -c | awk '{print $1, $2}'
    echo "## MAX_STREAMS (frame number, the frame types of its packets (18 bidi, 19 uni), quic.ms.max_streams)"
    tshark_fields 'quic.frame_type == 18 || quic.frame_type == 19' -e frame.number -e quic.frame_type -e quic.ms.max_streams
    echo "## STREAMS_BLOCKED (frame number, the frame types of its packets (22 bidi, 23 uni), quic.sib.stream_limit)"
    tshark_fields 'quic.frame_type == 22 || quic.frame_type == 23' -e frame.number -e quic.frame_type -e quic.sib.stream_limit
  } > "$dest/facts.txt"
done
ls -l "$here"/captures/third-party/*

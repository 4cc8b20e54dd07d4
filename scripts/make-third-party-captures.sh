#!/usr/bin/env bash
# Records captures/third-party/<stack>/: one small capture and key log of each
# stack installed from npm or Debian (docs/interop.md), made by `conform run` with the
# external plugin through the loopback relay (the relay's client-side
# capture, client.pcap, and the case's merged keys.log), and facts.txt:
# tshark's frame counts and every MAX_STREAMS and STREAMS_BLOCKED value,
# the ground truth these captures give the third-party corpus.
# Captures the relay cannot give run the programs directly in a private
# network namespace (`unshare -n`, only lo), captured on lo with tcpdump:
# unanswered-handshake (nothing answers the ClientHello; the relay would),
# gso (the server's GSO batches, which the relay splits), picoquic, and
# quiche (whose late answers make a relay capture unplaceable).
# Needs the build, its peers (scripts/setup.sh), tshark, and for the direct
# captures tcpdump, unshare, openssl and python3. Real time: each run
# differs a little (timings, connection IDs, counts), and tests pin what the
# committed captures show, so remake only the stacks you name.
#   scripts/make-third-party-captures.sh [BUILD_DIR [STACK...]]
# STACK: lsquic quiche quinn-0.11 chromium firefox quinn-0.9 quic-go ngtcp2
# quic-go-limit-zero quinn-0.9-limit-zero unanswered-handshake gso firefox-quic-go
# ngtcp2-duplicate-initial quic-go-lossy lsquic-client picoquic (default: all
# but picoquic, which needs PICOQUIC_DEMO=path of a picoquicdemo built from
# source).
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
port=4433

# --- run inside `unshare -n` (the script calls itself) ---------------------
# Inside the namespace, for a server's direct capture: lo up, DIR/htdocs/FILE
# of BYTES bytes, a certificate for 127.0.0.1, and tcpdump on lo writing
# DIR/NAME.pcap from one second on (its PID in `cap`).
serve_and_capture() {
  local d=$1 name=$2 file=$3 bytes=$4
  ip link set lo up
  mkdir -p "$d/htdocs"
  head -c "$bytes" /dev/zero | tr '\0' x > "$d/htdocs/$file"
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout "$d/key.pem" -out "$d/cert.pem" \
    -days 3650 -subj /CN=localhost -addext "subjectAltName=IP:127.0.0.1,DNS:localhost" 2>/dev/null
  tcpdump -i lo -B 16384 --immediate-mode -U -n -s 0 -Z root --time-stamp-precision=nano -w "$d/$name.pcap" "udp port $port" 2>"$d/tcpdump.err" &
  cap=$!
  sleep 1
}
# Stops the tcpdump of `cap`; a capture that lost packets is no ground
# truth: the kernel's drops fail the run (tcpdump's count, DIR/tcpdump.err).
stop_capture() {
  kill "$cap"; wait "$cap" || true
  if grep -Eq '^[1-9][0-9]* packets? dropped by kernel' "$1/tcpdump.err"; then
    echo "$0: tcpdump lost packets ($(grep 'dropped by kernel' "$1/tcpdump.err")): run it again" >&2
    exit 1
  fi
}
# A ClientHello nobody answers: gtlsclient toward a UDP port held by a socket
# that never reads (so the kernel sends no ICMP port unreachable either),
# stopped by its PID after 3.5 s: its Initial and the PTO re-sends at 1 s
# and 3 s. Its key log stays empty: no secret exists before a ServerHello.
if [ "${1:-}" = --inside-unanswered ]; then
  d=$2 name=$3
  ip link set lo up
  python3 -c 'import socket, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(("127.0.0.1", int(sys.argv[1]))); time.sleep(30)' $port &
  sink=$!
  tcpdump -i lo -B 16384 --immediate-mode -U -n -s 0 -Z root --time-stamp-precision=nano -w "$d/$name.pcap" "udp port $port" 2>"$d/tcpdump.err" &
  cap=$!
  sleep 1
  : > "$d/$name.keys"
  SSLKEYLOGFILE=$d/$name.keys gtlsclient -q --handshake-timeout=30s --timeout=30s -n 1 \
    127.0.0.1 $port "https://127.0.0.1:$port/index.html" >"$d/client.out" 2>"$d/client.err" &
  client=$!
  sleep 3.5
  kill "$client" 2>/dev/null || true
  wait "$client" || true
  sleep 0.3
  stop_capture "$d"
  kill "$sink"; wait "$sink" || true
  exit 0
fi
# ngtcp2's gtlsclient fetches one 30000-byte file from gtlsserver, which
# (without --max-gso-dgrams=1, unlike the ngtcp2 profile) hands the kernel
# GSO batches: lo's tap sees each batch as one record, before segmentation.
if [ "${1:-}" = --inside-gso ]; then
  d=$2 name=$3
  serve_and_capture "$d" "$name" file.bin 30000
  gtlsserver -q --timeout=5s -d "$d/htdocs" 127.0.0.1 $port "$d/key.pem" "$d/cert.pem" >"$d/server.out" 2>"$d/server.err" &
  server=$!
  sleep 0.5
  : > "$d/$name.keys"
  SSLKEYLOGFILE=$d/$name.keys timeout 8 gtlsclient -q --exit-on-all-streams-close --timeout=5s -n 1 \
    127.0.0.1 $port "https://127.0.0.1:$port/file.bin" >"$d/client.out" 2>"$d/client.err" || true
  sleep 0.3
  kill "$server"; wait "$server" || true
  stop_capture "$d"
  exit 0
fi

# Cloudflare quiche against itself, as the suite's quiche case runs it (the
# external plugin's profile, plugins/external/profiles/quiche.toml): the
# server opens 40 uni streams of 100 bytes at the client's limit of 10.
# Direct, not through the relay: a relay capture of these endpoints, which
# answer 5 ms late on either side, cannot be told from one on the path.
if [ "${1:-}" = --inside-quiche ]; then
  d=$2 name=$3 build=$4
  serve_and_capture "$d" "$name" unused 1
  limits=(--max-streams-bidi 100 --max-data 1048576 --max-stream-data 1048576 --open-bidi 0 --bytes 100)
  node "$build/peers/matrixai_quic_peer.mjs" --listen 127.0.0.1:$port --cert "$d/cert.pem" --key "$d/key.pem" \
    --keylog "$d/server.keys" "${limits[@]}" --max-streams-uni 100 --open-uni 40 --timeout-ms 10000 \
    >"$d/server.out" 2>"$d/server.err" &
  server=$!
  sleep 0.5
  : > "$d/$name.keys"
  status=0
  node "$build/peers/matrixai_quic_peer.mjs" --connect 127.0.0.1:$port --keylog "$d/$name.keys" "${limits[@]}" \
    --max-streams-uni 10 --open-uni 0 --expect-uni 40 --expect-bidi 0 --timeout-ms 8000 \
    >"$d/client.out" 2>"$d/client.err" || status=$?
  sleep 0.3
  kill "$server" 2>/dev/null || true
  wait "$server" || true
  stop_capture "$d"
  if [ "$status" -ne 0 ]; then
    echo "$0: quiche: the client exited with status $status: $(tail -3 "$d/client.err" | tr '\n' ' ')" >&2
    exit 1
  fi
  exit 0
fi

# picoquic's HTTP/3 client sends 40 concurrent GETs to quic-go's server
# (conform-quic-go of the build) held at 10 bidi streams. picoquic is no
# Debian or npm package: PICOQUIC_DEMO names a picoquicdemo built from its
# source (facts.txt names the commit); the script does not build it.
if [ "${1:-}" = --inside-picoquic ]; then
  d=$2 name=$3 build=$4
  serve_and_capture "$d" "$name" f200 200
  "$build/conform-quic-go" server -listen 127.0.0.1:$port -cert "$d/cert.pem" -key "$d/key.pem" -htdocs "$d/htdocs" \
    -keylog "$d/server.keys" -max-streams-bidi 10 -max-streams-uni 100 -max-data 1048576 -idle-timeout-ms 5000 \
    >"$d/server.out" 2>"$d/server.err" &
  server=$!
  sleep 0.5
  : > "$d/$name.keys"
  scenario=$(for i in $(seq 0 39); do printf '%d:-:/f200;' $((i * 4)); done)
  status=0
  (cd "$d" && SSLKEYLOGFILE=$d/$name.keys timeout 10 "$PICOQUIC_DEMO" -8 -0 -D -a h3 -n localhost 127.0.0.1 $port \
    "$scenario" >"$d/client.out" 2>"$d/client.err") || status=$?
  sleep 0.3
  kill "$server"; wait "$server" || true
  stop_capture "$d"
  if [ "$status" -ne 0 ]; then
    echo "$0: picoquic: $PICOQUIC_DEMO exited with status $status: $(tail -3 "$d/client.err" | tr '\n' ' ')" >&2
    exit 1
  fi
  exit 0
fi

# Absolute: facts.txt reads the peers' versions from it with node.
build=${1:-$here/build}
[ -x "$build/conform" ] || { echo "$0: $build/conform: no conform build there (BUILD_DIR)" >&2; exit 2; }
build=$(cd "$build" && pwd)
shift || true
stacks=("$@")
# The stacks there are: the cases of the suite, and the direct captures.
known=" unanswered-handshake gso picoquic quiche $(sed -n 's/^id = "\(.*\)"$/\1/p' "$here/scripts/third-party-captures.toml" | tr '\n' ' ')"
for stack in "${stacks[@]}"; do
  case $known in *" $stack "*) ;; *) echo "$0: no stack '$stack'; there are:$known" >&2; exit 2 ;; esac
done
[ ${#stacks[@]} -gt 0 ] || stacks=(lsquic quiche quinn-0.11 chromium firefox quinn-0.9 quic-go ngtcp2 quic-go-limit-zero
                                   quinn-0.9-limit-zero unanswered-handshake gso firefox-quic-go ngtcp2-duplicate-initial
                                   quic-go-lossy lsquic-client)
# picoquic only when named and PICOQUIC_DEMO is set (see --inside-picoquic).
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export CONFORM_PLUGIN_PATH=$build/plugins

# The suite: scripts/third-party-captures.toml, one case a stack.
cp "$here/scripts/third-party-captures.toml" "$out/suite.toml"
filters=()
for stack in "${stacks[@]}"; do
  case $stack in unanswered-handshake|gso|picoquic|quiche) ;; *) filters+=(--filter "$stack") ;; esac
done
[ ${#filters[@]} -eq 0 ] || "$build/conform" run "$out/suite.toml" --out "$out/run" -q -j1 "${filters[@]}" || true

# The version of `stack` as installed: its Debian package, or its npm package
# in the build's peers folder (scripts/setup.sh).
version_of() {
  local deb='' npm=''
  case $1 in
    chromium) deb=chromium ;;
    quic-go-limit-zero) echo "$(version_of quic-go) (client), against conform-quic of this build (server)"; return ;;
    quinn-0.9-limit-zero) deb=librust-quinn-dev ;;
    picoquic) echo "picoquic $(git -C "$(dirname "$PICOQUIC_DEMO")/.." rev-parse HEAD 2>/dev/null || echo '(commit unknown)') (built from source: no Debian or npm package), against conform-quic-go ($(version_of quic-go))"; return ;;
    lsquic-client) echo "$(version_of lsquic) (client), against conform-quic of this build (server)"; return ;;
    quic-go-lossy) echo "$(version_of quic-go) (server), against conform-quic of this build (client)"; return ;;
    ngtcp2-duplicate-initial)
      echo "Debian ngtcp2-server $(dpkg-query -W -f '${Version}' ngtcp2-server) (server), against conform-quic of this build (client)"
      return ;;
    firefox-quic-go) echo "$(version_of firefox) (client), $(version_of quic-go) (server)"; return ;;
    unanswered-handshake) deb=ngtcp2-client ;;
    gso) echo "$(version_of ngtcp2), Debian ngtcp2-server $(dpkg-query -W -f '${Version}' ngtcp2-server)"; return ;;
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

# A direct loopback capture of `stack`: the script runs itself with MODE in
# a private network namespace, then copies capture and key log to `dest`
# with a vantage of both, WHAT saying what the capture holds.
direct_capture() {
  local mode=$1 what=$2
  mkdir -p "$out/$stack"
  unshare -n "$0" "$mode" "$out/$stack" "$stack" "$build"
  cp "$out/$stack/$stack.pcap" "$out/$stack/$stack.keys" "$dest/"
  printf "both\na direct capture on lo (tcpdump) in a private network namespace: %s\n" "$what" > "$dest/$stack.vantage"
}

for stack in "${stacks[@]}"; do
  dest=$here/captures/third-party/$stack
  mkdir -p "$dest"
  made_by="# made by: scripts/make-third-party-captures.sh BUILD_DIR $stack; the case:"
  case $stack in
    unanswered-handshake)
      direct_capture --inside-unanswered "gtlsclient's Initials toward a UDP socket that never reads; nothing answers"
      made_by="# made by: scripts/make-third-party-captures.sh BUILD_DIR $stack (unshare -n; tcpdump -i lo; SSLKEYLOGFILE=K gtlsclient -q --handshake-timeout=30s --timeout=30s -n 1 127.0.0.1 $port https://127.0.0.1:$port/index.html, stopped by its PID after 3.5 s)"
      the_case="# summary = \"ngtcp2's client sends its ClientHello to a port where a socket never reads; no answer, no ICMP; the key log is empty (no secret exists before a ServerHello)\""
      ;;
    gso)
      direct_capture --inside-gso "each sender's datagrams as it handed them to the kernel, GSO batches unsegmented"
      made_by="# made by: scripts/make-third-party-captures.sh BUILD_DIR $stack (unshare -n; tcpdump -i lo; gtlsserver -q --timeout=5s -d HTDOCS 127.0.0.1 $port KEY CERT; SSLKEYLOGFILE=K gtlsclient -q --exit-on-all-streams-close --timeout=5s -n 1 127.0.0.1 $port https://127.0.0.1:$port/file.bin)"
      the_case="# summary = \"ngtcp2 against itself: the client fetches one 30000-byte file; the server sends GSO batches (no --max-gso-dgrams=1)\""
      ;;
    picoquic)
      [ -n "${PICOQUIC_DEMO:-}" ] || { echo "$0: picoquic: set PICOQUIC_DEMO to a picoquicdemo built from source" >&2; exit 2; }
      [ -f "$PICOQUIC_DEMO" ] && [ -x "$PICOQUIC_DEMO" ] ||
        { echo "$0: picoquic: PICOQUIC_DEMO=$PICOQUIC_DEMO is not an executable file" >&2; exit 2; }
      direct_capture --inside-picoquic "each sender's datagrams as it handed them to the kernel"
      made_by="# made by: PICOQUIC_DEMO=PATH scripts/make-third-party-captures.sh BUILD_DIR $stack (unshare -n; tcpdump -i lo; conform-quic-go server -max-streams-bidi 10; SSLKEYLOGFILE=K picoquicdemo -8 -0 -D -a h3 -n localhost 127.0.0.1 $port SCENARIO of 40 GETs)"
      the_case="# summary = \"picoquic's HTTP/3 client sends 40 concurrent requests to quic-go's server held at 10 bidi streams\""
      ;;
    quiche)
      direct_capture --inside-quiche "each sender's datagrams as it handed them to the kernel"
      made_by="# made by: scripts/make-third-party-captures.sh BUILD_DIR $stack (unshare -n; tcpdump -i lo; node matrixai_quic_peer.mjs --listen 127.0.0.1:$port --open-uni 40 --bytes 100; node matrixai_quic_peer.mjs --connect 127.0.0.1:$port --max-streams-uni 10 --expect-uni 40)"
      the_case="# summary = \"quiche against itself: the server opens 40 uni streams at a client limit of 10; Retry, then a second ClientHello\""
      ;;
    ngtcp2-duplicate-initial)
      # The server's side: what the relay dropped is visible only there.
      cp "$out/run/$stack/server.pcap" "$dest/$stack.pcap"
      cp "$out/run/$stack/keys.log" "$dest/$stack.keys"
      printf "server\nthe relay's server.pcap: the server's datagrams as it sent them, the client's as the relay handed them to the server on loopback\n" > "$dest/$stack.vantage"
      the_case=$(grep -A1 "^id = \"$stack\"" "$out/suite.toml" | tail -1 | sed "s/^/# /")
      ;;
    *)
      cp "$out/run/$stack/client.pcap" "$dest/$stack.pcap"
      cp "$out/run/$stack/keys.log" "$dest/$stack.keys"
      printf "client\nthe relay's client.pcap: the client's datagrams as it sent them, the server's as the relay handed them to the client on loopback\n" > "$dest/$stack.vantage"
      the_case=$(grep -A1 "^id = \"$stack\"" "$out/suite.toml" | tail -1 | sed "s/^/# /")
      ;;
  esac
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
    echo "$made_by"
    echo "$the_case"
    echo "## frames by type (count, quic.frame_type)"
    tshark_fields quic -e quic.frame_type | tr ',' '\n' | grep . | sort -n | uniq -c | awk '{print $1, $2}'
    echo "## MAX_STREAMS (frame number, the frame types of its packets (18 bidi, 19 uni), quic.ms.max_streams)"
    tshark_fields 'quic.frame_type == 18 || quic.frame_type == 19' -e frame.number -e quic.frame_type -e quic.ms.max_streams
    echo "## STREAMS_BLOCKED (frame number, the frame types of its packets (22 bidi, 23 uni), quic.sib.stream_limit)"
    tshark_fields 'quic.frame_type == 22 || quic.frame_type == 23' -e frame.number -e quic.frame_type -e quic.sib.stream_limit
    if [ "$stack" = gso ]; then
      # tshark reads a GSO record as one short-header packet running to the
      # record's end, whose AEAD check fails: the counts above leave out the
      # frames of those records. gso-split.py finds each record that holds
      # several short-header packets of the client's connection ID at a fixed
      # stride and writes a copy with one datagram a segment.
      dcid=$(tshark -r "$view" -Y 'quic.long.packet_type == 0' -T fields -e quic.scid 2>/dev/null | awk 'NR == 1')
      echo "## GSO records (gso-split.py: frame number, UDP payload, segments; tshark fails to decrypt each as one packet)"
      gso_records=$(python3 "$here/scripts/gso-split.py" "$view" "$dcid" "$out/$stack-split.pcap")
      [ -n "$gso_records" ] || echo "$0: $stack: no GSO record in the capture: run it again" >&2
      echo "$gso_records"
      echo "## frames by type in the capture with each GSO record split into its segments (count, quic.frame_type)"
      tshark -r "$out/$stack-split.pcap" -o "tls.keylog_file:$dest/$stack.keys" -Y quic -T fields -e quic.frame_type 2>/dev/null |
        tr ',' '\n' | grep . | sort -n | uniq -c | awk '{print $1, $2}'
    fi
  } > "$dest/facts.txt"
done
ls -l "$here"/captures/third-party/*

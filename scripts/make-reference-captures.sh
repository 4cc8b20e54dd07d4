#!/usr/bin/env bash
# Regenerates the reference captures under captures/ngtcp2/: Debian's
# ngtcp2 examples (gtlsclient, gtlsserver: HTTP/3 over GnuTLS) talking over
# the loopback of a private network namespace, recorded with tcpdump, with
# their NSS key logs (SSLKEYLOGFILE) and tshark's decoding of each capture as
# the expected result the dissector's tests compare against.
#
# Run as root (network namespace, tcpdump) after scripts/setup.sh has
# installed ngtcp2-client, ngtcp2-server, tshark and tcpdump. Loss uses
# ngtcp2's unseeded RNG, so a rerun gives different (equally valid) files:
# commit the captures and their .tsv together.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$here/captures/ngtcp2}
mkdir -p "$out"
work=$(mktemp -d)
ns=conform-refcap-$$
port=4433

cleanup() {
  ip netns pids "$ns" 2>/dev/null | xargs -r kill 2>/dev/null || true
  ip netns del "$ns" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
ip netns add "$ns"
ip netns exec "$ns" ip link set lo up

# A throwaway P-256 certificate: the client does not verify it.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 3650 \
  -subj /CN=localhost -keyout "$work/key.pem" -out "$work/cert.pem" 2>/dev/null
mkdir -p "$work/htdocs"
printf 'hello from conform\n' > "$work/htdocs/index.html"
# Compressible content is fine: QUIC encrypts it anyway.
yes 'conform reference transfer 0123456789abcdef' | head -c 3000000 > "$work/htdocs/big" || true  # yes ends by SIGPIPE
yes 'conform medium transfer' | head -c 400000 > "$work/htdocs/medium" || true

# capture NAME "SERVER ARGS" "CLIENT ARGS" PATH...
capture() {
  local name=$1 server_args=$2 client_args=$3
  shift 3
  # ONLY="a b" regenerates just those captures.
  if [ -n "${ONLY:-}" ] && [[ " $ONLY " != *" $name "* ]]; then return; fi
  local urls=()
  for p in "$@"; do urls+=("https://127.0.0.1:$port/$p"); done
  rm -f "$work"/*.keys "$work"/client.log
  # `ip netns exec` execs its command, so $! is the program's own pid.
  ip netns exec "$ns" tcpdump -q -i lo -B 262144 -U --immediate-mode -w "$out/$name.pcap" udp port $port 2>/dev/null &
  local tcpdump_pid=$!
  sleep 0.5
  # shellcheck disable=SC2086
  SSLKEYLOGFILE=$work/server.keys ip netns exec "$ns" gtlsserver -q -d "$work/htdocs" $server_args \
    127.0.0.1 $port "$work/key.pem" "$work/cert.pem" >/dev/null 2>&1 &
  local server_pid=$!
  sleep 0.3
  # shellcheck disable=SC2086
  SSLKEYLOGFILE=$work/client.keys ip netns exec "$ns" timeout 60 gtlsclient --exit-on-all-streams-close \
    --download "$work/dl" $client_args 127.0.0.1 $port "${urls[@]}" >"$work/client.log" 2>&1 || echo "$name: gtlsclient exit $?: $(tail -1 "$work/client.log")"
  sleep 0.3
  kill "$server_pid" 2>/dev/null || true
  wait "$server_pid" 2>/dev/null || true
  # --immediate-mode above and this pause: the ring buffer otherwise holds
  # the last packets back, and SIGINT would lose them.
  sleep 0.5
  kill -INT "$tcpdump_pid"
  wait "$tcpdump_pid" 2>/dev/null || true
  # Both ends log the same secrets; one copy of each line is enough.
  cat "$work"/*.keys 2>/dev/null | sort -u > "$out/$name.keys"
  # Where it was taken (docs/offline.md, "Vantage"): tests/unit/vantage_inference_test.cpp holds `conform check`'s inference to it.
  if [ "$name" = loss ]; then
    printf 'path\ntcpdump on the loopback both programs ran on, but each drops 5 %% of what it receives after the capture (--rx-loss): what the capture shows arriving may never have reached either\n'
  elif [ "$name" = migration ]; then
    printf 'server\ntcpdump on the loopback both programs ran on, but the server'"'"'s packets to the client'"'"'s old port, after it moved, never reached the client (its ACKs pass over them for good): not the client'"'"'s receive side\n'
  else
    printf 'both\ntcpdump on the loopback of the network namespace both gtlsclient and gtlsserver ran in\n'
  fi > "$out/$name.vantage"
  [ "$name" = gso ] || expected "$name"  # tshark cannot split GSO batches: nothing to compare
  echo "$name: $(tshark -r "$out/$name.pcap" 2>/dev/null | wc -l) datagrams"
}

# tshark's view, one line per captured frame: frame number, then per field
# the values of every QUIC packet in the datagram, comma-separated.
expected() {
  local name=$1
  {
    echo "# tshark $(tshark --version 2>/dev/null | head -1 | awk '{print $3}') -o tls.keylog_file:$name.keys -T fields"
    echo "# frame	header_form	long_packet_type	packet_number	key_phase	frame_type	stream_id	max_streams	streams_blocked	decryption_failed"
    tshark -r "$out/$name.pcap" -o "tls.keylog_file:$out/$name.keys" -T fields -E occurrence=a -E aggregator=, \
      -e frame.number -e quic.header_form -e quic.long.packet_type -e quic.packet_number -e quic.key_phase \
      -e quic.frame_type -e quic.stream.stream_id -e quic.ms.max_streams -e quic.sib.stream_limit \
      -e quic.decryption_failed 2>/dev/null
  } > "$out/$name.tsv"
}

capture handshake "--max-gso-dgrams=1" "" index.html
capture retry "--max-gso-dgrams=1 -V" "" index.html
capture stream-limit "--max-gso-dgrams=1 --max-streams-bidi=4" "-n 40" index.html
capture loss "--max-gso-dgrams=1 --tx-loss=0.15 --rx-loss=0.05" "--tx-loss=0.15 --rx-loss=0.05" medium
capture key-update "--max-gso-dgrams=1" "--key-update=1ms" medium
capture large "--max-gso-dgrams=1" "" big
capture gso "" "" medium
capture migration "--max-gso-dgrams=1" "--change-local-addr=5ms" medium

# The handshake again as pcapng with its key log inside (Decryption Secrets
# Block), as Wireshark users share captures.
if [ -z "${ONLY:-}" ] || [[ " $ONLY " == *" handshake "* ]]; then
  editcap --inject-secrets "tls,$out/handshake.keys" "$out/handshake.pcap" "$out/handshake-dsb.pcapng"
  printf 'both\nthe handshake capture (both programs on one loopback), its key log inside\n' > "$out/handshake-dsb.vantage"
fi

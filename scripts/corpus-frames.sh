#!/usr/bin/env bash
# The ground truth of a corpus capture, from tshark alone: one line a UDP
# datagram with its sender (client: the sender of the first Initial), size,
# and per QUIC packet its type, number and frames, with the values the
# expected states (captures/third-party/*/expected.toml) are derived from.
# conform plays no part in it.
#   scripts/corpus-frames.sh CAPTURE KEYLOG
# Columns (tshark fields; several values in a datagram are comma-joined, one
# per packet or frame in order):
#   frame seconds(since the first frame) side udp_length long_packet_type(0 Initial,1 0-RTT,2 Handshake,3 Retry;
#   empty: 1-RTT) header_form(1 long,0 short) packet_number frame_types
#   crypto_offset crypto_length ack_largest ack_delay stream_ids max_streams
#   streams_blocked_limit max_data max_stream_data_stream max_stream_data
#   data_blocked_or_stream_data_blocked_limit stream_data_blocked_stream
#   close_error packet_length
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 CAPTURE KEYLOG" >&2; exit 2; }
capture=$1 keys=$2
[ -f "$capture" ] && [ -r "$capture" ] || { echo "$0: $capture: no readable capture file" >&2; exit 2; }
# Without the key log every encrypted column would come out empty, silently.
[ -f "$keys" ] && [ -s "$keys" ] || echo "$0: warning: $keys: no key log, or an empty one: only Initial packets decrypt" >&2
# tshark says why it cannot read a capture (cut short, not a capture).
if ! problem=$(tshark -r "$capture" -T fields -e frame.number 2>&1 >/dev/null); then
  echo "$0: $capture: tshark cannot read it whole: $(grep -v '^Running as user' <<<"$problem" | head -2)" >&2
  exit 2
fi
fields=(frame.number frame.time_epoch udp.srcport udp.length quic.long.packet_type quic.header_form
        quic.packet_number quic.frame_type quic.crypto.offset quic.crypto.length quic.ack.largest_acknowledged
        quic.ack.ack_delay quic.stream.stream_id quic.ms.max_streams quic.sib.stream_limit
        quic.md.maximum_data quic.msd.stream_id quic.msd.maximum_stream_data quic.sb.stream_data_limit
        quic.sdb.stream_id quic.cc.error_code quic.packet_length)
args=()
for f in "${fields[@]}"; do args+=(-e "$f"); done
start=$(tshark -r "$capture" -c 1 -T fields -e frame.time_epoch 2>/dev/null)
client_port=$(tshark -r "$capture" -Y 'quic.long.packet_type == 0' -T fields -e udp.srcport 2>/dev/null | head -1)
# tshark matches a key log to the first ClientHello; after a Retry the
# client sends a new one, which the key log names (quiche): the frames after
# the Retry are decoded on their own and numbered as in the whole capture.
retry=$(tshark -r "$capture" -Y 'quic.long.packet_type == 3' -T fields -e frame.number 2>/dev/null | head -1)
table() {  # FILE FIRST_FRAME_NUMBER_OFFSET [DISPLAY_FILTER]
  tshark -r "$1" -o "tls.keylog_file:$keys" -Y "udp${3:+ && $3}" -T fields -E separator='|' "${args[@]}" 2>/dev/null |
    awk -F'|' -v OFS='|' -v c="$client_port" -v shift="$2" -v t0="$start" \
      '{ $1 += shift; $2 = sprintf("%.6f", $2 - t0); $3 = ($3 == c ? "client" : "server"); print }'
}
echo "# ${fields[*]}" | sed 's/udp.srcport/side/; s/frame.time_epoch/seconds/'
if [ -z "$retry" ]; then
  table "$capture" 0
else
  after=$(mktemp)
  trap 'rm -f "$after"' EXIT
  editcap -r "$capture" "$after" "$((retry + 1))-999999999"
  table "$capture" 0 "frame.number <= $retry"
  table "$after" "$retry"
fi

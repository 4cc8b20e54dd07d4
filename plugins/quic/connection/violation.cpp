#include "connection/violation.hpp"

#include "codec/frame.hpp"
#include "connection/stream_id.hpp"
#include "connection/transport_params.hpp"

#include <array>

namespace conform::quic {

namespace {

// A well-formed preferred_address (§18.2): 127.0.0.1:4433, [::1]:4433, an
// 8-byte connection ID and a stateless reset token.
Bytes preferred_address_value() {
  Bytes out;
  Writer w(out);
  for (uint8_t b : {127, 0, 0, 1}) w.u8(b);
  w.uint(4433, 2);
  for (int i = 0; i < 15; ++i) w.u8(0);
  w.u8(1);
  w.uint(4433, 2);
  w.u8(8);
  for (int i = 0; i < 8; ++i) w.u8(static_cast<uint8_t>(0xd0 + i));
  for (int i = 0; i < 16; ++i) w.u8(static_cast<uint8_t>(0x5a));
  return out;
}

// N bytes counting up from `first`: recognisable in a capture.
template <size_t N>
std::array<uint8_t, N> counting_from(uint8_t first) {
  std::array<uint8_t, N> out{};
  for (size_t i = 0; i < N; ++i) out[i] = static_cast<uint8_t>(first + i);
  return out;
}

// The codec writes whatever values a frame holds, so a frame may carry what
// a decoder refuses (2^60 + 1 streams, a zero-length connection ID).
constexpr uint64_t kBeyond2To60 = (uint64_t{1} << 60) + 1;
constexpr uint8_t kOneByte[] = {'x'};
constexpr uint8_t kToken[] = {'t', 'o', 'k', 'n'};

// The one frame `v` is made of, when it is a frame the codec knows and
// `is_server`'s side may commit.
std::optional<Frame> forbidden_frame(Violation v, bool is_server) {
  // The receiver's 51st streams, which it has not opened.
  const bool receivers = !is_server;
  const uint64_t receivers_bidi = make_stream_id(50, receivers, Dir::bidi);
  const uint64_t receivers_uni = make_stream_id(50, receivers, Dir::uni);
  switch (v) {
    case Violation::max_streams_beyond_2_60: return MaxStreamsFrame{false, kBeyond2To60};
    case Violation::streams_blocked_beyond_2_60: return StreamsBlockedFrame{false, kBeyond2To60};
    // Its own first unidirectional stream: within any stream limit the
    // receiver gave (an HTTP/3 peer allows 3 at least), so only §19.10
    // applies, not §4.6's STREAM_LIMIT_ERROR.
    case Violation::max_stream_data_receive_only:
      return MaxStreamDataFrame{make_stream_id(0, is_server, Dir::uni), 100000};
    case Violation::max_stream_data_unopened_stream: return MaxStreamDataFrame{receivers_bidi, 100000};
    case Violation::reset_stream_send_only: return ResetStreamFrame{receivers_uni, 0, 0};
    case Violation::stream_on_send_only: return StreamFrame{receivers_uni, 0, kOneByte};
    case Violation::stream_on_unopened_stream: return StreamFrame{receivers_bidi, 0, kOneByte};
    case Violation::stop_sending_unopened_stream: return StopSendingFrame{receivers_bidi, 0};
    case Violation::new_connection_id_zero_length:
      return NewConnectionIdFrame{1, 0, ConnectionId{}, counting_from<16>(0x50)};
    case Violation::retire_prior_to_above_sequence:
      return NewConnectionIdFrame{1, 2, ConnectionId(counting_from<8>(0xc0)), counting_from<16>(0x50)};
    case Violation::path_challenge_in_handshake: return PathChallengeFrame{counting_from<8>(0xa0)};
    case Violation::handshake_done_from_client:
      return is_server ? std::nullopt : std::optional<Frame>(HandshakeDoneFrame{});
    case Violation::new_token_from_client:
      return is_server ? std::nullopt : std::optional<Frame>(NewTokenFrame{kToken});
    default: return std::nullopt;
  }
}

}  // namespace

std::optional<Bytes> violation_frames(Violation v, bool is_server) {
  Bytes out;
  Writer w(out);
  if (v == Violation::unknown_frame_type) {
    w.varint(0x3e);  // a type no RFC defines, which the codec cannot hold
    return out;
  }
  const auto frame = forbidden_frame(v, is_server);
  if (!frame) return std::nullopt;
  encode_frame(w, *frame);
  return out;
}

Bytes key_update_message() { return {0x18, 0x00, 0x00, 0x01, 0x00}; }

namespace {

// Skips a vector of `len_bytes` length bytes at `pos`; false past the end.
bool skip_vector(const Bytes& m, size_t& pos, size_t len_bytes) {
  if (pos + len_bytes > m.size()) return false;
  size_t len = 0;
  for (size_t i = 0; i < len_bytes; ++i) len = len << 8 | m[pos + i];
  pos += len_bytes + len;
  return pos <= m.size();
}

constexpr uint8_t kClientHello = 1, kEncryptedExtensions = 8;
constexpr uint16_t kQuicTransportParameters = 0x39;

// Writes `value` big-endian into `bytes` bytes at `pos`.
void put_length(Bytes& m, size_t pos, size_t bytes, size_t value) {
  for (size_t i = bytes; i-- > 0; value >>= 8) m[pos + i] = static_cast<uint8_t>(value & 0xff);
}

}  // namespace

bool remove_transport_parameters_extension(Bytes& m) {
  if (m.size() < 4 || (m[0] != kClientHello && m[0] != kEncryptedExtensions)) return false;
  const size_t message_end = 4 + (size_t{m[1]} << 16 | size_t{m[2]} << 8 | m[3]);
  if (message_end > m.size()) return false;
  size_t pos = 4;  // type and 3-byte length
  if (m[0] == kClientHello) {
    pos += 2 + 32;  // legacy_version, random
    if (!skip_vector(m, pos, 1) || !skip_vector(m, pos, 2) || !skip_vector(m, pos, 1)) return false;
  }
  const size_t extensions_at = pos;
  if (pos + 2 > message_end) return false;
  pos += 2;
  while (pos + 4 <= message_end) {
    const uint16_t type = static_cast<uint16_t>(m[pos] << 8 | m[pos + 1]);
    size_t next = pos + 2;
    if (!skip_vector(m, next, 2) || next > message_end) return false;
    if (type == kQuicTransportParameters) {
      const size_t removed = next - pos;
      m.erase(m.begin() + static_cast<std::ptrdiff_t>(pos), m.begin() + static_cast<std::ptrdiff_t>(next));
      put_length(m, 1, 3, message_end - 4 - removed);
      put_length(m, extensions_at, 2, (size_t{m[extensions_at]} << 8 | m[extensions_at + 1]) - removed);
      return true;
    }
    pos = next;
  }
  return false;
}

bool of_http3(Violation v) {
  return v == Violation::h3_control_stream_without_settings_first || v == Violation::h3_data_on_control_stream ||
         v == Violation::h3_second_settings || v == Violation::h3_data_before_headers;
}

bool in_transport_parameters(Violation v) {
  switch (v) {
    case Violation::ack_delay_exponent_above_20:
    case Violation::max_ack_delay_2_14:
    case Violation::max_udp_payload_size_below_1200:
    case Violation::stateless_reset_token_from_client:
    case Violation::original_destination_connection_id_from_client:
    case Violation::retry_source_connection_id_from_client:
    case Violation::preferred_address_from_client:
    case Violation::initial_source_connection_id_missing:
      return true;
    default:
      return false;
  }
}

bool breaks_transport_parameters(Violation v, bool is_server) {
  if (!in_transport_parameters(v)) return false;
  switch (v) {
    case Violation::stateless_reset_token_from_client:
    case Violation::original_destination_connection_id_from_client:
    case Violation::retry_source_connection_id_from_client:
    case Violation::preferred_address_from_client:
      return !is_server;
    default:
      return true;
  }
}

void break_transport_parameters(Violation v, bool is_server, TransportParameters& tp) {
  switch (v) {
    case Violation::ack_delay_exponent_above_20: tp.ack_delay_exponent = 21; break;
    case Violation::max_ack_delay_2_14: tp.max_ack_delay_ms = 1u << 14; break;
    case Violation::max_udp_payload_size_below_1200: tp.max_udp_payload_size = 1199; break;
    case Violation::stateless_reset_token_from_client:
      if (!is_server) tp.stateless_reset_token.emplace().fill(0x5a);
      break;
    // A server-only parameter from a client: the values are well formed, so
    // only §18.2's "a client MUST NOT include" is broken.
    case Violation::original_destination_connection_id_from_client:
      if (!is_server) tp.original_destination_connection_id = *tp.initial_source_connection_id;
      break;
    case Violation::retry_source_connection_id_from_client:
      if (!is_server) tp.retry_source_connection_id = *tp.initial_source_connection_id;
      break;
    case Violation::preferred_address_from_client:
      if (!is_server) tp.preferred_address = preferred_address_value();
      break;
    case Violation::initial_source_connection_id_missing: tp.initial_source_connection_id.reset(); break;
    default: break;
  }
}

}  // namespace conform::quic

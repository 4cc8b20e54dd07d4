// Transport parameter decoding, RFC 9000 §18, and finding the extension in
// TLS 1.3 handshake messages, RFC 8446 §4.1.2 and §4.3.1.
#include "dissect/transport_parameters.hpp"

#include "dissect/tls_hello.hpp"
#include "dissect/wire_reader.hpp"

#include <set>

namespace conform::dissect {
namespace {

constexpr std::uint16_t kQuicTransportParameters = 0x39;

bool integer(std::span<const std::uint8_t> v, std::optional<std::uint64_t>& out) {
  WireReader r(v);
  auto x = r.varint();
  if (!x || !r.empty()) return false;
  out = *x;
  return true;
}

bool connection_id(std::span<const std::uint8_t> v, std::optional<ConnectionId>& out) {
  if (v.size() > kMaxConnectionIdLength) return false;
  out = ConnectionId(v.begin(), v.end());
  return true;
}

}  // namespace

std::optional<TransportParameters> parse_transport_parameters(std::span<const std::uint8_t> value,
                                                              std::string& why) {
  TransportParameters tp;
  std::set<std::uint64_t> seen;
  WireReader r(value);
  while (!r.empty()) {
    auto id = r.varint();
    auto length = id ? r.varint() : std::nullopt;
    auto v = length ? r.bytes(*length) : std::nullopt;
    if (!v) {
      why = "transport parameter cut short";
      return std::nullopt;
    }
    const bool known = *id <= 0x10 || *id == 0x20;
    if (known && !seen.insert(*id).second) {
      why = "transport parameter 0x" + to_hex(std::array<std::uint8_t, 1>{static_cast<std::uint8_t>(*id)}) +
            " sent twice (RFC 9000 §7.4)";
      return std::nullopt;
    }
    bool ok = true;
    switch (*id) {
      case 0x00: ok = connection_id(*v, tp.original_destination_connection_id); break;
      case 0x01: ok = integer(*v, tp.max_idle_timeout); break;
      case 0x02:
        ok = v->size() == 16;
        if (ok) std::copy(v->begin(), v->end(), tp.stateless_reset_token.emplace().begin());
        break;
      case 0x03: ok = integer(*v, tp.max_udp_payload_size) && *tp.max_udp_payload_size >= 1200; break;
      case 0x04: ok = integer(*v, tp.initial_max_data); break;
      case 0x05: ok = integer(*v, tp.initial_max_stream_data_bidi_local); break;
      case 0x06: ok = integer(*v, tp.initial_max_stream_data_bidi_remote); break;
      case 0x07: ok = integer(*v, tp.initial_max_stream_data_uni); break;
      case 0x08: ok = integer(*v, tp.initial_max_streams_bidi) && *tp.initial_max_streams_bidi <= (1ull << 60); break;
      case 0x09: ok = integer(*v, tp.initial_max_streams_uni) && *tp.initial_max_streams_uni <= (1ull << 60); break;
      case 0x0a: ok = integer(*v, tp.ack_delay_exponent) && *tp.ack_delay_exponent <= 20; break;
      case 0x0b: ok = integer(*v, tp.max_ack_delay) && *tp.max_ack_delay < (1u << 14); break;
      case 0x0c:
        ok = v->empty();
        tp.disable_active_migration = true;
        break;
      case 0x0d: tp.preferred_address = Bytes(v->begin(), v->end()); break;
      case 0x0e: ok = integer(*v, tp.active_connection_id_limit) && *tp.active_connection_id_limit >= 2; break;
      case 0x0f: ok = connection_id(*v, tp.initial_source_connection_id); break;
      case 0x10: ok = connection_id(*v, tp.retry_source_connection_id); break;
      case 0x20: ok = integer(*v, tp.max_datagram_frame_size); break;
      default: tp.others.emplace_back(*id, Bytes(v->begin(), v->end())); break;
    }
    if (!ok) {
      why = "transport parameter 0x" + to_hex(std::array<std::uint8_t, 1>{static_cast<std::uint8_t>(*id)}) +
            " has an invalid value (RFC 9000 §18.2)";
      return std::nullopt;
    }
  }
  return tp;
}

std::optional<std::span<const std::uint8_t>> transport_parameters_extension(
    std::uint8_t type, std::span<const std::uint8_t> body) {
  return tls_extension(type, body, kQuicTransportParameters);
}

}  // namespace conform::dissect

// Transport parameter encoding and validation, RFC 9000 §18.
#include "connection/transport_params.hpp"

#include <bitset>

namespace conform::quic {

namespace {

namespace id {
constexpr uint64_t odcid = 0x00, idle = 0x01, reset_token = 0x02, max_udp = 0x03,
                   max_data = 0x04, msd_bidi_local = 0x05, msd_bidi_remote = 0x06,
                   msd_uni = 0x07, streams_bidi = 0x08, streams_uni = 0x09,
                   ack_delay_exp = 0x0a, max_ack_delay = 0x0b, no_migration = 0x0c,
                   preferred_address = 0x0d, cid_limit = 0x0e, iscid = 0x0f, rscid = 0x10;
}

void put_int(Writer& w, uint64_t pid, uint64_t v) {
  w.varint(pid);
  w.varint(varint_size(v));
  w.varint(v);
}

void put_bytes(Writer& w, uint64_t pid, ByteView b) {
  w.varint(pid);
  w.varint(b.size());
  w.bytes(b);
}

TransportError tp_error(const char* what) {
  return TransportError(TransportErrorCode::transport_parameter_error, what);
}

}  // namespace

Bytes encode_transport_parameters(const TransportParameters& tp) {
  const TransportParameters d;
  Bytes out;
  Writer w(out);
  if (tp.original_destination_connection_id) put_bytes(w, id::odcid, tp.original_destination_connection_id->view());
  if (tp.max_idle_timeout_ms) put_int(w, id::idle, tp.max_idle_timeout_ms);
  if (tp.stateless_reset_token) put_bytes(w, id::reset_token, *tp.stateless_reset_token);
  if (tp.max_udp_payload_size != d.max_udp_payload_size) put_int(w, id::max_udp, tp.max_udp_payload_size);
  if (tp.initial_max_data) put_int(w, id::max_data, tp.initial_max_data);
  if (tp.initial_max_stream_data_bidi_local) put_int(w, id::msd_bidi_local, tp.initial_max_stream_data_bidi_local);
  if (tp.initial_max_stream_data_bidi_remote) put_int(w, id::msd_bidi_remote, tp.initial_max_stream_data_bidi_remote);
  if (tp.initial_max_stream_data_uni) put_int(w, id::msd_uni, tp.initial_max_stream_data_uni);
  if (tp.initial_max_streams_bidi) put_int(w, id::streams_bidi, tp.initial_max_streams_bidi);
  if (tp.initial_max_streams_uni) put_int(w, id::streams_uni, tp.initial_max_streams_uni);
  if (tp.ack_delay_exponent != d.ack_delay_exponent) put_int(w, id::ack_delay_exp, tp.ack_delay_exponent);
  if (tp.max_ack_delay_ms != d.max_ack_delay_ms) put_int(w, id::max_ack_delay, tp.max_ack_delay_ms);
  if (tp.disable_active_migration) {
    w.varint(id::no_migration);
    w.varint(0);
  }
  if (tp.preferred_address) put_bytes(w, id::preferred_address, *tp.preferred_address);
  if (tp.active_connection_id_limit != d.active_connection_id_limit) put_int(w, id::cid_limit, tp.active_connection_id_limit);
  if (tp.initial_source_connection_id) put_bytes(w, id::iscid, tp.initial_source_connection_id->view());
  if (tp.retry_source_connection_id) put_bytes(w, id::rscid, tp.retry_source_connection_id->view());
  return out;
}

Result<TransportParameters> decode_transport_parameters(ByteView data, bool from_server, bool strict) {
  TransportParameters tp;
  Reader r(data);
  std::bitset<0x11> seen;
  while (!r.empty()) {
    uint64_t pid, len;
    ByteView value;
    if (!r.varint(pid) || !r.varint(len) || len > r.remaining() ||
        !r.bytes(static_cast<size_t>(len), value))
      return tp_error("truncated transport parameter");
    if (pid > id::rscid) continue;  // unknown or reserved (§18.1): ignored
    if (seen.test(pid)) return tp_error("duplicate transport parameter");
    seen.set(pid);
    const bool server_only = pid == id::odcid || pid == id::reset_token ||
                             pid == id::preferred_address || pid == id::rscid;
    if (server_only && !from_server) {
      if (!strict) continue;
      return tp_error("server-only transport parameter from a client");
    }
    Reader v(value);
    uint64_t n = 0;
    auto integer = [&]() { return v.varint(n) && v.empty(); };
    auto cid = [&](std::optional<ConnectionId>& out) {
      if (value.size() > ConnectionId::kMaxLen) return false;
      out = ConnectionId(value);
      return true;
    };
    bool ok = true;
    switch (pid) {
      case id::odcid: ok = cid(tp.original_destination_connection_id); break;
      case id::idle: ok = integer(); tp.max_idle_timeout_ms = n; break;
      case id::reset_token:
        ok = value.size() == 16;
        if (ok) std::copy(value.begin(), value.end(), tp.stateless_reset_token.emplace().begin());
        break;
      case id::max_udp: ok = integer() && n >= 1200; tp.max_udp_payload_size = n; break;
      case id::max_data: ok = integer(); tp.initial_max_data = n; break;
      case id::msd_bidi_local: ok = integer(); tp.initial_max_stream_data_bidi_local = n; break;
      case id::msd_bidi_remote: ok = integer(); tp.initial_max_stream_data_bidi_remote = n; break;
      case id::msd_uni: ok = integer(); tp.initial_max_stream_data_uni = n; break;
      case id::streams_bidi: ok = integer() && n <= (uint64_t{1} << 60); tp.initial_max_streams_bidi = n; break;
      case id::streams_uni: ok = integer() && n <= (uint64_t{1} << 60); tp.initial_max_streams_uni = n; break;
      case id::ack_delay_exp: ok = integer() && n <= 20; tp.ack_delay_exponent = n; break;
      case id::max_ack_delay: ok = integer() && n < (1u << 14); tp.max_ack_delay_ms = n; break;
      case id::no_migration: ok = value.empty(); tp.disable_active_migration = true; break;
      case id::preferred_address: tp.preferred_address = Bytes(value.begin(), value.end()); break;  // not used: we never migrate
      case id::cid_limit: ok = integer() && n >= 2; tp.active_connection_id_limit = n; break;
      case id::iscid: ok = cid(tp.initial_source_connection_id); break;
      case id::rscid: ok = cid(tp.retry_source_connection_id); break;
    }
    if (!ok && strict) return tp_error("invalid transport parameter value");  // the fault keeps what it read
  }
  if (!strict) return tp;
  if (!tp.initial_source_connection_id) return tp_error("initial_source_connection_id missing");
  if (from_server && !tp.original_destination_connection_id)
    return tp_error("original_destination_connection_id missing");
  return tp;
}

}  // namespace conform::quic

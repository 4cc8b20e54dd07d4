// The in-house QUIC's qlog events (quic-events-06 names and fields).
#include "connection/qlog_trace.hpp"

#include <nlohmann/json.hpp>

#include "recovery/recovery.hpp"

namespace conform::quic {
namespace {

using nlohmann::json;

std::string hex(std::span<const uint8_t> bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (uint8_t b : bytes) {
    out += kDigits[b >> 4];
    out += kDigits[b & 15];
  }
  return out;
}

const char* packet_type_name(PacketType t) {
  switch (t) {
    case PacketType::initial: return "initial";
    case PacketType::zero_rtt: return "0RTT";
    case PacketType::handshake: return "handshake";
    case PacketType::retry: return "retry";
    case PacketType::one_rtt: return "1RTT";
    case PacketType::version_negotiation: return "version_negotiation";
  }
  return "unknown";
}

const char* space_packet_type(Space s) {
  switch (s) {
    case Space::initial: return "initial";
    case Space::handshake: return "handshake";
    case Space::application: return "1RTT";
  }
  return "unknown";
}

const char* stream_type(bool bidi) { return bidi ? "bidirectional" : "unidirectional"; }

double ms(Duration d) { return static_cast<double>(d.ns) / 1e6; }

// One frame as a qlog QuicFrame (quic-events-06 §8.13): frame_type and the
// fields a reader of a trace looks for.
json frame_json(const Frame& frame) {
  return std::visit(
      [](const auto& f) -> json {
        using T = std::decay_t<decltype(f)>;
        if constexpr (std::is_same_v<T, PaddingFrame>) {
          return {{"frame_type", "padding"}, {"raw", {{"length", f.length}, {"payload_length", f.length}}}};
        } else if constexpr (std::is_same_v<T, PingFrame>) {
          return {{"frame_type", "ping"}};
        } else if constexpr (std::is_same_v<T, AckFrame>) {
          json ranges = json::array();
          for (auto it = f.ranges.rbegin(); it != f.ranges.rend(); ++it)
            ranges.push_back(it->smallest == it->largest ? json::array({it->smallest})
                                                         : json::array({it->smallest, it->largest}));
          return {{"frame_type", "ack"}, {"acked_ranges", ranges}};
        } else if constexpr (std::is_same_v<T, ResetStreamFrame>) {
          return {{"frame_type", "reset_stream"}, {"stream_id", f.stream_id}, {"error_code", f.error_code},
                  {"final_size", f.final_size}};
        } else if constexpr (std::is_same_v<T, StopSendingFrame>) {
          return {{"frame_type", "stop_sending"}, {"stream_id", f.stream_id}, {"error_code", f.error_code}};
        } else if constexpr (std::is_same_v<T, CryptoFrame>) {
          return {{"frame_type", "crypto"}, {"offset", f.offset}, {"length", f.data.size()}};
        } else if constexpr (std::is_same_v<T, NewTokenFrame>) {
          return {{"frame_type", "new_token"}, {"token", {{"raw", {{"length", f.token.size()}}}}}};
        } else if constexpr (std::is_same_v<T, StreamFrame>) {
          return {{"frame_type", "stream"}, {"stream_id", f.stream_id}, {"offset", f.offset},
                  {"length", f.data.size()}, {"fin", f.fin}};
        } else if constexpr (std::is_same_v<T, MaxDataFrame>) {
          return {{"frame_type", "max_data"}, {"maximum", f.maximum}};
        } else if constexpr (std::is_same_v<T, MaxStreamDataFrame>) {
          return {{"frame_type", "max_stream_data"}, {"stream_id", f.stream_id}, {"maximum", f.maximum}};
        } else if constexpr (std::is_same_v<T, MaxStreamsFrame>) {
          return {{"frame_type", "max_streams"}, {"stream_type", stream_type(f.bidi)}, {"maximum", f.maximum}};
        } else if constexpr (std::is_same_v<T, DataBlockedFrame>) {
          return {{"frame_type", "data_blocked"}, {"limit", f.limit}};
        } else if constexpr (std::is_same_v<T, StreamDataBlockedFrame>) {
          return {{"frame_type", "stream_data_blocked"}, {"stream_id", f.stream_id}, {"limit", f.limit}};
        } else if constexpr (std::is_same_v<T, StreamsBlockedFrame>) {
          return {{"frame_type", "streams_blocked"}, {"stream_type", stream_type(f.bidi)}, {"limit", f.limit}};
        } else if constexpr (std::is_same_v<T, NewConnectionIdFrame>) {
          return {{"frame_type", "new_connection_id"}, {"sequence_number", f.sequence},
                  {"retire_prior_to", f.retire_prior_to}, {"connection_id", hex(f.cid.view())}};
        } else if constexpr (std::is_same_v<T, RetireConnectionIdFrame>) {
          return {{"frame_type", "retire_connection_id"}, {"sequence_number", f.sequence}};
        } else if constexpr (std::is_same_v<T, PathChallengeFrame>) {
          return {{"frame_type", "path_challenge"}, {"data", hex(f.data)}};
        } else if constexpr (std::is_same_v<T, PathResponseFrame>) {
          return {{"frame_type", "path_response"}, {"data", hex(f.data)}};
        } else if constexpr (std::is_same_v<T, ConnectionCloseFrame>) {
          json j = {{"frame_type", "connection_close"},
                    {"error_space", f.application ? "application" : "transport"},
                    {"raw_error_code", f.error_code},
                    {"reason", f.reason}};
          if (!f.application) j["trigger_frame_type"] = f.frame_type;
          return j;
        } else {
          static_assert(std::is_same_v<T, HandshakeDoneFrame>);
          return {{"frame_type", "handshake_done"}};
        }
      },
      frame);
}

}  // namespace

std::string QlogTrace::header(std::string_view vantage, std::string_view title) {
  const json h = {{"qlog_format", "JSON-SEQ"},
                  {"qlog_version", "0.4"},
                  {"title", title},
                  {"trace",
                   {{"vantage_point", {{"type", vantage}}},
                    {"common_fields",
                     {{"time_format", "relative"}, {"reference_time", 0}, {"protocol_type", {"QUIC"}}}}}}};
  return "\x1e" + h.dump() + "\n";
}

void QlogTrace::set_group(const ConnectionId& original_dcid) { group_ = hex(original_dcid.view()); }

void QlogTrace::add_frame(std::string& list, const Frame& frame) const {
  if (!enabled()) return;
  if (!list.empty()) list += ',';
  list += frame_json(frame).dump();
}

void QlogTrace::event(Instant now, std::string_view name, const std::string& data_json) {
  if (!enabled()) return;
  std::string record = "\x1e{\"time\":" + json(static_cast<double>(now.ns) / 1e6).dump() + ",\"name\":" +
                       json(name).dump();
  if (!group_.empty()) record += ",\"group_id\":\"" + group_ + "\"";
  record += ",\"data\":" + data_json + "}\n";
  sink_(record);
}

void QlogTrace::packet_sent(Instant now, PacketType type, uint64_t pn, size_t length, const std::string& frames) {
  if (!enabled()) return;
  const json header = {{"packet_type", packet_type_name(type)}, {"packet_number", pn}};
  const json raw = {{"length", length}};
  event(now, "quic:packet_sent",
        "{\"header\":" + header.dump() + ",\"raw\":" + raw.dump() + ",\"frames\":[" + frames + "]}");
}

void QlogTrace::packet_received(Instant now, PacketType type, uint64_t pn, size_t length, ByteView payload) {
  if (!enabled()) return;
  json frames = json::array();
  Reader r(payload);
  while (!r.empty()) {
    auto f = decode_frame(r);
    if (!f) {
      // The connection closes on it (FRAME_ENCODING_ERROR); the trace shows where.
      frames.push_back({{"frame_type", "unknown"}, {"raw_frame_type", f.error().frame_type}});
      break;
    }
    frames.push_back(frame_json(f.value()));
  }
  const json data = {{"header", {{"packet_type", packet_type_name(type)}, {"packet_number", pn}}},
                     {"raw", {{"length", length}}},
                     {"frames", frames}};
  event(now, "quic:packet_received", data.dump());
}

void QlogTrace::packet_lost(Instant now, Space space, uint64_t pn) {
  if (!enabled()) return;
  const json data = {{"header", {{"packet_type", space_packet_type(space)}, {"packet_number", pn}}}};
  event(now, "recovery:packet_lost", data.dump());
}

void QlogTrace::metrics(Instant now, const Recovery& recovery) {
  if (!enabled()) return;
  const RttEstimator& rtt = recovery.rtt();
  const CongestionController& cc = recovery.congestion();
  Metrics m;
  m.min_rtt = rtt.has_sample() ? rtt.min().ns : -1;
  m.latest_rtt = rtt.has_sample() ? rtt.latest().ns : -1;
  m.smoothed_rtt = rtt.smoothed().ns;
  m.rtt_variance = rtt.rttvar().ns;
  m.pto_count = recovery.pto_count();
  m.congestion_window = cc.window();
  m.bytes_in_flight = cc.bytes_in_flight();
  m.ssthresh = cc.ssthresh();
  json data = json::object();
  auto rtt_field = [&](const char* name, int64_t now_ns, int64_t last_ns) {
    if (now_ns >= 0 && now_ns != last_ns) data[name] = ms(Duration::nanos(now_ns));
  };
  rtt_field("min_rtt", m.min_rtt, last_.min_rtt);
  rtt_field("smoothed_rtt", m.smoothed_rtt, last_.smoothed_rtt);
  rtt_field("latest_rtt", m.latest_rtt, last_.latest_rtt);
  rtt_field("rtt_variance", m.rtt_variance, last_.rtt_variance);
  if (m.pto_count != last_.pto_count) data["pto_count"] = m.pto_count;
  if (m.congestion_window != last_.congestion_window) data["congestion_window"] = m.congestion_window;
  if (m.bytes_in_flight != last_.bytes_in_flight) data["bytes_in_flight"] = m.bytes_in_flight;
  // Infinite until the first congestion event (slow start): not a number to log.
  if (m.ssthresh != last_.ssthresh && m.ssthresh != UINT64_MAX) data["ssthresh"] = m.ssthresh;
  last_ = m;
  if (!data.empty()) event(now, "recovery:metrics_updated", data.dump());
}

}  // namespace conform::quic

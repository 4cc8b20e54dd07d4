// The timeline as qlog JSON-SEQ.
#include "report/qlog.hpp"

#include "common/overload.hpp"
#include "dissect/timeline_format.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <limits>

namespace conform {
using nlohmann::json;
namespace {

const char* stream_type(bool bidi) { return bidi ? "bidirectional" : "unidirectional"; }

// draft-ietf-quic-qlog-quic-events §8.12 PacketType.
const char* packet_type(dissect::PacketType type) {
  switch (type) {
    case dissect::PacketType::initial: return "initial";
    case dissect::PacketType::zero_rtt: return "0RTT";
    case dissect::PacketType::handshake: return "handshake";
    case dissect::PacketType::retry: return "retry";
    case dissect::PacketType::version_negotiation: return "version_negotiation";
    case dissect::PacketType::one_rtt: return "1RTT";
    case dissect::PacketType::unknown_version: return "unknown";
  }
  return "unknown";
}

const char* drop_trigger(dissect::Undecryptable reason) {
  switch (reason) {
    case dissect::Undecryptable::malformed_header: return "header_parse_error";
    case dissect::Undecryptable::unknown_version: return "unsupported_version";
    case dissect::Undecryptable::no_keys: return "key_unavailable";
    case dissect::Undecryptable::authentication_failed: return "payload_decrypt_error";
    case dissect::Undecryptable::stateless_reset: return "general";
  }
  return "general";
}

// One frame in the draft's shape (quic-events §8.13). `ack_delay_exponent`
// scales the ACK Delay field to milliseconds.
json frame_json(const dissect::Frame& frame, std::uint64_t ack_delay_exponent) {
  using namespace dissect;
  json j;
  std::visit(
      Overload{
          [&](const PaddingFrame& f) {
            j = {{"frame_type", "padding"}, {"raw", {{"length", f.count}, {"payload_length", f.count}}}};
          },
          [&](const PingFrame&) { j = {{"frame_type", "ping"}}; },
          [&](const AckFrame& f) {
            json ranges = json::array();
            // The draft lists ranges in ascending order; the timeline keeps the wire's.
            for (auto r = f.ranges.rbegin(); r != f.ranges.rend(); ++r)
              ranges.push_back(r->smallest == r->largest ? json::array({r->largest})
                                                         : json::array({r->smallest, r->largest}));
            const double delay_us = static_cast<double>(f.ack_delay) * static_cast<double>(1ull << ack_delay_exponent);
            j = {{"frame_type", "ack"}, {"ack_delay", delay_us / 1000.0}, {"acked_ranges", ranges}};
            if (f.ecn) {
              j["ect0"] = f.ecn->ect0;
              j["ect1"] = f.ecn->ect1;
              j["ce"] = f.ecn->ce;
            }
          },
          [&](const ResetStreamFrame& f) {
            j = {{"frame_type", "reset_stream"}, {"stream_id", f.stream_id}, {"error_code", f.error_code},
                 {"final_size", f.final_size}};
          },
          [&](const StopSendingFrame& f) {
            j = {{"frame_type", "stop_sending"}, {"stream_id", f.stream_id}, {"error_code", f.error_code}};
          },
          [&](const CryptoFrame& f) { j = {{"frame_type", "crypto"}, {"offset", f.offset}, {"length", f.length}}; },
          [&](const NewTokenFrame& f) {
            j = {{"frame_type", "new_token"},
                 {"token", {{"raw", {{"length", f.token.size()}, {"data", to_hex(f.token)}}}}}};
          },
          [&](const StreamFrame& f) {
            j = {{"frame_type", "stream"}, {"stream_id", f.stream_id}, {"offset", f.offset},
                 {"length", f.length}, {"fin", f.fin}};
          },
          [&](const MaxDataFrame& f) { j = {{"frame_type", "max_data"}, {"maximum", f.maximum}}; },
          [&](const MaxStreamDataFrame& f) {
            j = {{"frame_type", "max_stream_data"}, {"stream_id", f.stream_id}, {"maximum", f.maximum}};
          },
          [&](const MaxStreamsFrame& f) {
            j = {{"frame_type", "max_streams"}, {"stream_type", stream_type(f.bidi)}, {"maximum", f.maximum}};
          },
          [&](const DataBlockedFrame& f) { j = {{"frame_type", "data_blocked"}, {"limit", f.limit}}; },
          [&](const StreamDataBlockedFrame& f) {
            j = {{"frame_type", "stream_data_blocked"}, {"stream_id", f.stream_id}, {"limit", f.limit}};
          },
          [&](const StreamsBlockedFrame& f) {
            j = {{"frame_type", "streams_blocked"}, {"stream_type", stream_type(f.bidi)}, {"limit", f.limit}};
          },
          [&](const NewConnectionIdFrame& f) {
            j = {{"frame_type", "new_connection_id"},
                 {"sequence_number", f.sequence},
                 {"retire_prior_to", f.retire_prior_to},
                 {"connection_id_length", f.connection_id.size()},
                 {"connection_id", to_hex(f.connection_id)},
                 {"stateless_reset_token", to_hex(f.reset_token)}};
          },
          [&](const RetireConnectionIdFrame& f) {
            j = {{"frame_type", "retire_connection_id"}, {"sequence_number", f.sequence}};
          },
          [&](const PathChallengeFrame& f) { j = {{"frame_type", "path_challenge"}, {"data", to_hex(f.data)}}; },
          [&](const PathResponseFrame& f) { j = {{"frame_type", "path_response"}, {"data", to_hex(f.data)}}; },
          [&](const ConnectionCloseFrame& f) {
            j = {{"frame_type", "connection_close"},
                 {"error_space", f.application ? "application" : "transport"},
                 {"error_code", f.error_code},
                 {"raw_error_code", f.error_code},
                 // Not necessarily UTF-8 on the wire; the JSON dump replaces what is not.
                 {"reason", f.reason}};
            if (f.frame_type) j["trigger_frame_type"] = *f.frame_type;
          },
          [&](const HandshakeDoneFrame&) { j = {{"frame_type", "handshake_done"}}; },
          [&](const DatagramFrame& f) { j = {{"frame_type", "datagram"}, {"length", f.length}}; },
          [&](const ImmediateAckFrame&) { j = {{"frame_type", "immediate_ack"}}; },
          [&](const UnknownFrame& f) {
            j = {{"frame_type", "unknown"}, {"raw_frame_type", f.type}, {"raw", {{"length", f.remaining}}}};
          },
          [&](const MalformedFrame& f) {
            j = {{"frame_type", "unknown"}, {"raw", {{"length", f.remaining}}}, {"details", f.reason}};
            if (f.type) j["raw_frame_type"] = *f.type;
          },
      },
      frame);
  return j;
}

json header_json(const dissect::Packet& p) {
  json h = {{"packet_type", p.undecryptable == dissect::Undecryptable::stateless_reset
                                ? "stateless_reset"
                                : packet_type(p.type)}};
  if (p.packet_number) h["packet_number"] = *p.packet_number;
  if (p.type != dissect::PacketType::one_rtt && p.type != dissect::PacketType::unknown_version) {
    h["version"] = fmt::format("{:08x}", p.version);
    h["scid"] = dissect::to_hex(p.extras().scid);
  }
  h["dcid"] = dissect::to_hex(p.dcid);
  if (p.key_phase) h["key_phase_bit"] = *p.key_phase;
  return h;
}

// The sender's ack_delay_exponent (RFC 9000 §18.2: 3 when absent).
std::uint64_t ack_delay_exponent(const std::optional<dissect::TransportParameters>& sender) {
  constexpr std::uint64_t kDefault = 3, kMax = 20;
  if (!sender || !sender->ack_delay_exponent) return kDefault;
  return std::min(*sender->ack_delay_exponent, kMax);
}

// Whether the vantage point sent datagrams going `direction`.
bool sent_by_vantage(dissect::Direction direction, QlogVantage vantage) {
  return vantage == QlogVantage::server ? direction == dissect::Direction::server_to_client
                                        : direction == dissect::Direction::client_to_server;
}

void write_record(std::ostream& out, const json& record) {
  // Record Separator first, line feed last (RFC 7464 §2.2). Text that is not
  // UTF-8 (reason phrases, paths) is replaced rather than failing the file.
  out << '\x1e' << record.dump(-1, ' ', false, json::error_handler_t::replace) << '\n';
}

std::int64_t first_time(const dissect::Timeline& t) {
  std::int64_t first = std::numeric_limits<std::int64_t>::max();
  for (const auto& c : t.connections)
    if (!c.datagrams.empty()) first = std::min(first, c.datagrams.front().time_ns);
  for (const auto& u : t.unattributed) first = std::min(first, u.time_ns);
  return first == std::numeric_limits<std::int64_t>::max() ? 0 : first;
}

class EventWriter {
 public:
  EventWriter(std::ostream& out, std::int64_t reference_ns, bool group_per_event)
      : out_(out), reference_ns_(reference_ns), group_per_event_(group_per_event) {}

  void write(std::int64_t time_ns, const char* name, json data, const std::string& group) {
    json event = {{"time", static_cast<double>(time_ns - reference_ns_) / 1e6}, {"name", name},
                  {"data", std::move(data)}};
    if (group_per_event_) event["group_id"] = group;
    write_record(out_, event);
  }

 private:
  std::ostream& out_;
  std::int64_t reference_ns_;
  bool group_per_event_;
};

json packet_data(const dissect::Packet& p, std::size_t datagram_id, bool coalesced,
                 std::uint64_t delay_exponent) {
  json data = {{"header", header_json(p)},
               {"raw", {{"length", p.length}, {"payload_length", p.payload_length}}},
               {"datagram_id", datagram_id}};
  if (coalesced) data["is_coalesced"] = true;
  if (p.type == dissect::PacketType::version_negotiation) {
    json versions = json::array();
    for (auto v : p.extras().supported_versions) versions.push_back(fmt::format("{:08x}", v));
    data["supported_versions"] = versions;
  }
  if (p.type == dissect::PacketType::retry && !p.extras().token.empty())
    data["retry_token"] = {{"raw", {{"length", p.extras().token.size()}, {"data", dissect::to_hex(p.extras().token)}}}};
  json frames = json::array();
  for (const auto& f : p.frames) frames.push_back(frame_json(f, delay_exponent));
  if (!frames.empty()) data["frames"] = std::move(frames);
  return data;
}

void write_connection(EventWriter& events, const dissect::Connection& c, QlogVantage vantage) {
  const std::string group = dissect::to_hex(c.original_dcid);
  const std::int64_t start = c.datagrams.empty() ? 0 : c.datagrams.front().time_ns;
  // Whose parameters are "local" depends on the vantage; a network capture
  // sees both as remote.
  auto owner = [&](bool client) {
    if (vantage == QlogVantage::network) return "remote";
    return (vantage == QlogVantage::client) == client ? "local" : "remote";
  };
  for (bool client : {true, false}) {
    const auto& params = client ? c.client_parameters : c.server_parameters;
    if (!params) continue;
    json data = dissect::parameters_json(params);
    data["owner"] = owner(client);
    events.write(start, "quic:parameters_set", std::move(data), group);
  }
  for (std::size_t i = 0; i < c.datagrams.size(); ++i) {
    const auto& d = c.datagrams[i];
    const bool sent = sent_by_vantage(d.direction, vantage);
    const auto& sender = d.direction == dissect::Direction::client_to_server ? c.client_parameters
                                                                             : c.server_parameters;
    const std::uint64_t exponent = ack_delay_exponent(sender);
    for (const auto& p : d.packets) {
      const bool readable = !p.undecryptable || *p.undecryptable == dissect::Undecryptable::stateless_reset;
      if (!readable) {
        json data = {{"header", header_json(p)}, {"raw", {{"length", p.length}}},
                     {"datagram_id", i}, {"trigger", drop_trigger(*p.undecryptable)},
                     {"details", p.extras().detail}};
        events.write(d.time_ns, "quic:packet_dropped", std::move(data), group);
        continue;
      }
      events.write(d.time_ns, sent ? "quic:packet_sent" : "quic:packet_received",
                   packet_data(p, i, d.packets.size() > 1, exponent), group);
    }
  }
}

}  // namespace

const char* to_string(QlogVantage vantage) {
  switch (vantage) {
    case QlogVantage::client: return "client";
    case QlogVantage::server: return "server";
    case QlogVantage::network: return "network";
  }
  return "network";
}

void write_qlog(std::ostream& out, const dissect::Timeline& timeline, const QlogOptions& options) {
  const std::int64_t reference_ns = first_time(timeline);
  json vantage_point = {{"type", to_string(options.vantage)}};
  if (options.vantage == QlogVantage::network) vantage_point["flow"] = "client";
  json common = {{"time_format", "relative"},
                 {"reference_time", static_cast<double>(reference_ns) / 1e6},
                 {"protocol_type", json::array({"QUIC"})}};
  const bool one_connection = timeline.connections.size() == 1;
  if (one_connection) common["group_id"] = dissect::to_hex(timeline.connections.front().original_dcid);
  write_record(out, {{"qlog_format", "JSON-SEQ"},
                     {"qlog_version", "0.4"},
                     {"title", options.title},
                     {"trace", {{"vantage_point", vantage_point}, {"common_fields", common}}}});
  EventWriter events(out, reference_ns, !one_connection);
  for (const auto& c : timeline.connections) write_connection(events, c, options.vantage);
  for (const auto& u : timeline.unattributed)
    events.write(u.time_ns, "quic:datagram_dropped", {{"raw", {{"length", u.size}}}, {"details", u.reason}},
                 "");
}

}  // namespace conform

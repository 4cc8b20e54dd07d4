// Text and JSON renderings of frames.
#include "dissect/frame_format.hpp"

#include "common/overload.hpp"
#include "dissect/bytes.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace conform::dissect {
namespace {

std::string ranges_text(const AckFrame& f) {
  std::string out;
  for (const auto& r : f.ranges) {
    if (!out.empty()) out += ',';
    out += r.smallest == r.largest ? fmt::format("{}", r.largest)
                                   : fmt::format("{}-{}", r.smallest, r.largest);
  }
  return out;
}

}  // namespace

std::string describe_frame(const Frame& frame) {
  return std::visit(
      Overload{
          [](const PaddingFrame& f) { return fmt::format("PADDING×{}", f.count); },
          [](const PingFrame&) { return std::string("PING"); },
          [](const AckFrame& f) {
            std::string s = fmt::format("ACK {} delay={}", ranges_text(f), f.ack_delay);
            if (f.ecn) s += fmt::format(" ect0={} ect1={} ce={}", f.ecn->ect0, f.ecn->ect1, f.ecn->ce);
            return s;
          },
          [](const ResetStreamFrame& f) {
            return fmt::format("RESET_STREAM id={} error={} final_size={}", f.stream_id, f.error_code,
                               f.final_size);
          },
          [](const StopSendingFrame& f) {
            return fmt::format("STOP_SENDING id={} error={}", f.stream_id, f.error_code);
          },
          [](const CryptoFrame& f) { return fmt::format("CRYPTO off={} len={}", f.offset, f.length); },
          [](const NewTokenFrame& f) { return fmt::format("NEW_TOKEN len={}", f.token.size()); },
          [](const StreamFrame& f) {
            return fmt::format("STREAM id={} off={} len={}{}", f.stream_id, f.offset, f.length,
                               f.fin ? " fin" : "");
          },
          [](const MaxDataFrame& f) { return fmt::format("MAX_DATA {}", f.maximum); },
          [](const MaxStreamDataFrame& f) {
            return fmt::format("MAX_STREAM_DATA id={} max={}", f.stream_id, f.maximum);
          },
          [](const MaxStreamsFrame& f) {
            return fmt::format("MAX_STREAMS {}={}", f.bidi ? "bidi" : "uni", f.maximum);
          },
          [](const DataBlockedFrame& f) { return fmt::format("DATA_BLOCKED {}", f.limit); },
          [](const StreamDataBlockedFrame& f) {
            return fmt::format("STREAM_DATA_BLOCKED id={} limit={}", f.stream_id, f.limit);
          },
          [](const StreamsBlockedFrame& f) {
            return fmt::format("STREAMS_BLOCKED {}={}", f.bidi ? "bidi" : "uni", f.limit);
          },
          [](const NewConnectionIdFrame& f) {
            return fmt::format("NEW_CONNECTION_ID seq={} retire_prior_to={} cid={}", f.sequence,
                               f.retire_prior_to, to_hex(f.connection_id));
          },
          [](const RetireConnectionIdFrame& f) {
            return fmt::format("RETIRE_CONNECTION_ID seq={}", f.sequence);
          },
          [](const PathChallengeFrame& f) { return fmt::format("PATH_CHALLENGE {}", to_hex(f.data)); },
          [](const PathResponseFrame& f) { return fmt::format("PATH_RESPONSE {}", to_hex(f.data)); },
          [](const ConnectionCloseFrame& f) {
            std::string s = fmt::format("CONNECTION_CLOSE {} error=0x{:x}",
                                        f.application ? "application" : "transport", f.error_code);
            if (f.frame_type) s += fmt::format(" frame_type=0x{:x}", *f.frame_type);
            if (!f.reason.empty()) s += " reason=" + quote_bytes(f.reason);
            return s;
          },
          [](const HandshakeDoneFrame&) { return std::string("HANDSHAKE_DONE"); },
          [](const DatagramFrame& f) { return fmt::format("DATAGRAM len={}", f.length); },
          [](const ImmediateAckFrame&) { return std::string("IMMEDIATE_ACK"); },
          [](const UnknownFrame& f) {
            return fmt::format("UNKNOWN type=0x{:x} at {} ({} bytes, not parsed)", f.type, f.offset, f.remaining);
          },
          [](const MalformedFrame& f) {
            std::string s = "MALFORMED";
            if (f.type) s += fmt::format(" type=0x{:x}", *f.type);
            return s + fmt::format(" at {} ({} bytes): {}", f.offset, f.remaining, f.reason);
          },
      },
      frame);
}

nlohmann::json frame_to_json(const Frame& frame) {
  nlohmann::json j;
  j["type"] = frame_name(frame);
  if (auto t = frame_type(frame)) j["type_value"] = *t;
  std::visit(
      Overload{
          [&](const PaddingFrame& f) { j["count"] = f.count; },
          [&](const PingFrame&) {},
          [&](const AckFrame& f) {
            j["largest"] = f.largest;
            j["ack_delay"] = f.ack_delay;
            auto ranges = nlohmann::json::array();
            for (const auto& r : f.ranges) ranges.push_back({r.smallest, r.largest});
            j["ranges"] = ranges;
            if (f.ecn) j["ecn"] = {{"ect0", f.ecn->ect0}, {"ect1", f.ecn->ect1}, {"ce", f.ecn->ce}};
          },
          [&](const ResetStreamFrame& f) {
            j["stream_id"] = f.stream_id;
            j["error_code"] = f.error_code;
            j["final_size"] = f.final_size;
          },
          [&](const StopSendingFrame& f) {
            j["stream_id"] = f.stream_id;
            j["error_code"] = f.error_code;
          },
          [&](const CryptoFrame& f) {
            j["offset"] = f.offset;
            j["length"] = f.length;
          },
          [&](const NewTokenFrame& f) { j["token"] = to_hex(f.token); },
          [&](const StreamFrame& f) {
            j["stream_id"] = f.stream_id;
            j["offset"] = f.offset;
            j["length"] = f.length;
            j["fin"] = f.fin;
          },
          [&](const MaxDataFrame& f) { j["maximum"] = f.maximum; },
          [&](const MaxStreamDataFrame& f) {
            j["stream_id"] = f.stream_id;
            j["maximum"] = f.maximum;
          },
          [&](const MaxStreamsFrame& f) {
            j["direction"] = f.bidi ? "bidi" : "uni";
            j["maximum"] = f.maximum;
          },
          [&](const DataBlockedFrame& f) { j["limit"] = f.limit; },
          [&](const StreamDataBlockedFrame& f) {
            j["stream_id"] = f.stream_id;
            j["limit"] = f.limit;
          },
          [&](const StreamsBlockedFrame& f) {
            j["direction"] = f.bidi ? "bidi" : "uni";
            j["limit"] = f.limit;
          },
          [&](const NewConnectionIdFrame& f) {
            j["sequence"] = f.sequence;
            j["retire_prior_to"] = f.retire_prior_to;
            j["connection_id"] = to_hex(f.connection_id);
            j["reset_token"] = to_hex(f.reset_token);
          },
          [&](const RetireConnectionIdFrame& f) { j["sequence"] = f.sequence; },
          [&](const PathChallengeFrame& f) { j["data"] = to_hex(f.data); },
          [&](const PathResponseFrame& f) { j["data"] = to_hex(f.data); },
          [&](const ConnectionCloseFrame& f) {
            j["application"] = f.application;
            j["error_code"] = f.error_code;
            if (f.frame_type) j["frame_type"] = *f.frame_type;
            // Not necessarily UTF-8: hex keeps the JSON valid whatever was sent.
            j["reason_hex"] = to_hex(std::span(reinterpret_cast<const std::uint8_t*>(f.reason.data()),
                                               f.reason.size()));
          },
          [&](const HandshakeDoneFrame&) {},
          [&](const DatagramFrame& f) { j["length"] = f.length; },
          [&](const ImmediateAckFrame&) {},
          [&](const UnknownFrame& f) {
            j["offset"] = f.offset;
            j["remaining"] = f.remaining;
          },
          [&](const MalformedFrame& f) {
            j["offset"] = f.offset;
            j["remaining"] = f.remaining;
            j["reason"] = f.reason;
          },
      },
      frame);
  return j;
}

}  // namespace conform::dissect

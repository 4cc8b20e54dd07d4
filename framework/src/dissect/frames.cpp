// Names and type values of frames (RFC 9000 §19, Table 3 of §12.4; RFC 9221;
// draft-ietf-quic-ack-frequency).
#include "dissect/frames.hpp"
#include "common/overload.hpp"

#include <utility>

namespace conform::dissect {

std::string_view frame_name(const Frame& frame) {
  return std::visit(
      Overload{
          [](const PaddingFrame&) { return "PADDING"; },
          [](const PingFrame&) { return "PING"; },
          [](const AckFrame&) { return "ACK"; },
          [](const ResetStreamFrame&) { return "RESET_STREAM"; },
          [](const StopSendingFrame&) { return "STOP_SENDING"; },
          [](const CryptoFrame&) { return "CRYPTO"; },
          [](const NewTokenFrame&) { return "NEW_TOKEN"; },
          [](const StreamFrame&) { return "STREAM"; },
          [](const MaxDataFrame&) { return "MAX_DATA"; },
          [](const MaxStreamDataFrame&) { return "MAX_STREAM_DATA"; },
          [](const MaxStreamsFrame&) { return "MAX_STREAMS"; },
          [](const DataBlockedFrame&) { return "DATA_BLOCKED"; },
          [](const StreamDataBlockedFrame&) { return "STREAM_DATA_BLOCKED"; },
          [](const StreamsBlockedFrame&) { return "STREAMS_BLOCKED"; },
          [](const NewConnectionIdFrame&) { return "NEW_CONNECTION_ID"; },
          [](const RetireConnectionIdFrame&) { return "RETIRE_CONNECTION_ID"; },
          [](const PathChallengeFrame&) { return "PATH_CHALLENGE"; },
          [](const PathResponseFrame&) { return "PATH_RESPONSE"; },
          [](const ConnectionCloseFrame&) { return "CONNECTION_CLOSE"; },
          [](const HandshakeDoneFrame&) { return "HANDSHAKE_DONE"; },
          [](const DatagramFrame&) { return "DATAGRAM"; },
          [](const ImmediateAckFrame&) { return "IMMEDIATE_ACK"; },
          [](const UnknownFrame&) { return "UNKNOWN"; },
          [](const MalformedFrame&) { return "MALFORMED"; },
      },
      frame);
}

bool ack_eliciting(const Frame& f) {
  return !std::holds_alternative<AckFrame>(f) && !std::holds_alternative<PaddingFrame>(f) &&
         !std::holds_alternative<ConnectionCloseFrame>(f) && !std::holds_alternative<MalformedFrame>(f);
}

namespace {

template <std::size_t... I>
std::vector<std::string_view> names_of(std::index_sequence<I...>) {
  return {frame_name(Frame{std::in_place_index<I>})...};
}

}  // namespace

const std::vector<std::string_view>& frame_names() {
  static const std::vector<std::string_view> names = [] {
    auto all = names_of(std::make_index_sequence<std::variant_size_v<Frame>>{});
    std::erase_if(all, [](std::string_view n) { return n == "UNKNOWN" || n == "MALFORMED"; });
    return all;
  }();
  return names;
}

std::optional<std::uint64_t> frame_type(const Frame& frame) {
  return std::visit(
      Overload{
          [](const PaddingFrame&) -> std::optional<std::uint64_t> { return 0x00; },
          [](const PingFrame&) -> std::optional<std::uint64_t> { return 0x01; },
          [](const AckFrame& f) -> std::optional<std::uint64_t> { return f.ecn ? 0x03 : 0x02; },
          [](const ResetStreamFrame&) -> std::optional<std::uint64_t> { return 0x04; },
          [](const StopSendingFrame&) -> std::optional<std::uint64_t> { return 0x05; },
          [](const CryptoFrame&) -> std::optional<std::uint64_t> { return 0x06; },
          [](const NewTokenFrame&) -> std::optional<std::uint64_t> { return 0x07; },
          [](const StreamFrame& f) -> std::optional<std::uint64_t> {
            return 0x08 | (f.has_offset ? 0x04 : 0) | (f.has_length ? 0x02 : 0) | (f.fin ? 0x01 : 0);
          },
          [](const MaxDataFrame&) -> std::optional<std::uint64_t> { return 0x10; },
          [](const MaxStreamDataFrame&) -> std::optional<std::uint64_t> { return 0x11; },
          [](const MaxStreamsFrame& f) -> std::optional<std::uint64_t> { return f.bidi ? 0x12 : 0x13; },
          [](const DataBlockedFrame&) -> std::optional<std::uint64_t> { return 0x14; },
          [](const StreamDataBlockedFrame&) -> std::optional<std::uint64_t> { return 0x15; },
          [](const StreamsBlockedFrame& f) -> std::optional<std::uint64_t> { return f.bidi ? 0x16 : 0x17; },
          [](const NewConnectionIdFrame&) -> std::optional<std::uint64_t> { return 0x18; },
          [](const RetireConnectionIdFrame&) -> std::optional<std::uint64_t> { return 0x19; },
          [](const PathChallengeFrame&) -> std::optional<std::uint64_t> { return 0x1a; },
          [](const PathResponseFrame&) -> std::optional<std::uint64_t> { return 0x1b; },
          [](const ConnectionCloseFrame& f) -> std::optional<std::uint64_t> {
            return f.application ? 0x1d : 0x1c;
          },
          [](const HandshakeDoneFrame&) -> std::optional<std::uint64_t> { return 0x1e; },
          [](const DatagramFrame& f) -> std::optional<std::uint64_t> { return f.has_length ? 0x31 : 0x30; },
          [](const ImmediateAckFrame&) -> std::optional<std::uint64_t> { return 0x1f; },
          [](const UnknownFrame& f) -> std::optional<std::uint64_t> { return f.type; },
          [](const MalformedFrame& f) { return f.type; },
      },
      frame);
}

}  // namespace conform::dissect

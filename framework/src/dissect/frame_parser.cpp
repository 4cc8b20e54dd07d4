// Frame parsing, RFC 9000 §19 and RFC 9221 §4. Every field read goes
// through WireReader, so a short payload is a malformed frame, never an
// out-of-bounds read.
#include "dissect/frame_parser.hpp"

#include "dissect/wire_reader.hpp"

#include <cstdio>

namespace conform::dissect {
namespace {

constexpr std::uint64_t kMaxStreamCount = std::uint64_t{1} << 60;  // §19.11, §19.14

std::string hex_type(std::uint64_t type) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(type));
  return buf;
}

// Parses one frame body after its type; on failure leaves `why` set.
class FrameReader {
 public:
  explicit FrameReader(std::span<const std::uint8_t> payload) : r_(payload) {}

  WireReader& reader() { return r_; }
  const std::string& why() const { return why_; }

  std::optional<Frame> frame(std::uint64_t type) {
    switch (type) {
      case 0x00: return padding();
      case 0x01: return PingFrame{};
      case 0x02:
      case 0x03: return ack(type == 0x03);
      case 0x04: return reset_stream();
      case 0x05: return stop_sending();
      case 0x06: return crypto();
      case 0x07: return new_token();
      case 0x10: return single<MaxDataFrame>("Maximum Data");
      case 0x11: return max_stream_data();
      case 0x12:
      case 0x13: return max_streams(type == 0x12);
      case 0x14: return single<DataBlockedFrame>("Maximum Data");
      case 0x15: return stream_data_blocked();
      case 0x16:
      case 0x17: return streams_blocked(type == 0x16);
      case 0x18: return new_connection_id();
      case 0x19: return single<RetireConnectionIdFrame>("Sequence Number");
      case 0x1a: return path_data<PathChallengeFrame>();
      case 0x1b: return path_data<PathResponseFrame>();
      case 0x1c:
      case 0x1d: return connection_close(type == 0x1d);
      case 0x1e: return HandshakeDoneFrame{};
      case 0x1f: return ImmediateAckFrame{};
      case 0x30:
      case 0x31: return datagram(type == 0x31);
      default:
        if (type >= 0x08 && type <= 0x0f) return stream(type);
        return UnknownFrame{type};
    }
  }

 private:
  std::nullopt_t fail(std::string why) {
    why_ = std::move(why);
    return std::nullopt;
  }

  bool varint(std::uint64_t& out, const char* field) {
    auto v = r_.varint();
    if (!v) {
      why_ = std::string(field) + " cut short";
      return false;
    }
    out = *v;
    return true;
  }

  // The data of a CRYPTO, STREAM or DATAGRAM frame: checks it is all there
  // and returns where it starts.
  bool data(std::uint64_t length, std::size_t& at, const char* field) {
    at = r_.position();
    if (!r_.bytes(length)) {
      why_ = std::string(field) + " runs past the end of the packet (" + std::to_string(length) +
             " bytes announced, " + std::to_string(r_.remaining()) + " left)";
      return false;
    }
    return true;
  }

  std::optional<Frame> padding() {
    PaddingFrame f{1};
    while (!r_.empty() && r_.rest()[0] == 0x00) {
      r_.u8();
      ++f.count;
    }
    return f;
  }

  std::optional<Frame> ack(bool with_ecn) {
    AckFrame f;
    std::uint64_t count = 0, first = 0;
    if (!varint(f.largest, "Largest Acknowledged") || !varint(f.ack_delay, "ACK Delay") ||
        !varint(count, "ACK Range Count") || !varint(first, "First ACK Range"))
      return std::nullopt;
    if (first > f.largest) return fail("First ACK Range exceeds Largest Acknowledged (§19.3.1)");
    f.ranges.push_back({f.largest - first, f.largest});
    // No reserve(count): the count is untrusted; each pair takes at least
    // two bytes, so the loop ends when the payload does.
    for (std::uint64_t i = 0; i < count; ++i) {
      std::uint64_t gap = 0, length = 0;
      if (!varint(gap, "Gap") || !varint(length, "ACK Range Length")) return std::nullopt;
      const std::uint64_t previous_smallest = f.ranges.back().smallest;
      if (previous_smallest < gap + 2) return fail("ACK range goes below packet number 0 (§19.3.1)");
      const std::uint64_t largest = previous_smallest - gap - 2;
      if (length > largest) return fail("ACK range goes below packet number 0 (§19.3.1)");
      f.ranges.push_back({largest - length, largest});
    }
    if (with_ecn) {
      EcnCounts ecn;
      if (!varint(ecn.ect0, "ECT0 Count") || !varint(ecn.ect1, "ECT1 Count") ||
          !varint(ecn.ce, "ECN-CE Count"))
        return std::nullopt;
      f.ecn = ecn;
    }
    return f;
  }

  std::optional<Frame> reset_stream() {
    ResetStreamFrame f;
    if (!varint(f.stream_id, "Stream ID") || !varint(f.error_code, "Application Protocol Error Code") ||
        !varint(f.final_size, "Final Size"))
      return std::nullopt;
    return f;
  }

  std::optional<Frame> stop_sending() {
    StopSendingFrame f;
    if (!varint(f.stream_id, "Stream ID") || !varint(f.error_code, "Application Protocol Error Code"))
      return std::nullopt;
    return f;
  }

  std::optional<Frame> crypto() {
    CryptoFrame f;
    if (!varint(f.offset, "Offset") || !varint(f.length, "Length")) return std::nullopt;
    if (f.offset + f.length > kMaxVarint) return fail("CRYPTO offset + length exceeds 2^62 - 1 (§19.6)");
    if (!data(f.length, f.data_at, "Crypto Data")) return std::nullopt;
    return f;
  }

  std::optional<Frame> new_token() {
    std::uint64_t length = 0;
    if (!varint(length, "Token Length")) return std::nullopt;
    if (length == 0) return fail("NEW_TOKEN with an empty token (§19.7)");
    auto token = r_.bytes(length);
    if (!token) return fail("Token runs past the end of the packet");
    return NewTokenFrame{Bytes(token->begin(), token->end())};
  }

  std::optional<Frame> stream(std::uint64_t type) {
    StreamFrame f;
    f.has_offset = type & 0x04;
    f.has_length = type & 0x02;
    f.fin = type & 0x01;
    if (!varint(f.stream_id, "Stream ID")) return std::nullopt;
    if (f.has_offset && !varint(f.offset, "Offset")) return std::nullopt;
    if (f.has_length) {
      if (!varint(f.length, "Length")) return std::nullopt;
    } else {
      f.length = r_.remaining();
    }
    if (f.offset + f.length > kMaxVarint) return fail("STREAM offset + length exceeds 2^62 - 1 (§19.8)");
    if (!data(f.length, f.data_at, "Stream Data")) return std::nullopt;
    return f;
  }

  template <class F>
  std::optional<Frame> single(const char* field) {
    F f;
    std::uint64_t v = 0;
    if (!varint(v, field)) return std::nullopt;
    if constexpr (std::is_same_v<F, MaxDataFrame>) f.maximum = v;
    if constexpr (std::is_same_v<F, DataBlockedFrame>) f.limit = v;
    if constexpr (std::is_same_v<F, RetireConnectionIdFrame>) f.sequence = v;
    return f;
  }

  std::optional<Frame> max_stream_data() {
    MaxStreamDataFrame f;
    if (!varint(f.stream_id, "Stream ID") || !varint(f.maximum, "Maximum Stream Data"))
      return std::nullopt;
    return f;
  }

  std::optional<Frame> max_streams(bool bidi) {
    MaxStreamsFrame f{bidi, 0};
    if (!varint(f.maximum, "Maximum Streams")) return std::nullopt;
    if (f.maximum > kMaxStreamCount) return fail("Maximum Streams exceeds 2^60 (§19.11)");
    return f;
  }

  std::optional<Frame> stream_data_blocked() {
    StreamDataBlockedFrame f;
    if (!varint(f.stream_id, "Stream ID") || !varint(f.limit, "Maximum Stream Data"))
      return std::nullopt;
    return f;
  }

  std::optional<Frame> streams_blocked(bool bidi) {
    StreamsBlockedFrame f{bidi, 0};
    if (!varint(f.limit, "Maximum Streams")) return std::nullopt;
    if (f.limit > kMaxStreamCount) return fail("Maximum Streams exceeds 2^60 (§19.14)");
    return f;
  }

  std::optional<Frame> new_connection_id() {
    NewConnectionIdFrame f;
    if (!varint(f.sequence, "Sequence Number") || !varint(f.retire_prior_to, "Retire Prior To"))
      return std::nullopt;
    if (f.retire_prior_to > f.sequence)
      return fail("Retire Prior To exceeds Sequence Number (§19.15)");
    auto length = r_.u8();
    if (!length) return fail("Length cut short");
    if (*length < 1 || *length > kMaxConnectionIdLength)
      return fail("connection ID length " + std::to_string(*length) + " outside 1..20 (§19.15)");
    auto cid = r_.bytes(*length);
    if (!cid) return fail("Connection ID cut short");
    f.connection_id.assign(cid->begin(), cid->end());
    auto token = r_.bytes(16);
    if (!token) return fail("Stateless Reset Token cut short");
    std::copy(token->begin(), token->end(), f.reset_token.begin());
    return f;
  }

  template <class F>
  std::optional<Frame> path_data() {
    F f;
    auto bytes = r_.bytes(8);
    if (!bytes) return fail("Data cut short (8 bytes expected)");
    std::copy(bytes->begin(), bytes->end(), f.data.begin());
    return f;
  }

  std::optional<Frame> connection_close(bool application) {
    ConnectionCloseFrame f;
    f.application = application;
    if (!varint(f.error_code, "Error Code")) return std::nullopt;
    if (!application) {
      std::uint64_t type = 0;
      if (!varint(type, "Frame Type")) return std::nullopt;
      f.frame_type = type;
    }
    std::uint64_t length = 0;
    if (!varint(length, "Reason Phrase Length")) return std::nullopt;
    auto reason = r_.bytes(length);
    if (!reason) return fail("Reason Phrase runs past the end of the packet");
    f.reason.assign(reason->begin(), reason->end());
    return f;
  }

  std::optional<Frame> datagram(bool with_length) {
    DatagramFrame f;
    f.has_length = with_length;
    if (with_length) {
      if (!varint(f.length, "Length")) return std::nullopt;
    } else {
      f.length = r_.remaining();
    }
    if (!data(f.length, f.data_at, "Datagram Data")) return std::nullopt;
    return f;
  }

  WireReader r_;
  std::string why_;
};

}  // namespace

std::vector<Frame> parse_frames(std::span<const std::uint8_t> payload) {
  std::vector<Frame> frames;
  if (payload.empty()) {
    frames.push_back(MalformedFrame{std::nullopt, 0, 0, "packet payload holds no frame (§12.4)"});
    return frames;
  }
  FrameReader fr(payload);
  WireReader& r = fr.reader();
  while (!r.empty()) {
    const std::size_t start = r.position();
    auto type = r.varint();
    if (!type) {
      frames.push_back(MalformedFrame{std::nullopt, start, payload.size() - start, "frame type cut short"});
      break;
    }
    if (r.position() - start != varint_min_length(*type)) {
      // §12.4: a frame type MUST use its shortest encoding.
      frames.push_back(MalformedFrame{*type, start, payload.size() - start,
                                      "frame type " + hex_type(*type) +
                                          " not in its shortest encoding (§12.4)"});
      break;
    }
    auto frame = fr.frame(*type);
    if (!frame) {
      frames.push_back(MalformedFrame{*type, start, payload.size() - start, fr.why()});
      break;
    }
    if (auto* unknown = std::get_if<UnknownFrame>(&*frame)) {
      unknown->offset = start;
      unknown->remaining = payload.size() - start;
      frames.push_back(std::move(*frame));
      break;
    }
    frames.push_back(std::move(*frame));
  }
  return frames;
}

}  // namespace conform::dissect

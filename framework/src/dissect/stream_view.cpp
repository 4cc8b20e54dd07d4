// Deriving per-stream views from frames.
#include "dissect/stream_view.hpp"

#include "dissect/range_set.hpp"

namespace conform::dissect {
namespace {

Direction reverse(Direction d) {
  return d == Direction::client_to_server ? Direction::server_to_client : Direction::client_to_server;
}

struct Builder {
  std::map<std::uint64_t, StreamView> views;
  std::map<std::pair<std::uint64_t, std::size_t>, RangeSet> coverage;

  StreamFlow& flow(std::uint64_t id, Direction d, std::uint64_t frame) {
    StreamView& v = views[id];
    v.id = id;
    if (!v.first_frame) v.first_frame = frame;
    StreamFlow& f = v.flows[static_cast<std::size_t>(d)];
    if (!f.first_frame) f.first_frame = frame;
    f.last_frame = frame;
    return f;
  }

  void add(const Frame& frame, Direction sent, std::uint64_t at) {
    if (const auto* s = std::get_if<StreamFrame>(&frame)) {
      StreamFlow& f = flow(s->stream_id, sent, at);
      ++f.stream_frames;
      f.sent_bytes += s->length;
      f.highest_offset = std::max(f.highest_offset, s->offset + s->length);
      f.unique_bytes += coverage[{s->stream_id, static_cast<std::size_t>(sent)}].add(s->offset, s->offset + s->length);
      if (s->fin) f.fin_size = s->offset + s->length;
    } else if (const auto* r = std::get_if<ResetStreamFrame>(&frame)) {
      StreamFlow& f = flow(r->stream_id, sent, at);
      f.reset = *r;
      if (!f.reset_frame) f.reset_frame = at;
    } else if (const auto* ss = std::get_if<StopSendingFrame>(&frame)) {
      // Sent by the receiver about the data flowing towards it.
      flow(ss->stream_id, reverse(sent), at).stop_sending_error = ss->error_code;
    } else if (const auto* m = std::get_if<MaxStreamDataFrame>(&frame)) {
      auto& limit = flow(m->stream_id, reverse(sent), at).max_stream_data;
      limit = std::max(limit.value_or(0), m->maximum);
    } else if (const auto* b = std::get_if<StreamDataBlockedFrame>(&frame)) {
      auto& limit = flow(b->stream_id, sent, at).blocked_at;
      limit = std::max(limit.value_or(0), b->limit);
    }
  }
};

// Whether the connection speaks HTTP/3: "h3", or a draft's "h3-29", whose
// stream types were the same.
bool speaks_h3(const Connection& c) { return c.alpn == "h3" || c.alpn.starts_with("h3-"); }

}  // namespace

std::string_view to_string(H3StreamType t) {
  switch (t) {
    case H3StreamType::none: return "none";
    case H3StreamType::control: return "control";
    case H3StreamType::push: return "push";
    case H3StreamType::qpack_encoder: return "QPACK encoder";
    case H3StreamType::qpack_decoder: return "QPACK decoder";
    case H3StreamType::reserved: return "reserved";
    case H3StreamType::unknown: return "unknown";
  }
  return "unknown";
}

bool never_ends(H3StreamType t) {
  return t == H3StreamType::control || t == H3StreamType::qpack_encoder || t == H3StreamType::qpack_decoder ||
         t == H3StreamType::reserved;
}

std::optional<H3StreamType> h3_stream_type(std::span<const std::uint8_t> head) {
  if (head.empty()) return std::nullopt;
  const std::size_t length = std::size_t{1} << (head[0] >> 6);
  if (head.size() < length) return std::nullopt;
  std::uint64_t type = head[0] & 0x3f;
  for (std::size_t i = 1; i < length; ++i) type = type << 8 | head[i];
  switch (type) {
    case 0x00: return H3StreamType::control;
    case 0x01: return H3StreamType::push;
    case 0x02: return H3StreamType::qpack_encoder;
    case 0x03: return H3StreamType::qpack_decoder;
    default: return type >= 0x21 && (type - 0x21) % 0x1f == 0 ? H3StreamType::reserved : H3StreamType::unknown;
  }
}

std::vector<StreamView> stream_views(const Connection& connection) {
  Builder b;
  for (const Datagram& d : connection.datagrams)
    for (const Packet& p : d.packets)
      for (const Frame& f : p.frames) b.add(f, d.direction, d.frame);
  if (speaks_h3(connection))
    for (const auto& [id, head] : connection.uni_stream_heads)
      if (auto it = b.views.find(id); it != b.views.end())
        it->second.h3 = h3_stream_type(head).value_or(H3StreamType::none);
  std::vector<StreamView> out;
  out.reserve(b.views.size());
  for (auto& [id, view] : b.views) out.push_back(std::move(view));
  return out;
}

}  // namespace conform::dissect

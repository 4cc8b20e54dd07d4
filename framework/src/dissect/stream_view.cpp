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

}  // namespace

std::vector<StreamView> stream_views(const Connection& connection) {
  Builder b;
  for (const Datagram& d : connection.datagrams)
    for (const Packet& p : d.packets)
      for (const Frame& f : p.frames) b.add(f, d.direction, d.frame);
  std::vector<StreamView> out;
  out.reserve(b.views.size());
  for (auto& [id, view] : b.views) out.push_back(std::move(view));
  return out;
}

}  // namespace conform::dissect

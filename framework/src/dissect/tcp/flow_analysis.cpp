// Segment by segment: which connection, which direction, what it says about
// windows, sequence space and transfers.
#include "dissect/tcp/flow_analysis.hpp"

#include "dissect/tcp/sequence_space.hpp"
#include "dissect/tcp/transfers.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>

namespace conform::tcp {

std::string to_string(Endpoint e) {
  return fmt::format("{}.{}.{}.{}:{}", e.address >> 24, (e.address >> 16) & 0xff,
                     (e.address >> 8) & 0xff, e.address & 0xff, e.port);
}

std::string Flow::name() const {
  return fmt::format("flow {} ({} -> {})", index, to_string(dir[0].from), to_string(dir[1].from));
}

namespace {

// RFC 7323 §2.3: a shift above 14 is used as 14.
constexpr int kMaxWindowShift = 14;

// Everything analysis tracks about one connection while reading segments.
struct FlowState {
  Flow flow;
  std::array<SequenceSpace, 2> seq;
  /// One past the highest sequence number sent, SYN and FIN included.
  std::array<std::optional<std::uint64_t>, 2> next;
  std::array<bool, 2> syn_seen{false, false};
  std::array<std::optional<std::uint8_t>, 2> offered;
  std::array<std::optional<std::uint64_t>, 2> last_window;
  std::array<bool, 2> in_zero_window{false, false};
  std::optional<std::uint32_t> initiator_isn;
  bool ended = false;
  TransferBuilder transfers;

  // RFC 7323 §2.2: windows are scaled only when both SYNs offered the option.
  int shift(int d) const {
    if (!syn_seen[0] || !syn_seen[1] || !offered[0] || !offered[1]) return 0;
    return std::min<int>(*offered[d], kMaxWindowShift);
  }
};

using Key = std::tuple<std::uint32_t, std::uint16_t, std::uint32_t, std::uint16_t>;

Key key_of(const TcpSegment& s) {
  Key a{s.src_address, s.src_port, s.dst_address, s.dst_port};
  Key b{s.dst_address, s.dst_port, s.src_address, s.src_port};
  return std::min(a, b);
}

bool opens_new_connection(const FlowState& st, const TcpSegment& s) {
  if (!s.has(tcp_flag::syn) || s.has(tcp_flag::ack)) return false;
  return st.ended || (st.initiator_isn && *st.initiator_isn != s.seq);
}

void note_window(FlowState& st, int d, const TcpSegment& s, FrameRef at) {
  if (!s.has(tcp_flag::ack) || s.has(tcp_flag::rst)) return;
  Direction& dir = st.flow.dir[d];
  const int shift = s.has(tcp_flag::syn) ? 0 : st.shift(d);
  const std::uint64_t bytes = std::uint64_t{s.raw_window} << shift;
  dir.windows.push_back({at, bytes});
  st.last_window[d] = bytes;
  const bool control = s.has(tcp_flag::syn) || s.has(tcp_flag::fin);
  if (s.raw_window == 0 && !control) {
    dir.zero_windows.push_back(at);
    if (!st.in_zero_window[d]) dir.zero_window_episodes.push_back({at, at});
    st.in_zero_window[d] = true;
  } else if (s.raw_window != 0) {
    if (st.in_zero_window[d]) dir.zero_window_episodes.back().end = at;
    st.in_zero_window[d] = false;
  }
}

// Whether `s` probes the peer's zero window (RFC 9293 §3.8.6.1): one byte at
// the next sequence number, or, as Linux sends them, an empty segment one
// below it that the peer must answer with an ACK.
bool is_zero_window_probe(const FlowState& st, int d, const TcpSegment& s, std::uint64_t start) {
  const int peer = 1 - d;
  if (!st.last_window[peer] || *st.last_window[peer] != 0 || !st.next[d]) return false;
  if (s.flags & (tcp_flag::syn | tcp_flag::fin | tcp_flag::rst)) return false;
  return (s.payload_bytes == 1 && start == *st.next[d]) ||
         (s.payload_bytes == 0 && start + 1 == *st.next[d]);
}

void note_segment(FlowState& st, int d, const TcpSegment& s) {
  const FrameRef at{s.frame, s.time_ns};
  Direction& dir = st.flow.dir[d];
  ++dir.segments;
  st.flow.last = at;
  if (s.has(tcp_flag::syn)) {
    st.syn_seen[d] = true;
    st.offered[d] = s.window_scale;
    if (d == 0) st.initiator_isn = s.seq;
  }
  if (s.has(tcp_flag::fin) || s.has(tcp_flag::rst)) st.ended = true;
  const std::uint64_t syn = s.has(tcp_flag::syn) ? 1 : 0;
  const std::uint64_t start = st.seq[d].unwrap(s.seq) + syn;
  const bool probe = is_zero_window_probe(st, d, s, start);
  note_window(st, d, s, at);
  if (probe) dir.zero_window_probes.push_back(at);
  const std::uint64_t fin = s.has(tcp_flag::fin) ? 1 : 0;
  st.next[d] = std::max(st.next[d].value_or(0), start + s.payload_bytes + fin);
  if (s.payload_bytes == 0) return;

  ++dir.data_segments;
  const auto seen = st.seq[d].add(start, start + s.payload_bytes);
  const std::uint64_t fresh = s.payload_bytes - seen.repeated;
  dir.data_bytes += fresh;
  if (!probe) {
    if (seen.repeated > 0) dir.retransmissions.push_back(at);
    else if (seen.fills_hole) dir.out_of_order.push_back(at);
    else if (seen.after_hole) dir.after_missing.push_back(at);
  }
  if (fresh > 0) st.transfers.progress(d, at, fresh);
  if (d == 1) st.transfers.response_segment(at);
}

Flow finish(FlowState& st) {
  Flow flow = std::move(st.flow);
  flow.handshake_seen = st.syn_seen[0] && st.syn_seen[1];
  for (int d = 0; d < 2; ++d) {
    // A zero window still in force at the end of the capture lasted until then.
    if (st.in_zero_window[d]) flow.dir[d].zero_window_episodes.back().end = flow.last;
    flow.dir[d].offered_shift = st.offered[d] ? int{*st.offered[d]} : -1;
    flow.dir[d].window_shift = st.shift(d);
  }
  flow.transfers = st.transfers.finish(flow.last);
  return flow;
}

}  // namespace

std::vector<Flow> analyze_tcp(const std::vector<TcpSegment>& segments) {
  std::vector<Flow> flows;
  std::vector<FlowState> states;  // deque-like growth is fine: indices are stable
  std::map<Key, std::size_t> current;
  states.reserve(16);
  for (const auto& s : segments) {
    const Key key = key_of(s);
    auto it = current.find(key);
    if (it == current.end() || opens_new_connection(states[it->second], s)) {
      FlowState st;
      // The SYN's sender initiates; without a SYN, the first sender does.
      const bool reply_syn = s.has(tcp_flag::syn) && s.has(tcp_flag::ack);
      const Endpoint src{s.src_address, s.src_port}, dst{s.dst_address, s.dst_port};
      st.flow.dir[0].from = reply_syn ? dst : src;
      st.flow.dir[1].from = reply_syn ? src : dst;
      st.flow.first = {s.frame, s.time_ns};
      states.push_back(std::move(st));
      current[key] = states.size() - 1;
      it = current.find(key);
    }
    FlowState& st = states[it->second];
    const int d = st.flow.dir[0].from == Endpoint{s.src_address, s.src_port} ? 0 : 1;
    note_segment(st, d, s);
  }
  for (std::size_t i = 0; i < states.size(); ++i) {
    flows.push_back(finish(states[i]));
    flows.back().index = i + 1;
  }
  return flows;
}

}  // namespace conform::tcp

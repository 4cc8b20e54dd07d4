// The streams of one connection and everything that limits them, RFC 9000
// §2-§4: the streams themselves (§2, §3), their flow-control credit and the
// connection's (§4.1, §4.2, MAX_DATA, MAX_STREAM_DATA, *_DATA_BLOCKED) and
// the stream limits of both sides in both directions (§4.6, MAX_STREAMS,
// STREAMS_BLOCKED), with the handlers of the peer's stream frames and the
// writers of ours. Sans-IO like the Connection that owns it: frames go in,
// frames come out through a FrameSink, events go to the connection's queue.
#pragma once

#include <array>
#include <deque>
#include <map>
#include <optional>

#include "connection/config.hpp"
#include "connection/events.hpp"
#include "connection/stream.hpp"
#include "connection/stream_limits.hpp"
#include "connection/transport_params.hpp"
#include "recovery/sent_packet.hpp"

namespace conform::quic {

/// The most a STREAM frame's header takes (type, id, offset, length), bytes.
inline constexpr size_t kMaxStreamOverhead = 1 + 8 + 8 + 2;
/// The application error code of the reject_peer_streams script's
/// STOP_SENDING and RESET_STREAM: H3_REQUEST_REJECTED (RFC 9114 §8.1), what
/// a request server says of a request it did not process.
inline constexpr uint64_t kStreamRejected = 0x10b;
/// The code of the reset_send_after_bytes script's RESET_STREAM:
/// H3_REQUEST_CANCELLED (RFC 9114 §8.1), an answer given up.
inline constexpr uint64_t kStreamCancelled = 0x10c;

/// The packet being filled, as the frame writers see it.
class FrameSink {
 public:
  virtual ~FrameSink() = default;
  /// Bytes the packet can still take.
  virtual size_t room() const = 0;
  /// Appends `f`; `record` is what to act on when the packet is
  /// acknowledged or lost (nullopt: nothing).
  virtual void emit(const Frame& f, std::optional<SentFrame> record) = 0;
};

class StreamsState {
 public:
  /// `config` (our knobs and transport parameters) and `events` (where
  /// StreamOpened, StreamReadable, StreamReset, StreamStopped and
  /// StreamsAvailable go) must outlive this object.
  StreamsState(const Config& config, std::deque<Event>& events);
  StreamsState(const StreamsState&) = delete;
  StreamsState& operator=(const StreamsState&) = delete;

  /// The peer's transport parameters (§7.4, §18.2): our connection credit,
  /// our stream limits, and the initial credit of the streams made after.
  void on_peer_params(const TransportParameters& peer);

  // The peer's frames (1-RTT only). Errors are connection errors (§11):
  // STREAM_STATE_ERROR, STREAM_LIMIT_ERROR, FLOW_CONTROL_ERROR,
  // FINAL_SIZE_ERROR, each with the frame's type.
  Status<> on_stream(const StreamFrame& f);
  Status<> on_reset_stream(const ResetStreamFrame& f);
  Status<> on_stop_sending(const StopSendingFrame& f);
  Status<> on_max_stream_data(const MaxStreamDataFrame& f);
  Status<> on_stream_data_blocked(const StreamDataBlockedFrame& f);
  void on_max_data(const MaxDataFrame& f);
  void on_max_streams(const MaxStreamsFrame& f);
  void on_streams_blocked(const StreamsBlockedFrame& f);
  void on_data_blocked(const DataBlockedFrame& f);

  /// A packet that carried `sent` was acknowledged (RFC 9002 §6) or
  /// declared lost; records that are not a stream's are ignored. A lost
  /// control frame is not copied: its current value goes out again (§13.3).
  void on_acked(const SentFrame& sent);
  void on_lost(const SentFrame& sent);

  /// What write_frames may write beyond the frames it always owes.
  struct Allowed {
    /// MAX_DATA and MAX_STREAM_DATA: false under the credit_waits_for_cwnd
    /// fault with a full window, or while credit_delay_ms holds credit.
    bool credit = true;
    /// MAX_STREAMS: false while credit_delay_ms holds credit, or under the
    /// max_streams_held_behind_cwnd fault unless the packet goes anyway.
    bool stream_limits = true;
    /// STREAM frames: what the congestion window and the pacer allow.
    bool stream_data = true;
  };
  /// Writes what is due into `out`, in this order: MAX_DATA, MAX_STREAMS,
  /// STREAMS_BLOCKED, each stream's RESET_STREAM, STOP_SENDING and
  /// MAX_STREAM_DATA, then STREAM data round-robin with STREAM_DATA_BLOCKED,
  /// then DATA_BLOCKED; leaving out what `allowed` holds back.
  void write_frames(FrameSink& out, Allowed allowed);
  /// Writes a MAX_STREAMS that is due (or owed again after a loss), for the
  /// max_streams_held_behind_cwnd fault's packets that leave anyway.
  void write_max_streams(FrameSink& out) { write_stream_limits(out, true); }
  /// Whether a MAX_DATA, MAX_STREAM_DATA or MAX_STREAMS the config lets us
  /// send is due, or owed again after a loss.
  bool credit_due() const;

  // The application's calls; the connection checks it is established.
  /// Errors: blocked or limit_reached at the peer's limit (see
  /// Connection::open_stream).
  Result<StreamId, StreamError> open(Dir dir);
  Result<size_t, StreamError> write(StreamId id, ByteView data);
  Status<StreamError> finish(StreamId id);
  struct ReadResult {
    size_t bytes = 0;
    bool fin = false;  ///< Every byte of the stream has now been read.
  };
  Result<ReadResult, StreamError> read(StreamId id, std::span<uint8_t> out);
  Status<StreamError> reset(StreamId id, uint64_t error_code);
  Status<StreamError> stop_sending(StreamId id, uint64_t error_code);

  /// How many streams of `d` the peer may open: the limit we advertised.
  uint64_t streams_peer_may_open(Dir d) const { return remote_limits_[index(d)].max(); }
  /// How many streams of `d` we may open: the limit the peer advertised.
  uint64_t streams_we_may_open(Dir d) const { return local_limits_[index(d)].max(); }
  /// Connection credit (§4.1), bytes: what we let the peer send.
  uint64_t local_max_data() const { return conn_recv_.max(); }
  /// Streams not yet closed on both sides (§3.3), so not forgotten.
  size_t open_streams() const { return streams_.size(); }

 private:
  static size_t index(Dir d) { return static_cast<size_t>(d); }
  bool locally_initiated(StreamId id) const { return is_server_initiated(id) == config_.is_server; }
  void push(Event e) { events_.push_back(std::move(e)); }
  Stream* find(StreamId id);
  Stream& create(StreamId id);
  void reject(Stream& st);
  void discard(StreamId id);
  /// Forgets a stream both sides are done with, returning its credit.
  void maybe_collect(StreamId id);
  /// The stream a peer frame names, opening peer streams implicitly
  /// (§3.2). nullptr with no error: a stream already closed (frame ignored).
  Result<Stream*> stream_for_peer_frame(StreamId id, uint64_t frame_type, bool needs_recv, bool needs_send);

  // write_frames, piece by piece.
  bool control(FrameSink& out, const Frame& f);
  std::optional<uint64_t> data_raise_due(const RecvWindow& window) const;
  void write_max_data(FrameSink& out);
  void write_stream_limits(FrameSink& out, bool raise_ok);
  /// Returns whether a stream has data it could not yet send.
  bool write_stream_controls(FrameSink& out, bool credit_ok);
  void write_stream_data(FrameSink& out);
  void write_stream_data_of(FrameSink& out, StreamId id, Stream& st);

  const Config& config_;
  std::deque<Event>& events_;
  TransportParameters peer_;  ///< the peer's initial stream credits (zeros until known)

  // Flow control (§4.1).
  SendCredit conn_send_;
  RecvWindow conn_recv_;
  bool max_data_pending_ = false;  ///< resend MAX_DATA (lost)
  // Stream limits (§4.6), indexed by Dir.
  std::array<LocalStreamLimit, 2> local_limits_;
  std::array<RemoteStreamLimit, 2> remote_limits_;
  std::array<bool, 2> max_streams_pending_{};  ///< resend MAX_STREAMS (lost)
  std::array<bool, 2> open_refused_{};         ///< StreamsAvailable due on MAX_STREAMS
  std::array<uint64_t, 2> peer_streams_opened_{};  ///< next peer stream index

  std::map<StreamId, Stream> streams_;
  StreamId next_stream_cursor_ = 0;  ///< the stream served last (round-robin)
};

}  // namespace conform::quic

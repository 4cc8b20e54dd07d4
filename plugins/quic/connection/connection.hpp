// A QUIC v1 connection as a sans-IO state machine (RFC 9000, RFC 9001):
// datagrams and timeouts go in, datagrams and events come out; time is an
// argument and nothing here reads a clock or touches a socket.
//
// Driving it (quinn-proto / ngtcp2 style):
//   - handle_datagram(now, bytes) for every UDP payload received;
//   - poll_transmit(now) until it returns nullopt after any call, and send
//     each datagram;
//   - next_timeout() after any call; when `now` reaches it, handle_timeout(now);
//   - poll_event() until nullopt after any call, for the application.
#pragma once

#include <deque>
#include <map>
#include <memory>
#include <optional>

#include "codec/packet_header.hpp"
#include "connection/ack_tracker.hpp"
#include "connection/config.hpp"
#include "connection/events.hpp"
#include "connection/path_mtu.hpp"
#include "connection/qlog_trace.hpp"
#include "connection/streams_state.hpp"
#include "connection/transport_params.hpp"
#include "recovery/recovery.hpp"
#include "tls/packet_keys.hpp"

namespace conform::quic {

enum class ConnectionState : uint8_t { handshaking, established, closing, draining, closed };

/// Counters for tests and reports.
struct ConnectionStats {
  uint64_t bytes_sent = 0, bytes_received = 0;
  uint64_t packets_sent = 0, packets_dropped = 0;
  uint64_t key_updates = 0;  ///< Key phase changes, either side initiating.
  uint64_t packets_buffered = 0;  ///< Kept until their keys arrived (RFC 9001 §5.7).
  uint64_t packets_lost = 0;      ///< Declared lost (RFC 9002 §6.1).
  uint64_t probe_datagrams = 0;   ///< Sent because a PTO fired (RFC 9002 §6.2.4).
};

class Connection {
 public:
  /// A client that starts its handshake at `now` (the first poll_transmit
  /// returns the Initial). Errors: INTERNAL_ERROR from TLS setup.
  static Result<std::unique_ptr<Connection>> connect(const Config& config, Instant now);
  /// A server waiting for a client Initial (config.certificate is required).
  static Result<std::unique_ptr<Connection>> accept(const Config& config, Instant now);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  /// Processes one received UDP payload (possibly several coalesced packets).
  /// Undecryptable or malformed packets are dropped; protocol violations
  /// close the connection with the matching error (RFC 9000 §11, §20).
  void handle_datagram(Instant now, ByteView datagram);
  /// The next datagram to send, or nullopt when nothing is due.
  std::optional<Bytes> poll_transmit(Instant now);
  /// When handle_timeout must next be called; Instant::never() if not.
  Instant next_timeout() const;
  void handle_timeout(Instant now);
  std::optional<Event> poll_event();

  // Streams (RFC 9000 §2-§4). Writes are buffered without bound; flow
  // control limits what is sent, not what is accepted.

  /// Opens a stream of our own. At the peer's limit: StreamError::blocked
  /// (open_stream_when_blocked = wait, StreamsAvailable follows MAX_STREAMS)
  /// or StreamError::limit_reached (fail); either way STREAMS_BLOCKED is
  /// sent when emit_streams_blocked. Also: not_connected.
  Result<StreamId, StreamError> open_stream(Dir dir);
  /// Errors: unknown_stream, wrong_direction, finished, stopped, not_connected.
  Result<size_t, StreamError> write(StreamId id, ByteView data);
  /// Sends FIN after the written data. Errors as write.
  Status<StreamError> finish(StreamId id);
  using ReadResult = StreamsState::ReadResult;
  /// Reads contiguous data. Errors: unknown_stream, wrong_direction,
  /// reset_by_peer.
  Result<ReadResult, StreamError> read(StreamId id, std::span<uint8_t> out);
  /// Abandons sending (RESET_STREAM, §3.1). Errors: unknown_stream, wrong_direction.
  Status<StreamError> reset(StreamId id, uint64_t error_code);
  /// Asks the peer to stop (STOP_SENDING, §3.5). Errors: unknown_stream, wrong_direction.
  Status<StreamError> stop_sending(StreamId id, uint64_t error_code);

  /// Closes with an application error (CONNECTION_CLOSE 0x1d, §10.2).
  void close(Instant now, uint64_t error_code, std::string reason);

  ConnectionState state() const { return state_; }
  const Config& config() const { return config_; }
  bool handshake_complete() const { return handshake_complete_; }
  bool handshake_confirmed() const { return handshake_confirmed_; }
  bool is_closed() const { return state_ == ConnectionState::closed; }
  /// Whether config().violation has gone out (in a packet, or in the
  /// transport parameters).
  bool violation_sent() const { return violation_sent_; }
  /// Why the connection closed (our error, the peer's, or idle), if it did.
  const std::optional<ConnectionClosed>& close_reason() const { return close_reason_; }
  /// The CID the peer addresses us by (what a UDP server demultiplexes on).
  const ConnectionId& local_cid() const { return local_cid_; }
  const std::optional<TransportParameters>& peer_params() const { return peer_params_; }
  std::string alpn() const;
  const ConnectionStats& stats() const { return stats_; }
  /// Stream limits as they stand (§4.6): how many streams of `d` the peer
  /// may open (what we advertised), and how many we may (what it did).
  uint64_t streams_peer_may_open(Dir d) const { return streams_.streams_peer_may_open(d); }
  uint64_t streams_we_may_open(Dir d) const { return streams_.streams_we_may_open(d); }
  /// Loss detection, RTT and congestion state (RFC 9002).
  const Recovery& recovery() const { return recovery_; }
  /// The connection's qlog (config.qlog), where its application may log
  /// events of its own; off when config.qlog is empty.
  QlogTrace& qlog() { return qlog_; }
  /// The largest datagram we send now (MTU policy, DPLPMTUD), bytes.
  size_t max_datagram_size() const { return max_datagram_; }
  /// Connection credit (§4.1), bytes: what we let the peer send.
  uint64_t local_max_data() const { return streams_.local_max_data(); }
  size_t open_streams() const { return streams_.open_streams(); }

 private:
  struct PacketSpace {
    std::optional<PacketKeys> rx, tx;
    uint64_t next_pn = 0;
    AckTracker acks;
    SendBuffer crypto_send;
    RecvBuffer crypto_recv;
    bool discarded = false;
    uint64_t probe_cursor = 0;  ///< CRYPTO offset where the last probe stopped
  };

  Connection(const Config& config, Instant now);
  Status<> init_tls();
  PacketSpace& space(Space s) { return spaces_[static_cast<size_t>(s)]; }

  // connection.cpp: TLS, keys, lifecycle.
  void install_initial_keys(const ConnectionId& client_dcid);
  Status<> drive_tls(Level level, ByteView data);
  void pump_tls_output();
  Status<> on_handshake_complete();
  void discard_space(Space s);
  void close_with(Instant now, TransportError error);
  void enter_draining(Instant now, ConnectionClosed reason);
  void push_event(Event e) { events_.push_back(std::move(e)); }
  Duration idle_timeout() const;

  // connection_recv.cpp: packets and frames.
  void process_packet(Instant now, const PacketHeader& h, std::span<uint8_t> packet);
  /// `eliciting`: a frame asks for an ACK; `fresh`: a frame brings something
  /// new (anything but PING, PADDING, ACK and CRYPTO bytes received before).
  Status<> process_payload(Instant now, Space s, PacketType type, ByteView payload, bool& eliciting, bool& fresh);
  /// Whether `frame` brings anything new (process_payload's `fresh`), read
  /// before it is handled.
  bool brings_news(Space s, const Frame& frame);
  /// Every frame type is handled here, by std::visit: a new one must be.
  Status<> handle_frame(Instant now, Space s, PacketType type, const Frame& f);
  Status<> on_crypto(Space s, const CryptoFrame& f);
  void on_connection_close(Instant now, const ConnectionCloseFrame& f);
  Status<> on_handshake_done();
  Status<> handle_ack(Instant now, Space s, const AckFrame& ack);
  void on_packet_acked(Space s, const SentPacket& p);
  void on_packet_lost(Instant now, Space s, const SentPacket& p);

  // connection_key_update.cpp: 1-RTT key phases (RFC 9001 §6).
  const PacketKeys* rx_keys_for(std::span<const uint8_t> packet, size_t pn_offset, bool& next_phase);
  void on_one_rtt_opened(bool next_phase);
  void maybe_initiate_key_update();
  void on_app_ack(uint64_t largest);

  // connection_send.cpp: packet assembly.
  struct PendingPacket {
    Space space = Space::initial;
    uint64_t pn = 0;
    size_t pn_len = 4;
    Bytes payload;
    bool ack_eliciting = false;
    bool padded = false;  ///< PADDING added: in flight though not ack-eliciting (RFC 9002 §2)
    bool mtu_probe = false;
    bool reserved_bits = false;  ///< the reserved_bits_set violation: set them in its header
    std::vector<SentFrame> records;
    std::string qlog_frames;  ///< its frames for qlog's packet_sent, when qlog is on
  };
  size_t header_overhead(Space s, size_t pn_len) const;
  Bytes seal_datagram(Instant now, std::vector<PendingPacket>& packets);
  bool build_payload(Instant now, Space s, size_t budget, PendingPacket& out, bool probe);
  /// The FrameSink of one packet being built (connection_send.cpp).
  class PacketSink;
  void add_app_frames(Instant now, size_t budget, PendingPacket& out);
  void add_violation(PendingPacket& out, size_t budget);
  void append_violation_frames(PendingPacket& out, size_t budget);
  std::optional<Bytes> frameless_packet_datagram(Instant now);
  void break_tls_output(Level l, Bytes& out);
  /// Whether credit_delay_ms holds the credit that is due back at `now`;
  /// arms the hold when credit falls due.
  bool credit_held(Instant now);
  void emit(PendingPacket& out, const Frame& f, std::optional<SentFrame> record);
  std::optional<Bytes> build_close_datagram(Instant now);

  // connection_recovery.cpp: what RFC 9002 asks of the connection: the
  // loss detection timer's inputs, PTO probes, the MTU policy, pacing and
  // congestion gating, packets buffered before their keys (RFC 9001 §5.7).
  RecoveryContext recovery_context() const;
  void rearm_recovery(Instant now) { recovery_.set_timer(now, recovery_context()); }
  void on_recovery_timeout(Instant now);
  /// Probe datagrams: which spaces the next one carries.
  bool probe_carries(Space s) const;
  void add_probe_crypto(Space s, size_t budget, PendingPacket& out);
  /// The size a datagram of these packets is padded to (RFC 9000 §14.1 and
  /// the MTU policy), within `limit` (the datagram's) or, for the
  /// pad_ack_only_to_initial_mtu fault, `budget` (the amplification
  /// limit's); 0 for none.
  size_t padding_target(const std::vector<PendingPacket>& packets, size_t limit, bool probe, size_t budget) const;
  void maybe_elicit_ack(std::vector<PendingPacket>& packets, size_t used, size_t limit);
  /// Whether new or lost STREAM data may go out now (cwnd, pacing).
  bool stream_data_allowed(Instant now, size_t limit);
  void on_lost_datagram_size(size_t datagram_bytes);
  /// A DPLPMTUD probe datagram if one is due (connection_pmtud.cpp).
  std::optional<Bytes> mtu_probe_datagram(Instant now);
  void on_mtu_probe_done(const SentPacket& p, bool acked);
  bool buffer_undecryptable(Space s, std::span<const uint8_t> packet);
  void replay_buffered(Instant now);

  Config config_;
  ConnectionState state_ = ConnectionState::handshaking;
  std::unique_ptr<class TlsSession> tls_;
  std::array<PacketSpace, 3> spaces_;
  Recovery recovery_;
  QlogTrace qlog_;
  ConnectionStats stats_;
  std::deque<Event> events_;
  StreamsState streams_;  ///< streams, their credit and limits (§2-§4)

  ConnectionId local_cid_;
  ConnectionId peer_cid_;
  ConnectionId original_dcid_;  ///< Client: the DCID of its first Initial.
  bool peer_cid_confirmed_ = false;
  bool handshake_complete_ = false;
  bool handshake_confirmed_ = false;
  bool violation_sent_ = false;  ///< config_.violation went out
  bool handshake_done_pending_ = false;
  bool address_validated_ = false;  ///< Server: anti-amplification lifted (§8.1).
  std::optional<TransportParameters> peer_params_;
  std::optional<ConnectionClosed> close_reason_;
  std::optional<ConnectionCloseFrame> close_frame_;  ///< To send while closing.
  bool close_sent_ = false;
  Instant close_deadline_ = Instant::never();
  Instant idle_deadline_ = Instant::never();
  /// An ack-eliciting packet went out since a packet was last processed.
  bool eliciting_sent_since_receipt_ = false;
  size_t max_datagram_ = 1200;

  // Recovery (connection_recovery.cpp).
  int probe_datagrams_ = 0;      ///< probe datagrams still to send for the last PTO
  int probe_index_ = 0;          ///< which of them is next
  Space probe_space_ = Space::initial;
  bool handshake_acked_ = false;  ///< client: a Handshake packet was acknowledged
  bool stream_data_ok_ = true;    ///< this datagram may carry STREAM data
  Instant pacing_deadline_ = Instant::never();
  // credit_delay_ms: when the held credit goes out (never: none held), and
  // whether it may go now, until nothing is due.
  Instant credit_hold_until_ = Instant::never();
  bool credit_released_ = false;
  // server_flight_delay_ms: nothing leaves before this (never: no hold).
  Instant flight_hold_until_ = Instant::never();
  uint64_t ack_only_streak_ = 0;  ///< datagrams in a row that elicit no ACK
  struct BufferedPacket {
    Space space;
    Bytes bytes;
  };
  std::vector<BufferedPacket> buffered_;
  std::optional<PathMtuSearch> pmtu_;  ///< DPLPMTUD, from handshake confirmation

  std::deque<std::array<uint8_t, 8>> path_responses_;
  std::optional<Bytes> version_negotiation_;  ///< Server: VN to send (§6.1).
  // Retry (RFC 9000 §8.1.2, §17.2.5): the server's pending Retry and what it
  // expects back; the client's token and the server's Retry SCID.
  std::optional<Bytes> retry_packet_;
  Bytes retry_token_;
  std::optional<ConnectionId> retry_scid_;
  ConnectionId retry_odcid_;
  bool retry_received_ = false;
  void handle_retry(const PacketHeader& h, ByteView packet);
  bool server_retry_gate(const PacketHeader& h);

  // Key update (RFC 9001 §6): the 1-RTT keys of the current phase live in
  // the application PacketSpace; these hold the rest.
  bool key_phase_ = false;
  std::optional<PacketKeys> prev_rx_;        ///< the previous phase, for late packets
  std::optional<PacketKeys> next_rx_;        ///< computed on demand
  bool peer_in_current_phase_ = true;        ///< peer has sent with the current keys
  bool acked_in_current_phase_ = false;      ///< an ACK covered a packet of this phase
  uint64_t phase_start_pn_ = 0;
  uint64_t packets_in_phase_ = 0;  ///< round-robin position for STREAM frames
};

}  // namespace conform::quic

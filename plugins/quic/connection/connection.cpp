// Connection lifecycle: creation, the TLS handshake and its keys (RFC 9001
// §4), key discard (§4.9), closing and draining (RFC 9000 §10), timers.
#include "connection/connection.hpp"

#include "tls/tls_session.hpp"

namespace conform::quic {

namespace {

// A seeded generator for connection IDs (splitmix64): deterministic per
// run, and never the process's global RNG (STYLE.md habit 3).
ConnectionId make_cid(uint64_t& state) {
  std::array<uint8_t, 8> b{};
  state += 0x9e3779b97f4a7c15ull;
  uint64_t z = state;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  for (size_t i = 0; i < 8; ++i) b[i] = static_cast<uint8_t>(z >> (8 * i));
  return ConnectionId(b);
}

Space space_of(Level level) {
  return level == Level::initial ? Space::initial
         : level == Level::handshake ? Space::handshake
                                     : Space::application;
}

RecoveryConfig recovery_config(const Config& c) {
  RecoveryConfig r;
  r.initial_rtt = Duration::millis(static_cast<int64_t>(c.initial_rtt_ms));
  // Replaced by the peer's value with its transport parameters; only the
  // 1-RTT PTO uses it, and that waits for handshake confirmation.
  r.max_ack_delay = Duration::millis(static_cast<int64_t>(c.max_ack_delay_ms));
  r.congestion = {c.cc_initial_window_packets, c.cc_minimum_window_packets, c.cc_loss_reduction_factor};
  r.controller = c.congestion_controller;
  r.max_datagram_size = std::max<size_t>(1200, c.initial_mtu);
  r.pto_backoff = c.pto_backoff;
  r.anti_deadlock = c.anti_deadlock_probe;
  r.pto_reset_on_any_ack = c.pto_reset_on_any_ack;
  r.pto_reset_on_initial_ack = c.pto_reset_on_initial_ack;
  r.pto_reset_on_key_discard = c.pto_reset_on_key_discard;
  return r;
}

}  // namespace

const char* to_string(StreamError e) {
  switch (e) {
    case StreamError::blocked: return "blocked";
    case StreamError::limit_reached: return "limit_reached";
    case StreamError::unknown_stream: return "unknown_stream";
    case StreamError::wrong_direction: return "wrong_direction";
    case StreamError::finished: return "finished";
    case StreamError::stopped: return "stopped";
    case StreamError::reset_by_peer: return "reset_by_peer";
    case StreamError::not_connected: return "not_connected";
  }
  return "unknown";
}

Connection::Connection(const Config& config, Instant now)
    : config_(config), recovery_(recovery_config(config)), qlog_(config.qlog), streams_(config_, events_) {
  uint64_t rng = config.seed * 2 + (config.is_server ? 1 : 0);
  local_cid_ = make_cid(rng);
  if (!config.is_server) {
    original_dcid_ = make_cid(rng);
    qlog_.set_group(original_dcid_);
  }
  max_datagram_ = std::max<size_t>(1200, config.initial_mtu);
  idle_deadline_ = now + idle_timeout();
}

Connection::~Connection() = default;

Result<std::unique_ptr<Connection>> Connection::connect(const Config& config, Instant now) {
  std::unique_ptr<Connection> c(new Connection(config, now));
  c->config_.is_server = false;
  c->peer_cid_ = c->original_dcid_;
  c->install_initial_keys(c->original_dcid_);
  if (auto s = c->init_tls(); !s) return s.error();
  if (auto s = c->tls_->start(); !s) return s.error();
  c->pump_tls_output();
  return c;
}

Result<std::unique_ptr<Connection>> Connection::accept(const Config& config, Instant now) {
  if (!config.certificate)
    return TransportError(TransportErrorCode::internal_error, "a server needs a certificate");
  std::unique_ptr<Connection> c(new Connection(config, now));
  c->config_.is_server = true;
  return c;  // TLS starts with the first Initial: the server's transport
             // parameters must echo that packet's DCID (RFC 9000 §7.3).
}

Status<> Connection::init_tls() {
  TransportParameters tp;
  tp.max_idle_timeout_ms = config_.max_idle_timeout_ms;
  tp.max_udp_payload_size = config_.max_udp_payload_size;
  tp.initial_max_data = config_.advertised_max_data();
  tp.initial_max_stream_data_bidi_local = config_.initial_max_stream_data_bidi_local;
  tp.initial_max_stream_data_bidi_remote = config_.initial_max_stream_data_bidi_remote;
  tp.initial_max_stream_data_uni = config_.initial_max_stream_data_uni;
  tp.initial_max_streams_bidi = config_.advertised_max_streams(true);
  tp.initial_max_streams_uni = config_.advertised_max_streams(false);
  tp.ack_delay_exponent = config_.ack_delay_exponent;
  tp.max_ack_delay_ms = config_.max_ack_delay_ms;
  tp.disable_active_migration = config_.disable_active_migration;
  tp.active_connection_id_limit = config_.active_connection_id_limit;
  tp.initial_source_connection_id = local_cid_;
  if (config_.is_server) {
    tp.original_destination_connection_id = original_dcid_;
    tp.retry_source_connection_id = retry_scid_;  // §7.3: set only after a Retry
  }
  break_transport_parameters(config_.violation, config_.is_server, tp);  // the violation script
  TlsConfig tls;
  tls.is_server = config_.is_server;
  tls.alpn = config_.alpn;
  if (config_.violation == Violation::no_common_alpn && !config_.is_server) tls.alpn = {"conform-violation"};
  tls.server_name = config_.server_name;
  tls.groups = config_.tls_groups;
  tls.certificate = config_.certificate;
  tls.keylog = config_.keylog;
  auto session = TlsSession::create(tls, encode_transport_parameters(tp));
  if (!session) return session.error();
  tls_ = std::move(session.value());
  return {};
}

void Connection::install_initial_keys(const ConnectionId& client_dcid) {
  const InitialSecrets s = derive_initial_secrets(client_dcid.view());
  const Bytes& tx = config_.is_server ? s.server : s.client;
  const Bytes& rx = config_.is_server ? s.client : s.server;
  space(Space::initial).tx = PacketKeys::from_secret(CipherSuite::aes128gcm, tx);
  space(Space::initial).rx = PacketKeys::from_secret(CipherSuite::aes128gcm, rx);
}

Status<> Connection::drive_tls(Level level, ByteView data) {
  if (auto s = tls_->provide(level, data); !s) {
    // The violations_answered fault: TLS's alert is not sent; the
    // connection goes on where TLS lets it, else stalls without a word.
    if (config_.violations_answered == ViolationAnswer::ignored && s.error().is_crypto()) return {};
    return s;
  }
  pump_tls_output();
  if (tls_->handshake_complete() && !handshake_complete_) return on_handshake_complete();
  return {};
}

void Connection::pump_tls_output() {
  for (TrafficSecret& t : tls_->take_secrets()) {
    if (t.level == Level::early_data || t.level == Level::initial) continue;  // no 0-RTT
    PacketSpace& sp = space(space_of(t.level));
    if (sp.discarded) continue;
    (t.write ? sp.tx : sp.rx) = PacketKeys::from_secret(t.suite, t.secret);
  }
  for (Level l : {Level::initial, Level::handshake, Level::application}) {
    Bytes out = tls_->take_output(l);
    if (out.empty()) continue;
    break_tls_output(l, out);
    space(space_of(l)).crypto_send.write(out);
  }
}

// The TLS violations of the violation script in what TLS wrote at `l`: the
// transport parameters extension hidden in its first message, a KeyUpdate
// after its Finished (the last of its Handshake-level messages).
void Connection::break_tls_output(Level l, Bytes& out) {
  if (violation_sent_) return;
  const Level first_message_level = config_.is_server ? Level::handshake : Level::initial;
  if (config_.violation == Violation::transport_parameters_extension_missing && l == first_message_level)
    violation_sent_ = remove_transport_parameters_extension(out);
  // The broken transport parameters go out in that message (TLS encoded them).
  if (breaks_transport_parameters(config_.violation, config_.is_server) && l == first_message_level)
    violation_sent_ = true;
  if (config_.violation == Violation::key_update_in_handshake && l == Level::handshake) {
    const Bytes key_update = key_update_message();
    out.insert(out.end(), key_update.begin(), key_update.end());
    violation_sent_ = true;
  }
}

Status<> Connection::on_handshake_complete() {
  // The violations_answered fault skips what is invalid and goes on.
  const bool strict = config_.violations_answered == ViolationAnswer::rfc;
  auto tp = decode_transport_parameters(tls_->peer_transport_params(), !config_.is_server, strict);
  if (!tp) return tp.error();
  // RFC 9000 §7.3: the peer's CIDs must match what its packets carried.
  if (strict && !(*tp.value().initial_source_connection_id == peer_cid_))
    return TransportError(TransportErrorCode::transport_parameter_error,
                          "initial_source_connection_id mismatch");
  if (strict && !config_.is_server && !(*tp.value().original_destination_connection_id == original_dcid_))
    return TransportError(TransportErrorCode::transport_parameter_error,
                          "original_destination_connection_id mismatch");
  if (strict && !config_.is_server) {
    const auto& rscid = tp.value().retry_source_connection_id;
    if (retry_received_ != rscid.has_value() || (rscid && !(*rscid == *retry_scid_)))
      return TransportError(TransportErrorCode::transport_parameter_error,
                            "retry_source_connection_id mismatch");
  }
  const TransportParameters& p = peer_params_.emplace(std::move(tp.value()));
  streams_.on_peer_params(p);
  max_datagram_ = std::min<size_t>(max_datagram_, p.max_udp_payload_size);
  recovery_.set_max_datagram_size(max_datagram_);
  recovery_.set_peer_max_ack_delay(Duration::millis(static_cast<int64_t>(p.max_ack_delay_ms)));
  handshake_complete_ = true;
  state_ = ConnectionState::established;
  push_event(HandshakeCompleted{});
  if (config_.is_server) {
    // RFC 9001 §4.1.2: the server's handshake is confirmed on completion;
    // it tells the client with HANDSHAKE_DONE and drops Handshake keys.
    handshake_confirmed_ = true;
    push_event(HandshakeConfirmed{});
    handshake_done_pending_ = config_.send_handshake_done;
    discard_space(Space::handshake);
  }
  return {};
}

void Connection::discard_space(Space s) {
  PacketSpace& sp = space(s);
  if (sp.discarded) return;
  sp.discarded = true;
  sp.tx.reset();
  sp.rx.reset();
  recovery_.discard(s);
}

Duration Connection::idle_timeout() const {
  // RFC 9000 §10.1: the smaller of the two non-zero values.
  uint64_t ms = config_.max_idle_timeout_ms;
  if (peer_params_ && peer_params_->max_idle_timeout_ms &&
      (ms == 0 || peer_params_->max_idle_timeout_ms < ms))
    ms = peer_params_->max_idle_timeout_ms;
  // 0 is none; so is any value past a billion seconds (a varint's 2^62 ms
  // would overflow the clock's nanoseconds).
  constexpr uint64_t kNone = 1'000'000'000'000;
  if (ms == 0 || ms > kNone) return Duration::seconds(1'000'000'000);
  // §10.1: "endpoints MUST increase the idle timeout period to be at least
  // three times the current Probe Timeout (PTO)".
  return std::max(Duration::millis(static_cast<int64_t>(ms)), recovery_.pto_period(Space::application) * 3);
}

void Connection::close_with(Instant now, TransportError error) {
  if (state_ == ConnectionState::closing || state_ == ConnectionState::draining ||
      state_ == ConnectionState::closed)
    return;
  ConnectionCloseFrame f;
  f.error_code = error.code;
  f.frame_type = error.frame_type;
  f.reason = error.reason;
  close_frame_ = f;
  state_ = ConnectionState::closing;
  close_deadline_ = now + recovery_.pto_period(Space::application) * 3;
  close_reason_ = ConnectionClosed{std::move(error), false, false};
  push_event(*close_reason_);
}

void Connection::close(Instant now, uint64_t error_code, std::string reason) {
  if (state_ == ConnectionState::closing || state_ == ConnectionState::draining ||
      state_ == ConnectionState::closed)
    return;
  ConnectionCloseFrame f;
  f.application = true;
  f.error_code = error_code;
  f.reason = reason;
  close_frame_ = f;
  state_ = ConnectionState::closing;
  close_deadline_ = now + recovery_.pto_period(Space::application) * 3;
  TransportError e;
  e.code = error_code;
  e.reason = std::move(reason);
  close_reason_ = ConnectionClosed{std::move(e), false, true};
  push_event(*close_reason_);
}

void Connection::enter_draining(Instant now, ConnectionClosed reason) {
  if (state_ == ConnectionState::draining || state_ == ConnectionState::closed) return;
  const bool was_closing = state_ == ConnectionState::closing;
  state_ = ConnectionState::draining;
  close_deadline_ = now + recovery_.pto_period(Space::application) * 3;
  if (!was_closing) {
    close_reason_ = std::move(reason);
    push_event(*close_reason_);
  }
}

Instant Connection::next_timeout() const {
  switch (state_) {
    case ConnectionState::closed: return Instant::never();
    case ConnectionState::closing:
    case ConnectionState::draining: return close_deadline_;
    default:
      return std::min({idle_deadline_, recovery_.next_timeout(), pacing_deadline_, credit_hold_until_,
                       flight_hold_until_});
  }
}

void Connection::handle_timeout(Instant now) {
  if (state_ == ConnectionState::closed) return;
  if (state_ == ConnectionState::closing || state_ == ConnectionState::draining) {
    if (now >= close_deadline_) state_ = ConnectionState::closed;
    return;
  }
  if (now >= idle_deadline_) {
    // RFC 9000 §10.1: silently closed, nothing is sent.
    state_ = ConnectionState::closed;
    close_reason_ = ConnectionClosed{TransportError(TransportErrorCode::no_error, "idle timeout"), false, false};
    push_event(*close_reason_);
    return;
  }
  if (now >= credit_hold_until_) {
    credit_hold_until_ = Instant::never();
    credit_released_ = true;
  }
  if (now >= flight_hold_until_) flight_hold_until_ = Instant::never();
  on_recovery_timeout(now);
}

std::optional<Event> Connection::poll_event() {
  if (events_.empty()) return std::nullopt;
  Event e = std::move(events_.front());
  events_.pop_front();
  return e;
}

std::string Connection::alpn() const { return tls_ ? tls_->negotiated_alpn() : std::string(); }

}  // namespace conform::quic

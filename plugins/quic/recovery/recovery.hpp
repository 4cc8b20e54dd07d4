// Loss detection, RFC 9002 §6 and Appendix A: the packets sent in each
// packet number space, which of them an ACK acknowledges, which are lost
// (packet and time thresholds, §6.1), and the one loss detection timer:
// the earliest loss time, else the PTO (§6.2) with exponential backoff and
// the client's anti-deadlock rules (§6.2.2.1). It owns the RTT estimator
// (§5), the congestion controller (§7: NewReno or BBR) and the pacer
// (§7.7), and tells the
// connection what was acknowledged or lost and when to probe; the
// connection decides what to retransmit.
#pragma once

#include <array>
#include <map>
#include <memory>
#include <optional>
#include <variant>
#include <vector>

#include "codec/error.hpp"
#include "codec/frame.hpp"
#include "codec/time.hpp"
#include "recovery/congestion_controller.hpp"
#include "recovery/pacer.hpp"
#include "recovery/rtt_estimator.hpp"
#include "recovery/sent_packet.hpp"

namespace conform::quic {

/// The connection's state the loss detection timer depends on (App. A.8).
struct RecoveryContext {
  bool is_server = false;
  bool has_handshake_keys = false;   ///< client: Handshake keys installed and not discarded
  bool handshake_confirmed = false;  ///< RFC 9001 §4.1.2
  /// Client: a Handshake packet was acknowledged or the handshake is
  /// confirmed (§6.2.2.1); always true on a server.
  bool peer_completed_address_validation = true;
  bool amplification_blocked = false;  ///< server at its anti-amplification limit
};

struct RecoveryConfig {
  Duration initial_rtt = Duration::millis(333);  ///< kInitialRtt, §6.2.2
  Duration max_ack_delay = Duration::millis(0);  ///< the peer's, §5.3; 0 until its parameters arrive
  CongestionParams congestion;
  CongestionControl controller = CongestionControl::newreno;
  size_t max_datagram_size = 1200;  ///< bytes, sizes the windows (§7.2)
  bool pto_backoff = true;          ///< false: the fault of a PTO period never doubled (§6.2.1)
  bool anti_deadlock = true;        ///< false: the fault of a client PTO disarmed with nothing in flight (§6.2.2.1)
  /// true: the fault of an ACK frame that newly acknowledges nothing (late,
  /// reordered or duplicated) resetting the PTO backoff; §6.2.1 and A.7
  /// reset it only when packets are newly acknowledged.
  bool pto_reset_on_any_ack = false;
  /// The fault: a client's backoff reset by ACKs in Initial packets before
  /// the server has validated its address.
  bool pto_reset_on_initial_ack = false;
  /// false, the fault: discarding a packet number space keeps the backoff.
  bool pto_reset_on_key_discard = true;
};

class Recovery {
 public:
  explicit Recovery(const RecoveryConfig& config);

  /// Records a sent packet (OnPacketSent, A.5). Call set_timer afterwards.
  void on_packet_sent(Space space, SentPacket packet);

  struct AckOutcome {
    std::vector<SentPacket> acked;
    std::vector<SentPacket> lost;
    bool persistent_congestion = false;  ///< §7.6 declared by these losses
  };
  /// Processes an ACK frame (OnAckReceived, A.7); `ack_delay` is already
  /// scaled to time. Errors: PROTOCOL_VIOLATION when it acknowledges a
  /// packet number never sent in that space (RFC 9000 §13.1). Re-arms the
  /// timer.
  Result<AckOutcome> on_ack_received(Space space, const AckFrame& ack, Duration ack_delay,
                                     Instant now, const RecoveryContext& ctx);

  /// SetLossDetectionTimer (A.8): call whenever ctx may have changed.
  void set_timer(Instant now, const RecoveryContext& ctx);
  /// The loss-time or PTO deadline; never() when the timer is off.
  Instant next_timeout() const { return timer_; }

  struct TimeoutOutcome {
    std::vector<std::pair<Space, SentPacket>> lost;
    bool persistent_congestion = false;
    /// PTO fired: send up to two ack-eliciting probe datagrams in this
    /// space (§6.2.4), or, with nothing in flight, the anti-deadlock probe
    /// (§6.2.2.1: Handshake if the client has its keys, else a padded Initial).
    std::optional<Space> probe;
  };
  /// OnLossDetectionTimeout (A.9). Re-arms the timer.
  TimeoutOutcome on_timeout(Instant now, const RecoveryContext& ctx);

  /// The keys of a space were discarded (§6.4, A.11): its packets leave
  /// flight and are forgotten, the backoff resets. Call set_timer after.
  void discard(Space space);
  /// The peer's max_ack_delay (§5.3, §6.2.1) once its transport parameters arrive.
  void set_peer_max_ack_delay(Duration d) { max_ack_delay_ = d; }
  /// §7.8: whether the sender is application-limited (window underused).
  void set_app_limited(bool v) { cc_->set_app_limited(v); }
  /// The datagram size changed (MTU policy): the congestion windows follow.
  void set_max_datagram_size(size_t bytes) { cc_->set_max_datagram_size(bytes); }

  /// PTO period (§6.2.1) for a space, without backoff: smoothed_rtt +
  /// max(4 * rttvar, kGranularity), + max_ack_delay for 1-RTT.
  Duration pto_period(Space space) const;
  /// The persistent congestion duration (§7.6.1).
  Duration persistent_congestion_duration() const;
  const RttEstimator& rtt() const { return rtt_; }
  const CongestionController& congestion() const { return *cc_; }
  int pto_count() const { return pto_count_; }
  /// Largest packet number the peer acknowledged in a space; -1 if none.
  int64_t largest_acked(Space space) const { return spaces_[idx(space)].largest_acked; }
  /// Ack-eliciting packets of a space not yet acknowledged or declared lost.
  size_t ack_eliciting_in_flight(Space space) const { return spaces_[idx(space)].eliciting; }
  size_t ack_eliciting_in_flight() const;

  /// Pacing (§7.7): when a datagram of `bytes` may leave.
  Instant pacing_release(Instant now, size_t bytes) {
    return pacer_.release_time(now, bytes, cc_->pacing_rate(rtt_.smoothed()));
  }
  void on_paced_send(Instant now, size_t bytes) { pacer_.on_sent(now, bytes, cc_->pacing_rate(rtt_.smoothed())); }

 private:
  struct SpaceState {
    std::map<uint64_t, SentPacket> sent;
    int64_t largest_sent = -1;
    int64_t largest_acked = -1;
    size_t eliciting = 0;
    Instant loss_time = Instant::never();
    Instant last_eliciting_sent = Instant::never();
  };
  static size_t idx(Space s) { return static_cast<size_t>(s); }
  SentPacket take(SpaceState& s, std::map<uint64_t, SentPacket>::iterator& it);
  std::vector<SentPacket> detect_lost(SpaceState& s, Instant now);
  /// Congestion response to losses (OnPacketsLost, B.8); true when they
  /// amount to persistent congestion.
  bool on_packets_lost(const std::vector<SentPacket>& lost, Instant now);
  std::pair<Instant, Space> pto_time_and_space(Instant now, const RecoveryContext& ctx) const;

  std::array<SpaceState, 3> spaces_;
  RttEstimator rtt_;
  Duration max_ack_delay_;
  std::unique_ptr<CongestionController> cc_;
  Pacer pacer_;
  bool pto_backoff_, anti_deadlock_, pto_reset_on_any_ack_, pto_reset_on_initial_ack_, pto_reset_on_key_discard_;
  int pto_count_ = 0;
  Instant timer_ = Instant::never();
  Instant first_rtt_sample_ = Instant::never();
  /// Start of the client's anti-deadlock PTO (nothing in flight): kept
  /// until that PTO fires, so unrelated events do not push it back.
  Instant anti_deadlock_since_ = Instant::never();
};

}  // namespace conform::quic

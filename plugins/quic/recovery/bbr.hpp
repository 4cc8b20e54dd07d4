// A BBR-style model-based congestion controller, written from the public
// description (draft-ietf-ccwg-bbr §4; its ProbeBW gain cycle as the
// earlier draft-cardwell-iccrg-bbr-congestion-control-00 describes it).
// It models the path by the bottleneck bandwidth (the maximum delivery
// rate of the last 10 rounds) and the minimum RTT (of the last 10 s), paces
// at pacing_gain * bandwidth and bounds the bytes in flight to
// cwnd_gain * BDP. Random loss does not shrink the model; only persistent
// congestion (RFC 9002 §7.6) collapses the window. States:
//   Startup   pacing_gain 2.77, cwnd_gain 2, until the bandwidth grew less
//             than 25 % in three rounds (the pipe is full);
//   Drain     pacing_gain 0.35, until bytes in flight <= BDP;
//   ProbeBW   pacing_gain cycling 1.25, 0.75, then six rounds of 1, cwnd_gain 2;
//   ProbeRTT  every 10 s without a new minimum RTT, the window drops to
//             half the BDP (at least 4 datagrams) for 200 ms and a round.
// Not modelled (docs/congestion.md): the v3 draft's loss- and ECN-driven
// bounds (inflight_hi, bw_lo), ACK aggregation (extra_acked), idle restart.
#pragma once

#include <array>

#include "recovery/congestion_controller.hpp"
#include "recovery/delivery_rate.hpp"
#include "recovery/windowed_filter.hpp"

namespace conform::quic {

enum class BbrState : uint8_t { startup, drain, probe_bw, probe_rtt };

class Bbr final : public CongestionController {
 public:
  /// The initial window is initial_window(`params.initial_window_packets`,
  /// `max_datagram_size`) bytes; the other params are NewReno's.
  Bbr(CongestionParams params, size_t max_datagram_size);

  void set_max_datagram_size(size_t bytes) override { mds_ = bytes; }
  void on_packet_sent(Instant now, SentPacket& p) override;
  void on_packets_acked(Instant now, const std::vector<SentPacket>& acked, const RttEstimator& rtt) override;
  /// Random loss is not congestion to the model: recorded for ProbeBW's
  /// up phase (which ends on loss), nothing else.
  void on_congestion_event(Instant now, Instant largest_lost_sent, uint64_t lost_bytes) override;
  /// The window falls to 4 datagrams and regrows toward the model's target.
  void on_persistent_congestion() override;
  void set_app_limited(bool v) override;
  uint64_t window() const override { return cwnd_; }
  /// pacing_gain * bottleneck bandwidth * 0.99; before the first
  /// bandwidth sample, the Startup gain over the initial window per
  /// smoothed_rtt.
  double pacing_rate(Duration smoothed_rtt) const override;

  BbrState state() const { return state_; }
  /// The bottleneck bandwidth estimate (BBR.max_bw), bytes per second; 0 before a sample.
  double max_bw() const { return bw_filter_.best(); }
  /// BBR.min_rtt; zero before a sample.
  Duration min_rtt() const { return min_rtt_; }
  /// gain * max_bw * min_rtt, bytes; the initial window before a model exists.
  uint64_t bdp(double gain) const;
  double pacing_gain() const { return pacing_gain_; }
  bool filled_pipe() const { return filled_pipe_; }
  uint64_t round_count() const { return round_count_; }
  /// Position in the ProbeBW gain cycle (0: the 1.25 phase).
  size_t cycle_index() const { return cycle_index_; }

 private:
  void update_round(const RateSample& rs);
  void check_full_pipe(const RateSample& rs);
  void enter(BbrState s, Instant now);
  void update_gain_cycle(Instant now, uint64_t prior_in_flight);
  void update_min_rtt(Instant now, const RateSample& rs);
  void update_probe_rtt(Instant now);
  void update_cwnd(uint64_t acked_bytes);
  uint64_t min_pipe_cwnd() const { return 4 * mds_; }
  uint64_t probe_rtt_cwnd() const;

  uint64_t mds_;
  uint64_t initial_cwnd_;
  uint64_t cwnd_;
  DeliveryRateSampler sampler_;
  WindowedMaxFilter bw_filter_;
  BbrState state_ = BbrState::startup;
  double pacing_gain_;
  double cwnd_gain_;
  double pacing_rate_ = 0;  ///< bytes/s; 0 until the first bandwidth sample
  // Rounds (one per RTT of delivered data).
  uint64_t round_count_ = 0;
  uint64_t next_round_delivered_ = 0;
  bool round_start_ = false;
  // Startup's exit: the pipe is full once bandwidth stops growing.
  bool filled_pipe_ = false;
  double full_bw_ = 0;
  int full_bw_count_ = 0;
  // ProbeBW.
  size_t cycle_index_ = 0;
  Instant cycle_stamp_;
  uint64_t lost_since_ack_ = 0;
  // Minimum RTT and ProbeRTT.
  Duration min_rtt_{};
  Instant min_rtt_stamp_;
  bool min_rtt_expired_ = false;
  Instant probe_rtt_done_ = Instant::never();
  bool probe_rtt_round_done_ = false;
  uint64_t prior_cwnd_ = 0;
};

}  // namespace conform::quic

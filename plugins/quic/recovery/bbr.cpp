// The BBR-style controller: model (bandwidth, min RTT), state machine and
// control parameters (pacing rate, window), draft-ietf-ccwg-bbr §4-§5.
#include "recovery/bbr.hpp"

#include <algorithm>

namespace conform::quic {

namespace {

constexpr double kStartupPacingGain = 2.77;  // 4 ln 2: doubles the rate each round
constexpr double kStartupCwndGain = 2.0;
constexpr double kDrainPacingGain = 0.35;    // empties Startup's queue in about a round
constexpr double kProbeBwCwndGain = 2.0;
constexpr std::array<double, 8> kGainCycle = {1.25, 0.75, 1, 1, 1, 1, 1, 1};
/// ProbeBW starts in the first cruise phase: the cycle is otherwise
/// entered at random, which a deterministic simulation cannot have.
constexpr size_t kFirstProbeBwPhase = 2;
constexpr uint64_t kMaxBwFilterRounds = 10;
constexpr Duration kMinRttFilterLen = Duration::seconds(10);
constexpr Duration kProbeRttDuration = Duration::millis(200);
constexpr double kPacingMargin = 0.99;       // pace 1 % below the estimate
constexpr double kFullBwGrowth = 1.25;       // Startup goes on while bandwidth grows 25 % a round
constexpr int kFullBwRounds = 3;

}  // namespace

Bbr::Bbr(CongestionParams params, size_t max_datagram_size)
    : mds_(max_datagram_size),
      initial_cwnd_(initial_window(params.initial_window_packets, max_datagram_size)),
      cwnd_(initial_cwnd_),
      bw_filter_(kMaxBwFilterRounds),
      pacing_gain_(kStartupPacingGain),
      cwnd_gain_(kStartupCwndGain) {}

uint64_t Bbr::bdp(double gain) const {
  if (min_rtt_.ns == 0 || max_bw() == 0) return initial_cwnd_;
  return static_cast<uint64_t>(gain * max_bw() * static_cast<double>(min_rtt_.ns) / 1e9);
}

uint64_t Bbr::probe_rtt_cwnd() const { return std::max(bdp(0.5), min_pipe_cwnd()); }

double Bbr::pacing_rate(Duration smoothed_rtt) const {
  if (pacing_rate_ > 0) return pacing_rate_;
  const double rtt_s = static_cast<double>(std::max<int64_t>(smoothed_rtt.ns, 1)) / 1e9;
  return kStartupPacingGain * static_cast<double>(cwnd_) / rtt_s;
}

void Bbr::on_packet_sent(Instant now, SentPacket& p) {
  sampler_.on_packet_sent(now, bytes_in_flight_, p);
  bytes_in_flight_ += p.bytes;
}

void Bbr::set_app_limited(bool v) {
  if (v) sampler_.on_app_limited(bytes_in_flight_);
}

void Bbr::on_congestion_event(Instant, Instant, uint64_t lost_bytes) { lost_since_ack_ += lost_bytes; }

void Bbr::on_persistent_congestion() {
  cwnd_ = min_pipe_cwnd();
}

void Bbr::on_packets_acked(Instant now, const std::vector<SentPacket>& acked, const RttEstimator& rtt) {
  const uint64_t prior_in_flight = bytes_in_flight_;
  uint64_t acked_bytes = 0;
  for (const SentPacket& p : acked)
    if (p.in_flight) {
      acked_bytes += p.bytes;
      remove_from_flight(p.bytes);
    }
  if (acked_bytes == 0) return;
  if (pacing_rate_ == 0) pacing_rate_ = pacing_rate(rtt.smoothed());
  const RateSample rs = sampler_.on_ack(now, acked, min_rtt_);
  // The model.
  update_round(rs);
  if (rs.valid && (rs.delivery_rate >= max_bw() || !rs.app_limited)) bw_filter_.update(rs.delivery_rate, round_count_);
  check_full_pipe(rs);
  // The state machine.
  if (state_ == BbrState::startup && filled_pipe_) enter(BbrState::drain, now);
  if (state_ == BbrState::drain && bytes_in_flight_ <= bdp(1.0)) enter(BbrState::probe_bw, now);
  if (state_ == BbrState::probe_bw) update_gain_cycle(now, prior_in_flight);
  update_min_rtt(now, rs);
  update_probe_rtt(now);
  lost_since_ack_ = 0;
  // The control parameters: the pacing rate only grows until the pipe is full.
  if (max_bw() > 0) {
    const double rate = pacing_gain_ * max_bw() * kPacingMargin;
    if (filled_pipe_ || rate > pacing_rate_) pacing_rate_ = rate;
  }
  update_cwnd(acked_bytes);
}

void Bbr::update_round(const RateSample& rs) {
  // A round ends when a packet sent after the previous round ended is acknowledged.
  round_start_ = false;
  if (rs.acked && rs.prior_delivered >= next_round_delivered_) {
    next_round_delivered_ = sampler_.delivered();
    ++round_count_;
    round_start_ = true;
  }
}

void Bbr::check_full_pipe(const RateSample& rs) {
  if (filled_pipe_ || !round_start_ || rs.app_limited) return;
  if (max_bw() >= full_bw_ * kFullBwGrowth) {
    full_bw_ = max_bw();
    full_bw_count_ = 0;
    return;
  }
  if (++full_bw_count_ >= kFullBwRounds) filled_pipe_ = true;
}

void Bbr::enter(BbrState s, Instant now) {
  state_ = s;
  switch (s) {
    case BbrState::startup:
      pacing_gain_ = kStartupPacingGain;
      cwnd_gain_ = kStartupCwndGain;
      break;
    case BbrState::drain:
      pacing_gain_ = kDrainPacingGain;
      cwnd_gain_ = kStartupCwndGain;
      break;
    case BbrState::probe_bw:
      cycle_index_ = kFirstProbeBwPhase;
      cycle_stamp_ = now;
      pacing_gain_ = kGainCycle[cycle_index_];
      cwnd_gain_ = kProbeBwCwndGain;
      break;
    case BbrState::probe_rtt:
      pacing_gain_ = 1;
      cwnd_gain_ = 1;
      break;
  }
}

void Bbr::update_gain_cycle(Instant now, uint64_t prior_in_flight) {
  // A phase lasts one min_rtt; probing up also waits until the extra data
  // is in flight (or loss says there is no room), probing down ends as
  // soon as the queue it drains is gone.
  const bool full_length = now - cycle_stamp_ > min_rtt_;
  bool advance = full_length;
  if (pacing_gain_ > 1) advance = full_length && (lost_since_ack_ > 0 || prior_in_flight >= bdp(pacing_gain_));
  if (pacing_gain_ < 1) advance = full_length || prior_in_flight <= bdp(1.0);
  if (!advance) return;
  cycle_index_ = (cycle_index_ + 1) % kGainCycle.size();
  cycle_stamp_ = now;
  pacing_gain_ = kGainCycle[cycle_index_];
}

void Bbr::update_min_rtt(Instant now, const RateSample& rs) {
  min_rtt_expired_ = min_rtt_.ns != 0 && now > min_rtt_stamp_ + kMinRttFilterLen;
  if (rs.acked && (min_rtt_.ns == 0 || rs.rtt <= min_rtt_ || min_rtt_expired_)) {
    min_rtt_ = rs.rtt;
    min_rtt_stamp_ = now;
  }
}

void Bbr::update_probe_rtt(Instant now) {
  if (state_ != BbrState::probe_rtt && min_rtt_expired_) {
    prior_cwnd_ = cwnd_;
    enter(BbrState::probe_rtt, now);
    probe_rtt_done_ = Instant::never();
  }
  if (state_ != BbrState::probe_rtt) return;
  if (probe_rtt_done_.is_never()) {
    // The 200 ms start once the smaller window has drained the queue.
    if (bytes_in_flight_ <= probe_rtt_cwnd()) {
      probe_rtt_done_ = now + kProbeRttDuration;
      probe_rtt_round_done_ = false;
      next_round_delivered_ = sampler_.delivered();
    }
    return;
  }
  if (round_start_) probe_rtt_round_done_ = true;
  if (!probe_rtt_round_done_ || now < probe_rtt_done_) return;
  min_rtt_stamp_ = now;
  cwnd_ = std::max(cwnd_, prior_cwnd_);
  enter(filled_pipe_ ? BbrState::probe_bw : BbrState::startup, now);
}

void Bbr::update_cwnd(uint64_t acked_bytes) {
  // cwnd_gain * BDP plus room for three datagrams the pacer may release
  // back to back.
  const uint64_t target = bdp(cwnd_gain_) + 3 * mds_;
  if (filled_pipe_)
    cwnd_ = std::min(cwnd_ + acked_bytes, target);
  else if (cwnd_ < target || sampler_.delivered() < initial_cwnd_)
    cwnd_ += acked_bytes;
  cwnd_ = std::max(cwnd_, min_pipe_cwnd());
  if (state_ == BbrState::probe_rtt) cwnd_ = std::min(cwnd_, probe_rtt_cwnd());
}

}  // namespace conform::quic

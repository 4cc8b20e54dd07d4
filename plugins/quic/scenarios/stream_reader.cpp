// The reading application: every readable stream drained at once, or at
// `bytes_per_s` in ticks of 10 ms for a slow consumer.
#include "scenarios/stream_reader.hpp"

#include <algorithm>
#include <array>

namespace conform::quic {
namespace {

constexpr Duration kTick = Duration::millis(10);
/// The application error code of the reader's STOP_SENDING.
constexpr uint64_t kNotWanted = 0x11;

}  // namespace

void StreamReader::on_event(Instant, Connection& c, const Event& e) {
  if (auto* o = std::get_if<StreamOpened>(&e)) {
    ++opened_;
    // A no-op when the whole stream already arrived: then it is simply read.
    if (stop_every_ > 0 && static_cast<int64_t>(index_of(o->id) + 1) % stop_every_ == 0 &&
        c.stop_sending(o->id, kNotWanted).ok())
      ++stopped_;
  }
  if (auto* r = std::get_if<StreamReadable>(&e)) readable_.insert(r->id);
  if (auto* r = std::get_if<StreamReset>(&e)) {
    ++reset_;
    readable_.insert(r->id);  // reading it once lets the connection forget it
  }
}

void StreamReader::refill(Instant now) {
  const double tick_bytes = std::max(1.0, static_cast<double>(rate_) * kTick.ns / 1e9);
  if (refilled_at_.is_never()) {
    credit_ = tick_bytes;
  } else if (now > refilled_at_) {
    credit_ += static_cast<double>(rate_) * static_cast<double>((now - refilled_at_).ns) / 1e9;
  }
  credit_ = std::min(credit_, tick_bytes);
  refilled_at_ = now;
}

void StreamReader::poll(Instant now, Connection& c) {
  if (readable_.empty()) return;
  if (rate_ > 0) refill(now);
  std::array<uint8_t, 16384> buf;
  uint64_t budget = rate_ > 0 ? static_cast<uint64_t>(credit_) : UINT64_MAX;
  for (auto it = readable_.begin(); it != readable_.end() && budget > 0;) {
    const size_t want = static_cast<size_t>(std::min<uint64_t>(budget, buf.size()));
    auto r = c.read(*it, std::span<uint8_t>(buf.data(), want));
    if (!r.ok()) {  // reset by the peer, or already gone
      if (r.error() == StreamError::reset_by_peer) reset_now_.push_back(*it);
      it = readable_.erase(it);
      continue;
    }
    bytes_ += r.value().bytes;
    budget -= r.value().bytes;
    if (rate_ > 0) credit_ -= static_cast<double>(r.value().bytes);
    if (r.value().fin) {
      ++finished_;
      finished_now_.push_back(*it);
      it = readable_.erase(it);
    } else if (r.value().bytes < want) {
      it = readable_.erase(it);  // drained: the next StreamReadable brings it back
    }
  }
}

Instant StreamReader::wake_at() const {
  return rate_ > 0 && !readable_.empty() ? refilled_at_ + kTick : Instant::never();
}

std::string StreamReader::summary() const {
  return "read " + std::to_string(finished_) + "/" + std::to_string(opened_) +
         " streams to their end, " + std::to_string(bytes_) + " bytes, " + std::to_string(reset_) +
         " reset by the peer, stop requested on " + std::to_string(stopped_);
}

}  // namespace conform::quic

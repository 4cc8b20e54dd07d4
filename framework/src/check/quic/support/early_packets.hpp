// `client_buffers_early_packets` and `server_buffers_early_packets`: packets
// that reach an endpoint before it can process them (Handshake packets
// before the peer's Initial CRYPTO gave it the handshake keys, 1-RTT packets
// before the peer's Handshake CRYPTO, up to its Finished, arrived) are
// buffered and acknowledged once processed, instead of dropped so the peer
// must resend them (RFC 9001 §5.7 and §4.1.4: MAY buffer; the fix of
// shared/background/client-packet-buffering-and-pq-handshake.md). Read at
// the receiver's capture: arrivals and the ACK frames it sent. A capture
// taken elsewhere shows a packet acknowledged as arrived, and one in a
// datagram another packet of which was acknowledged, but one never
// acknowledged may otherwise have been lost past it: NOT JUDGED. There the
// receiver's ACKs also show packets reordered ahead of their keys past the
// capture point (shown_early).
#pragma once

#include "check/quic/support/blocked_sent.hpp"
#include "check/quic/support/shown_early.hpp"
#include "check/quic/support/unseen_packets.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace conform::quic_checks {

// The end of the CRYPTO data `sender` sent in `space` anywhere in the capture.
inline std::uint64_t crypto_end(const dissect::Connection& c, Side sender, dissect::PacketSpace space) {
  std::uint64_t end = 0;
  for (const auto& d : c.datagrams)
    if (sender_of(d) == sender)
      for (const auto& p : d.packets)
        if (p.space == space)
          for (const auto& f : p.frames)
            if (const auto* cf = std::get_if<dissect::CryptoFrame>(&f)) end = std::max(end, cf->offset + cf->length);
  return end;
}

/// The check, for the side its subclass names (client_buffers_early_packets and server_buffers_early_packets).
class EarlyPacketsBuffered : public QuicCheck {
 public:
  explicit EarlyPacketsBuffered(Side receiver) : receiver_(receiver) {}
  std::string rfc() const override { return "RFC 9001 §5.7, §4.1.4 (MAY: buffering is allowed, not required)"; }
  RequirementLevel level() const override { return RequirementLevel::expectation; }
  std::string summary() const override {
    return fmt::format("every packet that reached the {} before it could have its keys is acknowledged later",
                       to_string(receiver_));
  }
  std::optional<VantageNeed> vantage_need() const override {
    return VantageNeed{"the receiver's host",
                       "an early packet acknowledged later counts as buffered; one never acknowledged is NOT JUDGED, as it may have been lost past the capture point, unless the receiver acknowledged another packet of its datagram; a datagram the receiver's ACKs show it never got gave it no keys, and one holding a packet it could read (a lost Finished) was lost whole; a packet the receiver's ACKs show arrived while the CRYPTO it had acknowledged lacked its keys was early, whatever order the capture shows"};
  }
  std::vector<ValueSpec> params() const override {
    return {{"min_early", ValueType::integer, Value{std::int64_t{0}},
             "fewest early packets the run must show (1 proves the case exercised buffering)"}};
  }

  std::vector<ScenarioParam> scenario_params() const override {
    return {{"min_early", ScenarioPart::provoked_occurrences}};
  }

  CheckResult judge(const QuicRun& run, const CheckInput& input) const override {
    const auto min_early = std::uint64_t(value_or<std::int64_t>(input.params, "min_early", 0));
    return judge_each_connection(run, receiver_, [&](const Judged& j) { return judge_one(j, min_early); });
  }

 private:
  CheckResult judge_one(const Judged& j, std::uint64_t min_early) const {
    const auto& c = *j.connection->connection;
    const Side peer = dissect::other(receiver_);
    const std::uint64_t initial_end = crypto_end(c, peer, dissect::PacketSpace::initial);
    const std::uint64_t handshake_end = crypto_end(c, peer, dissect::PacketSpace::handshake);
    RangeSet initial_crypto, handshake_crypto;
    std::vector<Early> early;
    std::array<RangeSet, 3> acked;  // packet numbers the receiver acknowledged, by space
    const bool at_receiver = at_endpoint(j.vantage, receiver_);
    for (std::size_t i = 0; i < c.datagrams.size(); ++i) {
      const auto& d = c.datagrams[i];
      const At at{d.frame, d.time_ns, i};
      const bool from_peer = sender_of(d) == peer;
      auto has_keys = [&](const dissect::Packet& p) {
        return p.space == dissect::PacketSpace::handshake ? initial_crypto.prefix() >= initial_end
               : p.type == dissect::PacketType::one_rtt   ? handshake_crypto.prefix() >= handshake_end
                                                          : true;
      };
      // From elsewhere, a datagram the receiver's ACKs show it never got
      // (RFC 9000 §13.1): if it held a packet the receiver could have read,
      // it was lost whole past the capture point (a sender's own capture of
      // a lost Finished) and none of it arrived, early or not; else its
      // packets count as early, and never acknowledged, are NOT JUDGED from
      // here. Either way its CRYPTO gave no keys.
      const bool keyed = initial_crypto.prefix() >= initial_end && handshake_crypto.prefix() >= handshake_end;
      const bool lost = from_peer && !at_receiver && !keyed && shown_not_received(c, receiver_, i);
      if (lost && std::any_of(d.packets.begin(), d.packets.end(),
                              [&](const dissect::Packet& p) { return p.decrypted() && has_keys(p); }))
        continue;
      for (const auto& p : d.packets) {
        if (!p.decrypted()) continue;
        const auto space = std::size_t(p.space);
        if (!from_peer) {
          for (const auto& f : p.frames)
            if (const auto* ack = std::get_if<dissect::AckFrame>(&f))
              for (const auto& r : ack->ranges) acked[space].add(r.smallest, r.largest + 1);
          continue;
        }
        const bool keys = has_keys(p);
        if (!keys) early.push_back({at, p.space, p.type, *p.packet_number});
        for (const auto& f : p.frames)
          if (const auto* cf = std::get_if<dissect::CryptoFrame>(&f); cf && !lost)
            (p.space == dissect::PacketSpace::initial ? initial_crypto : handshake_crypto)
                .add(cf->offset, cf->offset + cf->length);
      }
    }
    // From elsewhere the capture order is not the arrival order: the
    // receiver's ACKs show packets the network reordered ahead of their keys.
    if (!at_receiver) {
      for (const Early& e : shown_early(c, receiver_, initial_end, handshake_end))
        if (std::none_of(early.begin(), early.end(),
                         [&](const Early& k) { return k.space == e.space && k.pn == e.pn; }))
          early.push_back(e);
      std::stable_sort(early.begin(), early.end(), [](const Early& a, const Early& b) { return a.at < b.at; });
    }
    std::vector<std::string> problems;
    std::vector<Evidence> ev;
    std::size_t dropped = 0;
    const Early* first_dropped = nullptr;  // the first the capture cannot show arrived
    for (const Early& e : early) {
      const bool was_acked = acked[std::size_t(e.space)].contains(e.pn);
      ev.push_back(evidence(*j.capture, e.at,
                            fmt::format("{} packet {} arrived before its keys; {}", dissect::to_string(e.type), e.pn,
                                        was_acked ? "acknowledged later" : "never acknowledged")));
      if (was_acked) continue;
      // A packet the receiver acknowledged another packet of its datagram
      // of arrived, wherever the capture was taken.
      const bool arrived = at_receiver || shown_received(c.datagrams[e.at.datagram], acked, e.space, e.pn);
      if (!arrived) {
        if (!first_dropped) first_dropped = &e;
        continue;
      }
      if (dropped++ == 0)
        problems.push_back(fmt::format("{} packet {} of the {} arrived at frame {} ({}) before the {} could have its "
                                       "keys and was never acknowledged",
                                       dissect::to_string(e.type), e.pn, to_string(peer), e.at.frame,
                                       ms(e.at.time_ns), to_string(receiver_)));
    }
    if (dropped > 1) problems.front() += fmt::format(" ({} such packets)", dropped);
    // Only a capture at the receiver, or an acknowledgement of its
    // datagram, shows that what it saw arrived; from anywhere else a packet
    // never acknowledged may have been lost past it.
    if (first_dropped && problems.empty()) {
      const auto unseen = std::size_t(std::count_if(early.begin(), early.end(), [&](const Early& e) {
        return !acked[std::size_t(e.space)].contains(e.pn) && !shown_received(c.datagrams[e.at.datagram], acked, e.space, e.pn);
      }));
      return needs_vantage(j, receiver_, "receive side",
                           fmt::format("{} packet {} of the {} (frame {}, {}) came before the {} could have its keys "
                                       "and was never acknowledged{}: it may have been lost past the capture point",
                                       dissect::to_string(first_dropped->type), first_dropped->pn, to_string(peer),
                                       first_dropped->at.frame, ms(first_dropped->at.time_ns), to_string(receiver_),
                                       unseen > 1 ? fmt::format(" ({} such packets)", unseen) : ""));
    }
    if (early.size() < min_early)
      problems.push_back(fmt::format("{} packets arrived before their keys, fewer than min_early={}", early.size(), min_early));
    if (early.empty() && problems.empty())
      return not_exercised(fmt::format("no packet of the {} reached the {} before it could have its keys",
                                       to_string(peer), to_string(receiver_)));
    return verdict(problems, ev,
                   fmt::format("{} packets arrived before their keys, all acknowledged later", early.size()));
  }

  Side receiver_;
};

}  // namespace conform::quic_checks

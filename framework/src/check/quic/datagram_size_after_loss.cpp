// `datagram_size_after_loss`: once a datagram larger than the path is known
// to carry is lost, its sender sends no other that large, PMTU probes aside,
// until one of that size is acknowledged. RFC 8899 §4.4: a packetization
// layer sends nothing but probes above its PLPMTU, which §4.3 lowers when
// loss shows the path does not carry it; RFC 9000 §14.1: datagrams with
// Initial packets MAY exceed 1200 bytes only while the sender believes the
// path supports the size (no keyword). s2n-quic#3299 padded ACK-only
// packets to its initial MTU after its first flight of that size was lost.
//
// What the path is known to carry: the largest of the sender's datagrams
// its peer acknowledged, and at least what RFC 9000 §14 expects of every
// path (1252 bytes over IPv4, 1232 over IPv6), so that a random loss below
// it says nothing of the size. A datagram is lost when no ACK ever covers a
// packet of it and an ACK of a later packet of its space passed over it;
// its sender knew from RFC 9002 §6.1.2's time threshold, 9/8 of the largest
// RTT sample so far after it was sent, and 1 ms to read the ACK (from a
// capture not at the sender, one handshake round trip more). A PTO probe declares nothing lost (RFC 9002 §6.2), a Retry
// discards what came before it (RFC 9002 §6.3), and 0-RTT may be rejected:
// none of them counts. A PMTU probe may be larger: ack-eliciting by a PING
// and carrying no data (RFC 9000 §14.4: PING and PADDING; quinn adds
// IMMEDIATE_ACK, draft-ietf-quic-ack-frequency, and an ACK may ride along).
#include "check/quic/support/blocked_sent.hpp"
#include "check/quic/support/crypto_flights.hpp"
#include "check/quic/support/round_trip.hpp"
#include "check/quic/support/retry.hpp"
#include "check/registrar.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace conform::quic_checks {
namespace {

// RFC 9000 §14: the datagram size any modern IPv4 path, and every IPv6
// path, is expected to carry (a 1280-byte IP packet less its headers).
constexpr std::size_t kAssuredIpv4 = 1252, kAssuredIpv6 = 1232;

using SpacedNumber = std::pair<dissect::PacketSpace, std::uint64_t>;

// One datagram of the sender above what the path was known to carry when
// it was sent, and what the peer's ACK frames said of it.
struct Sent {
  std::size_t datagram = 0;
  std::vector<SpacedNumber> packets;
  std::optional<std::size_t> acked_at;   // the first peer datagram whose ACK covers one of its packets
  std::optional<std::size_t> passed_at;  // the first whose ACK acknowledges a later packet of a space without it
};

// A rise of the size known to be carried: from datagram `from` on, `size`.
struct KnownSize {
  std::size_t from = 0;
  std::size_t size = 0;
};

// A lost datagram and from when its sender knew: datagrams after index
// `after` sent at `time_ns` or later.
struct Lost {
  std::size_t datagram = 0;
  std::size_t after = 0;
  std::int64_t time_ns = 0;
  std::string how;
};

bool is_pmtu_probe(const dissect::Datagram& d) {
  bool ping = false;
  for (const auto& p : d.packets)
    for (const auto& f : p.frames) {
      if (std::holds_alternative<dissect::PingFrame>(f)) ping = true;
      else if (!std::holds_alternative<dissect::PaddingFrame>(f) && !std::holds_alternative<dissect::AckFrame>(f) &&
               !std::holds_alternative<dissect::ImmediateAckFrame>(f))
        return false;
    }
  return ping;
}

bool is_ack_eliciting(const dissect::Datagram& d) {
  return std::any_of(d.packets.begin(), d.packets.end(), [](const dissect::Packet& p) { return ack_eliciting(p); });
}

// One pass over the connection: the sender's datagrams above the known
// size, with the ACKs that covered or passed over them, and the rises of
// the known size as ACKs arrive.
struct AckHistory {
  std::vector<Sent> sent;
  std::vector<KnownSize> known;
};

AckHistory ack_history(const dissect::Connection& c, Side by, std::size_t assured) {
  AckHistory h;
  h.known.push_back({0, assured});
  const std::optional<dissect::Bytes> retry = by == Side::client ? retry_token(c) : std::nullopt;
  std::vector<std::size_t> open;  // indices into h.sent still unacknowledged and above the known size
  for (std::size_t i = 0; i < c.datagrams.size(); ++i) {
    const auto& d = c.datagrams[i];
    if (sender_of(d) == by) {
      // An ACK-only datagram is seldom acknowledged and never declared lost.
      if (d.size <= h.known.back().size || !is_ack_eliciting(d) || discarded_by_retry(d, retry)) continue;
      Sent s{i, {}, {}, {}};
      for (const auto& p : d.packets)
        if (p.packet_number && p.type != dissect::PacketType::zero_rtt) s.packets.emplace_back(p.space, *p.packet_number);
      if (s.packets.empty()) continue;
      open.push_back(h.sent.size());
      h.sent.push_back(std::move(s));
      continue;
    }
    for (const auto& p : d.packets)
      for (const auto& f : p.frames) {
        const auto* ack = std::get_if<dissect::AckFrame>(&f);
        if (!ack) continue;
        for (std::size_t k : open) {
          Sent& s = h.sent[k];
          for (const auto& [space, pn] : s.packets) {
            if (space != p.space || pn > ack->largest) continue;
            if (ack->acknowledges(pn)) s.acked_at = i;
            else if (!s.passed_at) s.passed_at = i;
          }
          const std::size_t size = c.datagrams[s.datagram].size;
          if (s.acked_at && size > h.known.back().size) h.known.push_back({i + 1, size});
        }
      }
    // A datagram whose size became known stays followed: whether it was
    // lost decides what its sender knew before.
    std::erase_if(open, [&](std::size_t k) { return h.sent[k].acked_at.has_value(); });
  }
  return h;
}

// When `by` knew that `s`, never acknowledged, was lost (an ACK passed over
// it); nullopt when it had no sign of it. RFC 9002 §6.1.2: lost 9/8 of a
// round trip after it was sent, max(smoothed_rtt, latest_rtt), neither of
// which exceeds the largest sample so far, that ACK's own included (at
// least 1 ms, kGranularity).
std::optional<Lost> known_lost(const Sent& s, const dissect::Connection& c, const std::vector<RttSample>& samples,
                               std::int64_t unseen_ns) {
  if (!s.passed_at) return std::nullopt;
  const auto& d = c.datagrams[s.datagram];
  const auto& ack = c.datagrams[*s.passed_at];
  std::int64_t rtt = 1'000'000;
  for (const RttSample& r : samples)
    if (r.datagram <= *s.passed_at) rtt = std::max(rtt, r.ns);
  const std::int64_t threshold = d.time_ns + rtt * 9 / 8;
  return Lost{s.datagram, *s.passed_at, std::max(ack.time_ns, threshold) + kReadNs + unseen_ns,
              fmt::format("frame {} acknowledged later packets without it", ack.frame)};
}

// From elsewhere, the first gap in `by`'s packet numbers among what it sent
// from `since_ns` on: a datagram the capture cannot size. (The gap may
// hold packets sent just before `since_ns`, the capture cannot tell.) A
// space whose first packet comes after that is looked at from that packet
// on: a space may start past 0 (lsquic's Handshake does).
std::optional<UnseenGap> unseen_since(const Judged& j, Side by, std::int64_t since_ns) {
  const auto& c = *j.connection->connection;
  if (at_endpoint(j.vantage, by)) return std::nullopt;
  const auto first = std::find_if(c.datagrams.begin(), c.datagrams.end(),
                                  [&](const dissect::Datagram& d) { return d.time_ns >= since_ns; });
  if (first == c.datagrams.end()) return std::nullopt;
  const auto i = std::size_t(first - c.datagrams.begin());
  for (auto space : {dissect::PacketSpace::initial, dissect::PacketSpace::handshake, dissect::PacketSpace::application}) {
    const auto opening = next_in_space(c, by, space, kFromTheStart);
    if (!opening) continue;
    const std::size_t from = *opening < i ? i - 1 : *opening;
    if (auto gap = first_unseen(c, by, space, from, c.datagrams.size() - 1)) return gap;
  }
  return std::nullopt;
}

class DatagramSizeAfterLoss final : public QuicCheck {
 public:
  KeysNeeded keys_needed() const override { return KeysNeeded::one_rtt; }
  std::string name() const override { return "datagram_size_after_loss"; }
  std::string rfc() const override { return "RFC 8899 §4.3-§4.4 (as RFC 9000 §14.3 applies it), RFC 9000 §14.1, §14.4 (no keyword)"; }
  RequirementLevel level() const override { return RequirementLevel::expectation; }
  std::string summary() const override {
    return "after a datagram above the size known to reach the peer (1252 bytes, 1232 over IPv6, or the largest "
           "it acknowledged) is lost, `by` sends none that large (PMTU probes aside) until one is acknowledged";
  }
  std::optional<VantageNeed> vantage_need() const override {
    return VantageNeed{"`by`'s host",
                       "an ACK that shows a loss counts from one handshake round trip after it passed the capture point; a gap in `by`'s packet numbers (a datagram lost before the capture point) followed by a datagram above the size known to reach the peer that is no PMTU probe, or any such gap once `by` knew of a loss, makes a capture with no failure NOT JUDGED"};
  }
  std::vector<ValueSpec> params() const override {
    return {side_param("by", "whose datagrams count", std::string("any"), true)};
  }

  CheckResult judge(const QuicRun& run, const CheckInput& input) const override {
    const auto by = value_or<std::string>(input.params, "by", "any");
    return judge_by(run, by, [](const Judged& j, Side side) { return judge_one(j, side); });
  }

 private:
  static CheckResult judge_one(const Judged& j, Side by) {
    const auto& c = *j.connection->connection;
    const std::size_t assured = c.client.ipv6 ? kAssuredIpv6 : kAssuredIpv4;
    const AckHistory history = ack_history(c, by, assured);
    const std::int64_t unseen = unseen_round_trip(j, by);
    const std::vector<RttSample> samples = rtt_samples(c, by);
    std::vector<Lost> lost;
    for (const Sent& s : history.sent)
      if (!s.acked_at)
        if (auto l = known_lost(s, c, samples, unseen)) lost.push_back(std::move(*l));

    std::vector<std::string> problems;
    std::vector<Evidence> ev;
    std::size_t known = assured, next_rise = 0;
    std::vector<std::size_t> above_known;  // `by`'s datagrams above the size known then, no PMTU probe
    for (std::size_t i = 0; i < c.datagrams.size(); ++i) {
      while (next_rise < history.known.size() && history.known[next_rise].from <= i)
        known = history.known[next_rise++].size;
      const auto& e = c.datagrams[i];
      if (sender_of(e) != by || e.size <= known || is_pmtu_probe(e)) continue;
      above_known.push_back(i);
      for (const Lost& l : lost) {
        const auto& d = c.datagrams[l.datagram];
        if (i <= l.after || e.time_ns < l.time_ns || d.size <= known || d.size > e.size) continue;
        problems.push_back(fmt::format("frame {} ({}): a datagram of {} bytes, above the {} known to reach the "
                                       "{}, after the {}-byte datagram of frame {} was lost ({})",
                                       e.frame, ms(e.time_ns), e.size, known, to_string(dissect::other(by)),
                                       d.size, d.frame, l.how));
        ev.push_back(evidence(*j.capture, j.connection->at(l.datagram),
                              fmt::format("{} bytes, never acknowledged", d.size)));
        ev.push_back(evidence(*j.capture, j.connection->at(i), fmt::format("{} bytes sent after it", e.size)));
        break;
      }
    }
    std::vector<Evidence> losses;
    for (const Lost& l : lost)
      losses.push_back(evidence(*j.capture, j.connection->at(l.datagram),
                                fmt::format("{} bytes, never acknowledged: {}", c.datagrams[l.datagram].size, l.how)));
    // From elsewhere, a datagram lost before the capture point (a gap in
    // `by`'s packet numbers) is one the capture cannot size: a larger one
    // seen after it may be what its loss forbade.
    if (problems.empty())
      if (const auto gap = packets_unseen(j, by))
        if (const auto it = std::lower_bound(above_known.begin(), above_known.end(), gap->datagram);
            it != above_known.end())
          return needs_vantage(j, by, "own capture",
                               fmt::format("{}, and a datagram of {} bytes above the size known to reach the {} at "
                                           "frame {} came after it",
                                           gap->why, c.datagrams[*it].size, to_string(dissect::other(by)),
                                           c.datagrams[*it].frame));
    // And one it sent once it knew of a loss may have been that large.
    if (problems.empty() && !lost.empty()) {
      const auto first = std::min_element(lost.begin(), lost.end(),
                                          [](const Lost& a, const Lost& b) { return a.time_ns < b.time_ns; });
      if (const auto gap = unseen_since(j, by, first->time_ns))
        return needs_vantage(j, by, "own capture",
                             fmt::format("{}, after the {} knew the {}-byte datagram of frame {} was lost: the "
                                         "capture cannot tell how large what it sent then was",
                                         gap->why, to_string(by), c.datagrams[first->datagram].size,
                                         c.datagrams[first->datagram].frame));
    }
    if (lost.empty())
      return not_exercised(fmt::format("no datagram of the {} above {} bytes and above every one acknowledged was "
                                       "lost",
                                       to_string(by), assured));
    return verdict(problems, problems.empty() ? losses : ev,
                   fmt::format("{} datagram{} above the size known to reach the {} lost; none that large sent "
                               "again but as a PMTU probe",
                               lost.size(), lost.size() == 1 ? "" : "s", to_string(dissect::other(by))));
  }
};

}  // namespace

}  // namespace conform::quic_checks

CONFORM_REGISTER_CHECK(datagram_size_after_loss, quic_checks::DatagramSizeAfterLoss)

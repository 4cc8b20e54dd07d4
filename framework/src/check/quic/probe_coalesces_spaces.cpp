// `probe_coalesces_spaces`: a datagram re-sending CRYPTO while both the
// Initial and the Handshake space hold unacknowledged CRYPTO carries both
// spaces when the other space's pending bytes fit: the peer may have lost
// either flight, and a missing Initial ACK does not say which. RFC 9002
// §6.2.4: "the sender SHOULD send ack-eliciting packets from other packet
// number spaces with in-flight data, coalescing packets if possible"
// (RFC 9000 §12.2: coalescing).
// A re-sending of bytes that loss detection declared lost (RFC 9002 §6.1:
// in packets sent before one the peer acknowledged) is a repair, not a
// probe: the ACK said which flight was lost. "Pending" leaves out what the
// same burst (datagrams within 1 ms before) already re-sent. Bytes after a
// datagram's packets that cannot start one (quiche's zeros) are room, as
// PADDING is. Judged at the sender's own capture.
#include "check/quic/support/blocked_sent.hpp"
#include "check/quic/support/crypto_flights.hpp"
#include "check/registrar.hpp"

#include <fmt/format.h>

namespace conform::quic_checks {
namespace {

// Whether `d` re-sent CRYPTO as a probe may: not only what loss detection
// declared lost, which asks nothing of the other space.
bool probes(const FlightDatagram& d) {
  return (d.resent[kInitial] && !d.repairs_loss[kInitial]) || (d.resent[kHandshake] && !d.repairs_loss[kHandshake]);
}

class ProbeCoalescesSpaces final : public QuicCheck {
 public:
  KeysNeeded keys_needed() const override { return KeysNeeded::handshake; }
  std::string name() const override { return "probe_coalesces_spaces"; }
  std::string rfc() const override {
    return "RFC 9002 §6.2.4 (SHOULD: probe the other spaces with in-flight data, coalescing if possible), "
           "RFC 9000 §12.2";
  }
  RequirementLevel level() const override { return RequirementLevel::should; }
  std::string summary() const override {
    return "a datagram `by` sends to re-send CRYPTO while both Initial and Handshake CRYPTO are unacknowledged "
           "carries both spaces when they fit in `max_datagram_bytes`";
  }
  std::vector<ValueSpec> params() const override {
    return {side_param("by", "the endpoint whose probes count", std::string("server")),
            {"max_datagram_bytes", ValueType::integer, Value{std::int64_t{1200}},
             "room in a probe datagram, bytes (1200: the size every path carries, RFC 9000 §14)"}};
  }

  CheckResult judge(const QuicRun& run, const CheckInput& input) const override {
    const Side by = side_from(value_or<std::string>(input.params, "by", "server"));
    const auto room = std::uint64_t(value_or<std::int64_t>(input.params, "max_datagram_bytes", 1200));
    return judge_each_connection(run, by, [&](const Judged& j) {
      const auto& flights = crypto_flights(*j.connection, by);
      const auto& ds = flights.datagrams;
      std::vector<std::string> problems;
      std::vector<Evidence> ev;
      std::size_t both = 0, judged = 0, unknown = 0;
      for (std::size_t i = 0; i < ds.size(); ++i) {
        const auto& d = ds[i];
        if (!probes(d) || d.unacked[kInitial].empty() || d.unacked[kHandshake].empty()) continue;
        ++judged;
        if (!d.crypto[kInitial].empty() && !d.crypto[kHandshake].empty()) {
          ++both;
          continue;
        }
        const std::size_t other = d.crypto[kInitial].empty() ? kInitial : kHandshake;
        RangeSet burst;
        for (std::size_t k = i; k-- > 0 && d.at.time_ns - ds[k].at.time_ns <= kProbeBurstNs;) burst.add(ds[k].crypto[other]);
        const RangeSet pending = d.unacked[other].minus(burst);
        if (pending.empty() || d.used + pending.size() + d.overhead[other] > room) {
          // Room the capture cannot see: an undecryptable packet may be
          // padding (Cloudflare quiche pads with a 1-RTT packet the key log
          // of a probe does not open yet).
          if (!pending.empty() && d.used - d.unread + pending.size() + d.overhead[other] <= room) ++unknown;
          continue;
        }
        const std::string padded =
            d.padding_after ? fmt::format(" (its last {} bytes cannot start a packet: padding)", d.padding_after) : "";
        problems.push_back(fmt::format("frame {} ({}) re-sent {} CRYPTO in {} of {} bytes{} without the {} {} CRYPTO "
                                       "bytes {} that were unacknowledged and fit",
                                       d.at.frame, ms(d.at.time_ns), space_name(1 - other), d.used, d.size, padded,
                                       pending.size(), space_name(other), format_ranges(pending)));
        ev.push_back(evidence(*j.capture, d.at, fmt::format("probe without {} CRYPTO", space_name(other))));
      }
      if (judged == 0) {
        if (auto gap = handshake_packets_unseen(j, by)) return needs_vantage(j, by, "own capture", gap->why);
        return not_exercised(fmt::format("the {} never re-sent CRYPTO while both Initial and Handshake CRYPTO were "
                                         "unacknowledged",
                                         to_string(by)));
      }
      const std::string unread =
          unknown == 0 ? std::string()
                       : fmt::format("; {} had room only if their undecryptable packets were padding", unknown);
      if (problems.empty() && unknown > 0)
        return CheckResult{Verdict::not_judged,
                           fmt::format("cannot judge: {} datagrams re-sent CRYPTO while both spaces had some "
                                       "unacknowledged; {} carried both{}",
                                       judged, both, unread),
                           {}};
      return verdict(problems, ev,
                     fmt::format("{} datagrams re-sent CRYPTO while both spaces had some "
                                 "unacknowledged; {} carried both, the others had no room{}",
                                 judged, both, unread));
    });
  }
};

}  // namespace

}  // namespace conform::quic_checks

CONFORM_REGISTER_CHECK(probe_coalesces_spaces, quic_checks::ProbeCoalescesSpaces)

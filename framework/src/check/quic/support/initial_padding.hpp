// `client_initial_padded` and `server_initial_padded`: a client expands
// every UDP datagram carrying an Initial packet to at least 1200 bytes, and
// a server every one carrying an ack-eliciting Initial packet, coalesced
// packets included (RFC 9000 §14.1: MUST). A server's ACK-only Initial may
// be smaller. Judged at the sender's own captures.
#pragma once

#include "check/quic/support/blocked_sent.hpp"
#include "check/quic/support/crypto_flights.hpp"

#include <fmt/format.h>

namespace conform::quic_checks {

/// RFC 9000 §14.1: the smallest datagram an Initial may come in (a
/// client's always, a server's ack-eliciting ones).
inline constexpr std::size_t kMinInitialDatagram = 1200;

/// The check, for the side its subclass names (client_initial_padded and server_initial_padded).
class InitialPadded : public QuicCheck {
 public:
  KeysNeeded keys_needed() const override { return KeysNeeded::initial; }
  explicit InitialPadded(Side sender) : sender_(sender) {}
  std::string rfc() const override { return "RFC 9000 §14.1 (MUST)"; }
  RequirementLevel level() const override { return RequirementLevel::must; }
  std::string summary() const override {
    return sender_ == Side::client ? "every datagram the client sends carrying an Initial packet holds at least 1200 bytes"
                                   : "every datagram the server sends carrying an ack-eliciting Initial packet holds "
                                     "at least 1200 bytes";
  }
  std::vector<ValueSpec> params() const override { return {}; }

  CheckResult judge(const QuicRun& run, const CheckInput&) const override {
    return judge_each_connection(run, sender_, [&](const Judged& j) { return judge_one(j); });
  }

 private:
  bool counts(const dissect::Packet& p) const {
    if (p.type != dissect::PacketType::initial) return false;
    return sender_ == Side::client || ack_eliciting(p);
  }

  CheckResult judge_one(const Judged& j) const {
    const auto& c = *j.connection->connection;
    std::vector<std::string> problems;
    std::vector<Evidence> ev;
    std::size_t judged = 0, smallest = SIZE_MAX;
    for (std::size_t i = 0; i < c.datagrams.size(); ++i) {
      const auto& d = c.datagrams[i];
      if (sender_of(d) != sender_) continue;
      bool has = false;
      for (const auto& p : d.packets) has = has || counts(p);
      if (!has) continue;
      ++judged;
      smallest = std::min(smallest, d.size);
      if (d.size >= kMinInitialDatagram) continue;
      const At at{d.frame, d.time_ns, i};
      problems.push_back(fmt::format("frame {} ({}): a datagram of {} bytes carrying an Initial packet", d.frame,
                                     ms(d.time_ns), d.size));
      ev.push_back(evidence(*j.capture, at, fmt::format("{} bytes < 1200", d.size)));
    }
    if (!judged) return {Verdict::not_exercised, fmt::format("the {} sent no datagram with such an Initial packet", to_string(sender_)), {}};
    return verdict(problems, ev, fmt::format("{} datagrams carrying Initial packets, the smallest {} bytes", judged, smallest));
  }

  Side sender_;
};

}  // namespace conform::quic_checks

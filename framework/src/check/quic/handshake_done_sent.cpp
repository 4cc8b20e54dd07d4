// `handshake_done_sent`: a server sends HANDSHAKE_DONE once the handshake is
// complete (RFC 9001 §4.1.2: MUST), which for a server is when the client's
// Finished has arrived (§4.1.1), and never before (RFC 9000 §19.20: MUST
// NOT); a client never sends one (§19.20: only a server may). Judged at the
// server's capture: the client's Handshake CRYPTO as it arrived, the frames
// as they left.
#include "check/quic/support/blocked_sent.hpp"
#include "check/quic/support/early_packets.hpp"
#include "check/registrar.hpp"

#include <fmt/format.h>

namespace conform::quic_checks {
namespace {

class HandshakeDoneSent final : public QuicCheck {
 public:
  std::string name() const override { return "handshake_done_sent"; }
  std::string rfc() const override { return "RFC 9001 §4.1.2 (MUST), RFC 9000 §19.20"; }
  RequirementLevel level() const override { return RequirementLevel::must; }
  std::string summary() const override {
    return "the server sends HANDSHAKE_DONE once the client's Finished has arrived, never before; the client "
           "sends none";
  }
  std::vector<ValueSpec> params() const override { return {}; }

  CheckResult judge(const QuicRun& run, const CheckInput&) const override {
    return judge_each_connection(run, Side::server, [](const Judged& j) { return judge_one(j); });
  }

 private:
  static CheckResult judge_one(const Judged& j) {
    const auto& c = *j.connection->connection;
    const std::uint64_t finished_end = crypto_end(c, Side::client, dissect::PacketSpace::handshake);
    RangeSet arrived;
    std::optional<At> complete, done;
    std::vector<std::string> problems;
    std::vector<Evidence> ev;
    for (std::size_t i = 0; i < c.datagrams.size(); ++i) {
      const auto& d = c.datagrams[i];
      const At at{d.frame, d.time_ns, i};
      const bool from_client = sender_of(d) == Side::client;
      for (const auto& p : d.packets)
        for (const auto& f : p.frames) {
          if (const auto* cf = std::get_if<dissect::CryptoFrame>(&f);
              cf && from_client && p.space == dissect::PacketSpace::handshake)
            arrived.add(cf->offset, cf->offset + cf->length);
          if (!std::holds_alternative<dissect::HandshakeDoneFrame>(f)) continue;
          if (from_client) {
            problems.push_back(fmt::format("the client sent HANDSHAKE_DONE at frame {} ({})", d.frame, ms(d.time_ns)));
            ev.push_back(evidence(*j.capture, at, "HANDSHAKE_DONE from the client"));
          } else if (!done) {
            done = at;
            ev.push_back(evidence(*j.capture, at, "HANDSHAKE_DONE"));
            if (!complete)
              problems.push_back(fmt::format("the server sent HANDSHAKE_DONE at frame {} ({}) before the client's "
                                             "Finished arrived",
                                             d.frame, ms(d.time_ns)));
          }
        }
      if (!complete && finished_end > 0 && arrived.prefix() >= finished_end) complete = at;
    }
    if (!complete && problems.empty())
      return not_exercised("the client's Finished never arrived at the server: no handshake completed");
    if (complete && !done) {
      problems.push_back(fmt::format("the client's Finished arrived at frame {} ({}); the server sent no "
                                     "HANDSHAKE_DONE",
                                     complete->frame, ms(complete->time_ns)));
      ev.push_back(evidence(*j.capture, *complete, "the client's Finished arrived"));
    }
    return verdict(problems, ev,
                   done && complete ? fmt::format("the client's Finished arrived at frame {} ({}), HANDSHAKE_DONE left at frame "
                                      "{} ({})",
                                      complete->frame, ms(complete->time_ns), done->frame, ms(done->time_ns))
                        : std::string());
  }
};

}  // namespace
}  // namespace conform::quic_checks

CONFORM_REGISTER_CHECK(handshake_done_sent, quic_checks::HandshakeDoneSent)

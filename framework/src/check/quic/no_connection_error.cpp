// `no_connection_error`: no side sent a CONNECTION_CLOSE of type 0x1c with
// a transport error other than NO_ERROR (RFC 9000 §10.2, §20.1). Judged at
// each sender's own captures.
#include "check/quic/support/blocked_sent.hpp"
#include "check/quic/support/transport_closes.hpp"
#include "check/registrar.hpp"

#include <fmt/format.h>

namespace conform::quic_checks {
namespace {

class NoConnectionError final : public QuicCheck {
 public:
  std::string name() const override { return "no_connection_error"; }
  std::string rfc() const override { return "RFC 9000 §10.2, §20.1"; }
  RequirementLevel level() const override { return RequirementLevel::expectation; }
  std::string summary() const override {
    return "no side sent a CONNECTION_CLOSE (transport, 0x1c) with an error other than NO_ERROR";
  }
  std::vector<ValueSpec> params() const override {
    return {side_param("by", "whose closes count", std::string("any"), true)};
  }

  CheckResult judge(const QuicRun& run, const CheckInput& input) const override {
    const auto by = value_or<std::string>(input.params, "by", "any");
    // No connection, no error to see: that is not a pass (a client that crashed sends nothing).
    std::size_t connections = 0;
    for (Side side : sides(by)) connections += connections_of(run.at(side), run.vantage(side)).size();
    if (connections == 0) return {Verdict::fail, "no QUIC connection in the captures", {}};
    std::vector<std::string> problems;
    std::vector<Evidence> ev;
    std::size_t closes = 0;
    for_each_close(run, by, [&](const Judged& j, Side side, const CloseSeen& c) {
      ++closes;
      if (c.frame.error_code == 0) return;
      problems.push_back(fmt::format("the {} closed with {} at frame {} of {} ({}){}", to_string(side),
                                     error_name(c.frame.error_code), c.at.frame, j.capture->file, ms(c.at.time_ns),
                                     c.frame.reason.empty() ? "" : ": \"" + c.frame.reason + "\""));
      ev.push_back(evidence(*j.capture, c.at, fmt::format("CONNECTION_CLOSE {}", error_name(c.frame.error_code))));
    });
    return verdict(problems, ev, fmt::format("{} transport CONNECTION_CLOSE frames, none with an error", closes));
  }
};

}  // namespace
}  // namespace conform::quic_checks

CONFORM_REGISTER_CHECK(no_connection_error, quic_checks::NoConnectionError)

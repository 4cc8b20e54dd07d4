// `receive_window_floor`: while transfers run, the chosen side never
// advertises a receive window below `min_bytes` (scaled as the handshake
// agreed, RFC 7323 §2.3). A receiver must avoid advertising small windows
// (receiver-side silly window syndrome avoidance, RFC 9293 §3.8.6.2.2,
// MUST); a window clamped to tens of kilobytes on a link that moves
// gigabytes a second is the collapse of the loopback spike.
#pragma once

#include "check/check.hpp"

namespace conform {

class ReceiveWindowFloor final : public Check {
 public:
  std::string name() const override { return "receive_window_floor"; }
  std::string transport() const override { return "TCP"; }
  std::string rfc() const override {
    return "RFC 9293 §3.8.6.2.2 (MUST: receiver SWS avoidance), RFC 7323 §2.3";
  }
  RequirementLevel level() const override { return RequirementLevel::must; }
  std::string summary() const override {
    return "windows `by` advertises during transfers (each one, or each transfer's largest) are "
           "never below `min_bytes`";
  }
  std::vector<ValueSpec> params() const override;
  CheckResult evaluate(const CheckInput& input) const override;
};

}  // namespace conform

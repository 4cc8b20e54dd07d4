// `no_stalls`: no transfer goes longer than `max_gap_ms` without a segment
// carrying new data, from its first request byte to its last response
// segment (or to the end of the flow when it was never answered). While a
// zero window holds data back the sender must keep probing and resume as
// soon as the window opens (RFC 9293 §3.8.6.1, MUST); a multi-second gap on
// loopback is the collapse the loopback spike saw.
#pragma once

#include "check/check.hpp"

namespace conform {

class NoStalls final : public Check {
 public:
  std::string name() const override { return "no_stalls"; }
  std::string transport() const override { return "TCP"; }
  std::string rfc() const override { return "RFC 9293 §3.8.6.1 (MUST: zero-window probing)"; }
  RequirementLevel level() const override { return RequirementLevel::must; }
  std::string summary() const override {
    return "no transfer goes `max_gap_ms` without new data in either direction";
  }
  std::vector<ValueSpec> params() const override;
  CheckResult evaluate(const CheckInput& input) const override;
};

}  // namespace conform

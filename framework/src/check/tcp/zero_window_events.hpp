// `zero_window_events`: at most `max` zero-window episodes (a run of
// segments advertising a zero window counts once) by the chosen side. A
// receiver advertises zero when its buffer is full (RFC 9293 §3.8.6.1); the
// window field is read unscaled, so zero means zero at any scale (RFC 7323
// §2.3). On loopback with a reader that keeps up, there should be none.
#pragma once

#include "check/check.hpp"

namespace conform {

class ZeroWindowEvents final : public Check {
 public:
  std::string name() const override { return "zero_window_events"; }
  std::string transport() const override { return "TCP"; }
  std::string rfc() const override { return "RFC 9293 §3.8.6.1, RFC 7323 §2.3 (performance, no level)"; }
  RequirementLevel level() const override { return RequirementLevel::expectation; }
  std::string summary() const override {
    return "at most `max` zero-window episodes by `by` across the capture's flows";
  }
  std::vector<ValueSpec> params() const override;
  CheckResult evaluate(const CheckInput& input) const override;
};

}  // namespace conform

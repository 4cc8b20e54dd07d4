// `datagrams_captured`: a vantage point's capture holds a number of UDP
// datagrams, optionally only those sent by one side. A sanity check of the
// capture itself (no RFC requirement): it proves a run produced traffic.
#pragma once

#include "check/check.hpp"

namespace conform {

class DatagramsCaptured final : public Check {
 public:
  std::string name() const override { return "datagrams_captured"; }
  std::string rfc() const override { return "none (capture sanity)"; }
  RequirementLevel level() const override { return RequirementLevel::expectation; }
  std::string summary() const override {
    return "the capture at `vantage` holds between `min` and `max` UDP datagrams sent by `from`";
  }
  std::vector<ValueSpec> params() const override;
  CheckResult evaluate(const CheckInput& input) const override;
  /// UDP datagrams: a TCP connection has none to count.
  std::string transport() const override { return "UDP"; }
};

}  // namespace conform

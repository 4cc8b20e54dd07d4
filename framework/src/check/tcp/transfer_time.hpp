// `transfer_time`: every request/response transfer in a capture completes,
// the slowest within `max_ms` and the `percentile`-th within
// `percentile_ms`, timed from the capture alone (first request byte to last
// response segment, dissect/tcp/transfers.hpp). A performance bound, not an
// RFC requirement: it catches the multi-second stalls of the loopback spike.
#pragma once

#include "check/check.hpp"

namespace conform {

class TransferTime final : public Check {
 public:
  std::string name() const override { return "transfer_time"; }
  std::string transport() const override { return "TCP"; }
  std::string rfc() const override {
    return "none (performance bound on RFC 9293 §3.8 data transfer)";
  }
  RequirementLevel level() const override { return RequirementLevel::expectation; }
  std::string summary() const override {
    return "at least `min_transfers` transfers, all answered; the slowest within `max_ms`, the "
           "`percentile`-th (nearest rank) within `percentile_ms`";
  }
  std::vector<ValueSpec> params() const override;
  CheckResult evaluate(const CheckInput& input) const override;
};

}  // namespace conform

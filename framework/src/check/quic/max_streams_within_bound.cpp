// `max_streams_within_bound`: no stream limit an endpoint sends exceeds 2^60,
// in MAX_STREAMS (RFC 9000 §19.11), STREAMS_BLOCKED (§19.14) or the
// initial_max_streams_bidi/uni transport parameters (§18.2: MUST NOT), since
// larger counts give stream IDs that cannot be encoded (§4.6). The
// dissector rejects such values: the frame is kept as malformed, the
// transport parameters are noted as invalid. A limit in the transport
// parameters counts as one sent: §18.2 calls it "equivalent to sending a
// MAX_STREAMS ... with the same value". Judged at the sender's own captures.
#include "check/quic/support/blocked_sent.hpp"
#include "check/registrar.hpp"

#include <fmt/format.h>

namespace conform::quic_checks {
namespace {

bool stream_limit_frame(std::uint64_t type) { return type == 0x12 || type == 0x13 || type == 0x16 || type == 0x17; }

class MaxStreamsWithinBound final : public QuicCheck {
 public:
  std::string name() const override { return "max_streams_within_bound"; }
  std::string rfc() const override { return "RFC 9000 §4.6, §19.11, §19.14, §18.2"; }
  RequirementLevel level() const override { return RequirementLevel::must; }
  std::string summary() const override {
    return "every stream limit `by` sends (MAX_STREAMS, STREAMS_BLOCKED, initial_max_streams_*) is at most 2^60";
  }
  std::vector<ValueSpec> params() const override {
    return {side_param("by", "whose limits count", std::string("any"), true)};
  }

  CheckResult judge(const QuicRun& run, const CheckInput& input) const override {
    const auto by = value_or<std::string>(input.params, "by", "any");
    std::vector<std::string> problems;
    std::vector<Evidence> ev;
    std::uint64_t highest = 0;
    std::size_t frames = 0, parameters = 0;
    for (Side side : {Side::client, Side::server}) {
      if (by != "any" && by != to_string(side)) continue;
      for (const Judged& j : connections_of(run.at(side), run.vantage(side))) {
        const auto& s = j.connection->side(side);
        for (const auto& limits : {s.max_streams, s.streams_blocked})
          for (const auto& list : limits)
            for (const auto& l : list) {
              ++frames;
              highest = std::max(highest, l.value);
            }
        for (const auto& [at, bad] : s.malformed)
          if (bad.type && stream_limit_frame(*bad.type)) {
            problems.push_back(fmt::format("the {} sent frame type 0x{:x} at frame {} of {}: {}", to_string(side),
                                           *bad.type, at.frame, j.capture->file, bad.reason));
            ev.push_back(evidence(*j.capture, at, bad.reason));
          }
        if (const auto* p = j.connection->parameters(side))
          for (const auto& limit : {p->initial_max_streams_bidi, p->initial_max_streams_uni})
            if (limit) {
              ++parameters;
              highest = std::max(highest, *limit);
            }
        const std::string mine = fmt::format("{} transport parameters", to_string(side));
        for (const auto& note : j.connection->connection->notes)
          if (note.rfind(mine, 0) == 0 &&
              (note.find("parameter 0x08 ") != std::string::npos || note.find("parameter 0x09 ") != std::string::npos))
            problems.push_back(fmt::format("{}: {}", j.capture->file, note));
      }
    }
    if (frames == 0 && parameters == 0 && problems.empty())
      return not_exercised("no MAX_STREAMS or STREAMS_BLOCKED frame and no initial_max_streams_* in the transport "
                           "parameters the capture shows");
    return verdict(problems, ev,
                   fmt::format("{} stream limit frames and {} initial_max_streams_* parameters, the highest {}", frames,
                               parameters, highest));
  }
};

}  // namespace

}  // namespace conform::quic_checks

CONFORM_REGISTER_CHECK(max_streams_within_bound, quic_checks::MaxStreamsWithinBound)

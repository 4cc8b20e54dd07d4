// `connection_closed_with`: a side sent a CONNECTION_CLOSE of type 0x1c
// carrying a given transport error (say STREAM_LIMIT_ERROR after its peer
// opened a stream beyond the limit, RFC 9000 §4.6: MUST; §10.2, §19.19,
// §20.1), or with `frame = "application"` one of type 0x1d carrying an
// application error, named in HTTP/3's terms (H3_FRAME_UNEXPECTED, RFC 9114
// §8.1). Judged at each sender's own captures.
#include "check/quic/support/blocked_sent.hpp"
#include "check/quic/support/transport_closes.hpp"
#include "check/registrar.hpp"
#include "dissect/frames.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace conform::quic_checks {
namespace {

std::string trimmed(const std::string& s) {
  const auto first = s.find_first_not_of(' ');
  if (first == std::string::npos) return {};
  return s.substr(first, s.find_last_not_of(' ') - first + 1);
}

CloseKind kind_of(const ValueMap& params) {
  return value_or<std::string>(params, "frame", "transport") == "application" ? CloseKind::application
                                                                               : CloseKind::transport;
}

// The codes `spec` allows, alternatives separated by |; nullopt with
// `problem` set when one is empty or neither a name nor a number.
std::optional<std::vector<std::pair<std::uint64_t, std::uint64_t>>> error_ranges(const std::string& spec, CloseKind kind,
                                                                                 std::string& problem) {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges;
  for (std::size_t from = 0; from <= spec.size();) {
    const std::size_t bar = std::min(spec.find('|', from), spec.size());
    const std::string one = trimmed(spec.substr(from, bar - from));
    const auto range = error_range(one, kind);
    if (!range) {
      problem = one.empty() ? fmt::format("error \"{}\" has an empty alternative", spec)
                            : fmt::format("error \"{}\" is neither an {} name nor a number", one,
                                          kind == CloseKind::transport ? "RFC 9000 §20.1" : "RFC 9114 §8.1");
      return std::nullopt;
    }
    ranges.push_back(*range);
    from = bar + 1;
  }
  return ranges;
}

// `violation`: what the peer did wrong as a packet of its shows it, a
// frame type (an RFC 9000 §19 name or a number), reserved_bits or no_frames.
// A frame type written as a number ("62", "0x3e").
std::optional<std::pair<std::uint64_t, std::uint64_t>> frame_type_number(const std::string& what) {
  if (what.empty() || what[0] < '0' || what[0] > '9') return std::nullopt;
  return error_range(what);  // a number reads as a one-code range
}

bool known_violation(const std::string& what) {
  if (what == "reserved_bits" || what == "no_frames") return true;
  const auto& names = dissect::frame_names();
  return std::find(names.begin(), names.end(), what) != names.end() || frame_type_number(what).has_value();
}

bool shows(const dissect::Packet& p, const std::string& what) {
  if (what == "reserved_bits") return p.reserved_bits != 0;
  if (what == "no_frames") {  // the dissector reads an empty payload as one malformed frame of 0 bytes
    const auto* m = p.frames.size() == 1 ? std::get_if<dissect::MalformedFrame>(&p.frames[0]) : nullptr;
    return p.decrypted() && (p.frames.empty() || (m && !m->type && m->remaining == 0));
  }
  const auto number = frame_type_number(what);
  return std::any_of(p.frames.begin(), p.frames.end(), [&](const dissect::Frame& f) {
    return number ? dissect::frame_type(f) == number->first : dissect::frame_name(f) == what;
  });
}

// The last datagram of `sender` in `j` before `before` (a datagram index)
// with a packet that shows `what`: scanned back from `before`, stopping at
// the first found, which is the one the evidence names.
std::optional<std::size_t> violation_in(const Judged& j, Side sender, const std::string& what, std::size_t before) {
  const auto& datagrams = j.connection->connection->datagrams;
  const auto direction = sender == Side::client ? dissect::Direction::client_to_server
                                                : dissect::Direction::server_to_client;
  for (std::size_t i = std::min(before, datagrams.size()); i-- > 0;)
    if (datagrams[i].direction == direction &&
        std::any_of(datagrams[i].packets.begin(), datagrams[i].packets.end(),
                    [&](const dissect::Packet& p) { return shows(p, what); }))
      return i;
  return std::nullopt;
}

class ConnectionClosedWith final : public QuicCheck {
 public:
  std::string name() const override { return "connection_closed_with"; }
  std::string rfc() const override { return "RFC 9000 §10.2, §19.19, §20.1; RFC 9114 §8.1"; }
  RequirementLevel level() const override { return RequirementLevel::must; }
  std::string summary() const override {
    return "`by` sent a CONNECTION_CLOSE carrying `error`: a transport one (0x1c), or with `frame` application an "
           "application one (0x1d)";
  }
  std::vector<ValueSpec> params() const override {
    return {side_param("by", "who must have closed", std::string("any"), true),
            {"error", ValueType::string, std::nullopt,
             "a transport error name of RFC 9000 §20.1 (STREAM_LIMIT_ERROR), CRYPTO_ERROR, or a code (4, 0x104); "
             "with `frame` application, an HTTP/3 error name of RFC 9114 §8.1 (H3_FRAME_UNEXPECTED) or a code; "
             "where the RFC allows several, each, separated by | (STREAM_LIMIT_ERROR|FRAME_ENCODING_ERROR)"},
            {"frame", ValueType::string, Value{std::string("transport")},
             "which CONNECTION_CLOSE: transport (0x1c) or application (0x1d)", {"transport", "application"}},
            {"violation", ValueType::string, Value{std::string()},
             "what the peer did wrong, as a packet of its shows it: a frame type (an RFC 9000 §19 name, HANDSHAKE_DONE, "
             "or a number, 0x3e), reserved_bits or no_frames; the last such packet before the close is named in the "
             "evidence, and a capture without one is NOT EXERCISED; empty: not looked for"}};
  }

  std::vector<ScenarioParam> scenario_params() const override { return {{"error", ScenarioPart::induced_fault}}; }

  std::optional<ParamProblem> param_problem(const ValueMap& params) const override {
    std::string problem;
    if (!error_ranges(value_or<std::string>(params, "error", ""), kind_of(params), problem))
      return ParamProblem{"error", problem};
    if (const auto what = value_or<std::string>(params, "violation", ""); !what.empty() && !known_violation(what))
      return ParamProblem{"violation", fmt::format("violation \"{}\" is neither an RFC 9000 §19 frame name, a number, "
                                                   "reserved_bits nor no_frames", what)};
    return std::nullopt;
  }

  CheckResult judge(const QuicRun& run, const CheckInput& input) const override {
    const auto by = value_or<std::string>(input.params, "by", "any");
    const auto spec = value_or<std::string>(input.params, "error", "");
    const CloseKind kind = kind_of(input.params);
    const char* what = kind == CloseKind::transport ? "transport" : "application";
    std::string problem;
    const auto ranges = error_ranges(spec, kind, problem);
    if (!ranges) return {Verdict::fail, problem, {}};
    CheckResult r;
    std::vector<std::string> seen;
    std::string found;
    const auto violation = value_or<std::string>(input.params, "violation", "");
    std::vector<Evidence> violations;
    // The peer's packet that broke the rule, the last before the close.
    auto note_violation = [&](const Judged& j, Side side, std::size_t before) {
      if (violation.empty()) return;
      const Side peer = dissect::other(side);
      if (const auto i = violation_in(j, peer, violation, before))
        violations.push_back(evidence(*j.capture, j.connection->at(*i),
                                      fmt::format("the violation, {} from the {}", violation, to_string(peer))));
    };
    for_each_close(run, by, [&](const Judged& j, Side side, const CloseSeen& c) {
      if (r.verdict != Verdict::pass) note_violation(j, side, c.at.datagram);
      const bool match = std::any_of(ranges->begin(), ranges->end(), [&](const auto& range) {
        return c.frame.error_code >= range.first && c.frame.error_code <= range.second;
      });
      seen.push_back(fmt::format("{} {} at frame {}", to_string(side), error_name(c.frame.error_code, kind), c.at.frame));
      if (match && r.verdict != Verdict::pass) {
        r.verdict = Verdict::pass;
        found = seen.back();
        r.evidence.push_back(evidence(*j.capture, c.at,
                                      fmt::format("CONNECTION_CLOSE {} from the {}{}", error_name(c.frame.error_code, kind),
                                                  to_string(side),
                                                  c.frame.reason.empty() ? "" : ": \"" + c.frame.reason + "\"")));
      }
    }, kind);
    if (!violation.empty() && r.verdict != Verdict::pass) {
      // No close with the code: the violation anywhere in the capture.
      violations.clear();
      for (Side side : sides(by))
        for (const Judged& j : connections_of(run.at(side), run.vantage(side)))
          note_violation(j, side, j.connection->connection->datagrams.size());
      if (violations.empty())
        return {Verdict::not_exercised,
                fmt::format("no packet from {} shows {}: the violation is not in the capture",
                            by == "client" ? "the server" : by == "server" ? "the client" : "either side", violation),
                {}};
    }
    if (!violations.empty()) r.evidence.insert(r.evidence.begin(), violations.back());
    r.summary = r.verdict == Verdict::pass ? fmt::format("CONNECTION_CLOSE {}: the {}", spec, found)
                         : fmt::format("no CONNECTION_CLOSE with {} from {}; {} closes seen: {}", spec, by, what,
                                       seen.empty() ? std::string("none") : fmt::format("{}", fmt::join(seen, ", ")));
    return r;
  }
};

}  // namespace
}  // namespace conform::quic_checks

CONFORM_REGISTER_CHECK(connection_closed_with, quic_checks::ConnectionClosedWith)

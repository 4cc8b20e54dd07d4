// The CONNECTION_CLOSE checks (RFC 9000 §10.2, §19.19, §20.1):
// `connection_closed_with` passes when a side sent a CONNECTION_CLOSE of
// type 0x1c carrying a given transport error (say STREAM_LIMIT_ERROR after
// its peer opened a stream beyond the limit, §4.6: MUST);
// `no_connection_error` when no side sent one with any transport error
// other than NO_ERROR. Judged at each sender's own captures.
#include "check/quic/blocked_sent.hpp"
#include "check/quic/catalogue.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <array>
#include <charconv>
#include <optional>
#include <utility>

namespace conform::quic_checks {
namespace {

// RFC 9000 §20.1 and RFC 9001 §4.8 (CRYPTO_ERROR is 0x0100-0x01ff).
constexpr std::array<std::pair<std::string_view, std::uint64_t>, 17> kErrors{{
    {"NO_ERROR", 0x00}, {"INTERNAL_ERROR", 0x01}, {"CONNECTION_REFUSED", 0x02},
    {"FLOW_CONTROL_ERROR", 0x03}, {"STREAM_LIMIT_ERROR", 0x04}, {"STREAM_STATE_ERROR", 0x05},
    {"FINAL_SIZE_ERROR", 0x06}, {"FRAME_ENCODING_ERROR", 0x07}, {"TRANSPORT_PARAMETER_ERROR", 0x08},
    {"CONNECTION_ID_LIMIT_ERROR", 0x09}, {"PROTOCOL_VIOLATION", 0x0a}, {"INVALID_TOKEN", 0x0b},
    {"APPLICATION_ERROR", 0x0c}, {"CRYPTO_BUFFER_EXCEEDED", 0x0d}, {"KEY_UPDATE_ERROR", 0x0e},
    {"AEAD_LIMIT_REACHED", 0x0f}, {"NO_VIABLE_PATH", 0x10},
}};

std::string error_name(std::uint64_t code) {
  for (const auto& [name, value] : kErrors)
    if (value == code) return std::string(name);
  if (code >= 0x100 && code <= 0x1ff) return fmt::format("CRYPTO_ERROR(0x{:x})", code);
  return fmt::format("0x{:x}", code);
}

// The codes `spec` names: an error name, "CRYPTO_ERROR" (any TLS alert), or
// a number ("4", "0x104").
std::optional<std::pair<std::uint64_t, std::uint64_t>> error_range(const std::string& spec) {
  for (const auto& [name, value] : kErrors)
    if (spec == name) return std::pair{value, value};
  if (spec == "CRYPTO_ERROR") return std::pair{std::uint64_t{0x100}, std::uint64_t{0x1ff}};
  const bool hex = spec.rfind("0x", 0) == 0;
  std::uint64_t v = 0;
  const char* first = spec.data() + (hex ? 2 : 0);
  auto [end, ec] = std::from_chars(first, spec.data() + spec.size(), v, hex ? 16 : 10);
  if (ec != std::errc() || end != spec.data() + spec.size() || first == end) return std::nullopt;
  return std::pair{v, v};
}

std::vector<Side> sides(const std::string& by) {
  if (by == "client") return {Side::client};
  if (by == "server") return {Side::server};
  return {Side::client, Side::server};
}

// The transport CONNECTION_CLOSE frames each side sent, at its own captures.
template <typename F>
void for_each_close(const QuicRun& run, const std::string& by, F&& f) {
  for (Side side : sides(by))
    for (const Judged& j : connections_of(run.at(side)))
      for (const auto& c : j.connection->side(side).closes)
        if (!c.frame.application) f(j, side, c);
}

class ConnectionClosedWith final : public QuicCheck {
 public:
  std::string name() const override { return "connection_closed_with"; }
  std::string rfc() const override { return "RFC 9000 §10.2, §19.19, §20.1"; }
  std::string summary() const override {
    return "`by` sent a CONNECTION_CLOSE (transport, 0x1c) carrying `error`";
  }
  std::vector<ValueSpec> params() const override {
    return {side_param("by", "who must have closed", std::string("any"), true),
            {"error", ValueType::string, std::nullopt,
             "a transport error name of RFC 9000 §20.1 (STREAM_LIMIT_ERROR), CRYPTO_ERROR, or a code (4, 0x104)"}};
  }

  CheckResult judge(const QuicRun& run, const CheckInput& input) const override {
    const auto by = value_or<std::string>(input.params, "by", "any");
    const auto spec = value_or<std::string>(input.params, "error", "");
    const auto range = error_range(spec);
    if (!range) return {Verdict::fail, fmt::format("error \"{}\" is neither an RFC 9000 §20.1 name nor a number", spec), {}};
    CheckResult r;
    std::vector<std::string> seen;
    std::string found;
    for_each_close(run, by, [&](const Judged& j, Side side, const CloseSeen& c) {
      const bool match = c.frame.error_code >= range->first && c.frame.error_code <= range->second;
      seen.push_back(fmt::format("{} {} at frame {}", to_string(side), error_name(c.frame.error_code), c.at.frame));
      if (match && r.verdict != Verdict::pass) {
        r.verdict = pass_if(true);
        found = seen.back();
        r.evidence.push_back(evidence(*j.capture, c.at,
                                      fmt::format("CONNECTION_CLOSE {} from the {}{}", error_name(c.frame.error_code),
                                                  to_string(side),
                                                  c.frame.reason.empty() ? "" : ": \"" + c.frame.reason + "\"")));
      }
    });
    r.summary = r.verdict == Verdict::pass ? fmt::format("CONNECTION_CLOSE {}: the {}", spec, found)
                         : fmt::format("no CONNECTION_CLOSE with {} from {}; transport closes seen: {}", spec, by,
                                       seen.empty() ? std::string("none") : fmt::format("{}", fmt::join(seen, ", ")));
    return r;
  }
};

class NoConnectionError final : public QuicCheck {
 public:
  std::string name() const override { return "no_connection_error"; }
  std::string rfc() const override { return "RFC 9000 §10.2, §20.1"; }
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
    for (Side side : sides(by)) connections += connections_of(run.at(side)).size();
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

std::unique_ptr<Check> make_connection_closed_with() { return std::make_unique<ConnectionClosedWith>(); }
std::unique_ptr<Check> make_no_connection_error() { return std::make_unique<NoConnectionError>(); }

}  // namespace conform::quic_checks

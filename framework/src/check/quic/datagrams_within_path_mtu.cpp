// `datagrams_within_path_mtu`: no endpoint sends a UDP datagram larger than
// the path carries or than its peer accepts (RFC 9000 §14: datagrams MUST
// NOT be fragmented; §14.2-§14.3: path MTU; §18.2: max_udp_payload_size is
// the largest payload the peer is willing to receive). The bound: `max_bytes`,
// else the case's network `mtu` (default 1500, the simulator's) less the IP
// and UDP headers, and never above the peer's max_udp_payload_size. Judged
// at each sender's own captures (GSO batches split into their datagrams).
#include "check/quic/support/blocked_sent.hpp"
#include "check/registrar.hpp"

#include <fmt/format.h>

namespace conform::quic_checks {
namespace {

class DatagramsWithinPathMtu final : public QuicCheck {
 public:
  KeysNeeded keys_needed() const override { return KeysNeeded::handshake; }
  std::string name() const override { return "datagrams_within_path_mtu"; }
  std::string rfc() const override { return "RFC 9000 §14, §14.2-§14.3, §18.2 (MUST)"; }
  RequirementLevel level() const override { return RequirementLevel::must; }
  std::string summary() const override {
    return "no datagram `by` sends is larger than the path MTU less IP/UDP headers, or than the peer's "
           "max_udp_payload_size";
  }
  std::vector<ValueSpec> params() const override {
    return {side_param("by", "whose datagrams count", std::string("any"), true),
            {"max_bytes", ValueType::integer, Value{std::int64_t{-1}},
             "largest UDP payload allowed, bytes; -1: the case's network mtu (default 1500; server_mtu or client_mtu "
             "for that side's datagrams where set) less 28 (IPv4) or 48 (IPv6) bytes of headers",
             {}, -1}};
  }

  std::vector<ScenarioParam> scenario_params() const override { return {{"max_bytes", ScenarioPart::simulated_path}}; }

  CheckResult judge(const QuicRun& run, const CheckInput& input) const override {
    const auto by = value_or<std::string>(input.params, "by", "any");
    const auto fixed = value_or<std::int64_t>(input.params, "max_bytes", -1);
    std::vector<std::pair<std::string, CheckResult>> parts;
    for (Side side : {Side::client, Side::server}) {
      if (by != "any" && by != to_string(side)) continue;
      // The path `side` sends on: `server_mtu` or `client_mtu` where the
      // case sets that direction apart, else `mtu`.
      std::int64_t mtu = 1500;
      std::string source = "default network mtu 1500";
      for (const std::string& key : {std::string("mtu"), std::string(to_string(side)) + "_mtu"})
        if (auto it = input.settings.network.find(key); it != input.settings.network.end())
          if (const auto* v = std::get_if<std::int64_t>(&it->second)) {
            mtu = *v;
            source = fmt::format("network {} {}", key, mtu);
          }
      const auto captures = run.at(side);
      if (captures.empty() && by != "any") return missing_captures(side);
      for (const Judged& j : connections_of(captures, run.vantage(side)))
        parts.emplace_back(label(j), judge_one(j, side, fixed, mtu, source));
    }
    if (parts.empty()) return {Verdict::fail, "no QUIC connection in the captures", {}};
    return combine(parts);
  }

 private:
  static CheckResult judge_one(const Judged& j, Side side, std::int64_t fixed, std::int64_t mtu, const std::string& source) {
    const auto& c = *j.connection->connection;
    const auto* peer = j.connection->parameters(dissect::other(side));
    std::vector<std::string> problems;
    std::vector<Evidence> ev;
    std::size_t largest = 0, count = 0;
    std::uint64_t bound_seen = 0;
    for (std::size_t i = 0; i < c.datagrams.size(); ++i) {
      const auto& d = c.datagrams[i];
      if (sender_of(d) != side) continue;
      std::uint64_t bound = fixed >= 0 ? std::uint64_t(fixed) : std::uint64_t(std::max<std::int64_t>(0, mtu - (d.from.ipv6 ? 48 : 28)));
      if (peer && peer->max_udp_payload_size) bound = std::min(bound, *peer->max_udp_payload_size);
      bound_seen = bound;
      ++count;
      largest = std::max(largest, d.size);
      if (d.size <= bound) continue;
      problems.push_back(fmt::format("frame {} ({}): a datagram of {} bytes, above {}", d.frame, ms(d.time_ns), d.size, bound));
      ev.push_back(evidence(*j.capture, {d.frame, d.time_ns, i}, fmt::format("{} bytes > {}", d.size, bound)));
    }
    const std::string limit = fmt::format("{} bytes ({}{})", bound_seen, fixed >= 0 ? "parameter max_bytes" : source,
                                          peer && peer->max_udp_payload_size
                                              ? fmt::format(", peer max_udp_payload_size {}", *peer->max_udp_payload_size)
                                              : "");
    if (!problems.empty()) problems.front() += " (limit " + limit + ")";
    if (count == 0) return not_exercised(fmt::format("the {} sent no datagram", to_string(side)));
    return verdict(problems, ev, fmt::format("{} datagrams, the largest {} bytes (limit {})", count, largest, limit));
  }
};

}  // namespace

}  // namespace conform::quic_checks

CONFORM_REGISTER_CHECK(datagrams_within_path_mtu, quic_checks::DatagramsWithinPathMtu)

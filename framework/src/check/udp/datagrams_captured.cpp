// `datagrams_captured`: counts the UDP datagrams in one vantage point's capture.
#include "check/udp/datagrams_captured.hpp"
#include "check/registrar.hpp"

#include "capture/pcap_reader.hpp"
#include "check/quic/support/quic_check.hpp"
#include "common/input_error.hpp"

#include <fmt/format.h>

#include <filesystem>

namespace conform {

std::vector<ValueSpec> DatagramsCaptured::params() const {
  return {
      {"vantage", ValueType::string, std::nullopt, "whose capture", {"client", "server"}},
      {"from", ValueType::string, Value{std::string("any")},
       "count only datagrams sent from this side's address (127.0.0.1, 127.0.0.2)",
       {"any", "client", "server"}},
      {"min", ValueType::integer, Value{std::int64_t{1}}, "fewest datagrams required", {}, 0},
      {"max", ValueType::integer, Value{std::int64_t{-1}}, "most datagrams allowed; -1: no limit", {}, -1},
  };
}

namespace {

using dissect::Side;

// A captured datagram as counted: its record, and who sent it (nullopt: neither side's address).
struct Seen {
  std::uint64_t frame = 0;
  std::int64_t time_ns = 0;
  std::optional<Side> from;
};

// The datagrams of the capture at `path`, told apart by conform's
// addresses; or, from `conform check`, those of its unit's connection
// (one record each, however many GSO segments it held), told apart by
// their direction.
std::vector<Seen> seen_datagrams(const CheckInput& input, const std::string& path) {
  std::vector<Seen> out;
  if (const auto* prepared = dynamic_cast<const quic_checks::QuicCaptures*>(input.prepared)) {
    for (const auto& c : prepared->server->timeline.connections)
      for (const auto& d : c.datagrams)
        if (out.empty() || out.back().frame != d.frame)
          out.push_back({d.frame, d.time_ns,
                         d.direction == dissect::Direction::client_to_server ? Side::client : Side::server});
    return out;
  }
  for (const auto& d : read_udp_datagrams(path)) {
    std::optional<Side> from;
    if (d.from.address == kClientAddress) from = Side::client;
    if (d.from.address == kServerAddress) from = Side::server;
    out.push_back({d.frame, d.time_ns, from});
  }
  return out;
}

}  // namespace

CheckResult DatagramsCaptured::evaluate(const CheckInput& input) const {
  const auto vantage = value_or<std::string>(input.params, "vantage", "client");
  const auto from = value_or<std::string>(input.params, "from", "any");
  const auto min = value_or<std::int64_t>(input.params, "min", 1);
  const auto max = value_or<std::int64_t>(input.params, "max", -1);
  const std::string file = vantage + ".pcap";
  const auto path = std::filesystem::path(input.artifact_dir) / file;

  CheckResult result;
  std::vector<Seen> datagrams;
  try {
    datagrams = seen_datagrams(input, path.string());
  } catch (const InputError& e) {
    result.summary = fmt::format("{}: {}", file, e.diagnostics().front().message);
    return result;
  }
  std::int64_t count = 0;
  const Seen* first = nullptr;
  const Seen* last = nullptr;
  for (const auto& d : datagrams) {
    bool counted = from == "any" || (from == "client" && d.from == Side::client) ||
                   (from == "server" && d.from == Side::server);
    if (!counted) continue;
    ++count;
    if (!first) first = &d;
    last = &d;
  }
  result.verdict = pass_if(count >= min && (max < 0 || count <= max));
  const std::string bound = max < 0 ? fmt::format(">= {}", min) : fmt::format("{}..{}", min, max);
  result.summary = fmt::format("{} holds {} datagrams from {} (required {})", file, count, from, bound);
  if (first) result.evidence.push_back({file, first->frame, first->time_ns, "first counted datagram"});
  if (last && last != first)
    result.evidence.push_back({file, last->frame, last->time_ns, "last counted datagram"});
  if (!first) result.evidence.push_back({file, 0, -1, fmt::format("{} datagrams in the file, none from {}", datagrams.size(), from)});
  return result;
}

}  // namespace conform

CONFORM_REGISTER_CHECK(datagrams_captured, DatagramsCaptured)

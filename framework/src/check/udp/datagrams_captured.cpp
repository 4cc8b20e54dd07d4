// `datagrams_captured`: counts the UDP datagrams in one vantage point's capture.
#include "check/udp/datagrams_captured.hpp"
#include "check/registrar.hpp"

#include "capture/pcap_reader.hpp"
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

CheckResult DatagramsCaptured::evaluate(const CheckInput& input) const {
  const auto vantage = value_or<std::string>(input.params, "vantage", "client");
  const auto from = value_or<std::string>(input.params, "from", "any");
  const auto min = value_or<std::int64_t>(input.params, "min", 1);
  const auto max = value_or<std::int64_t>(input.params, "max", -1);
  const std::string file = vantage + ".pcap";
  const auto path = std::filesystem::path(input.artifact_dir) / file;

  CheckResult result;
  std::vector<CapturedDatagram> datagrams;
  try {
    datagrams = read_udp_datagrams(path.string());
  } catch (const InputError& e) {
    result.summary = fmt::format("{}: {}", file, e.diagnostics().front().message);
    return result;
  }
  std::int64_t count = 0;
  const CapturedDatagram* first = nullptr;
  const CapturedDatagram* last = nullptr;
  for (const auto& d : datagrams) {
    bool counted = from == "any" || (from == "client" && d.from.address == kClientAddress) ||
                   (from == "server" && d.from.address == kServerAddress);
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

// Demand from the capture, the check's parameters and the run's scenario.
#include "check/quic/support/demand.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>

namespace conform::quic_checks {
namespace {

std::optional<Expected> declared(const CaseSettings& settings, const std::optional<DemandValue>& v) {
  if (!v) return std::nullopt;
  return Expected{v->value, "scenario " + v->source, !settings.demand->across_connections};
}

const SideDemand* side_demand(const CaseSettings& settings, Side from) {
  if (!settings.demand) return nullptr;
  return from == Side::client ? &settings.demand->client : &settings.demand->server;
}

// Whether `j` is the connection its side opened last (the latest first
// datagram; the first of equals in capture order).
bool opened_last(const Judged& j) {
  const std::int64_t start = j.connection->at(0).time_ns;
  return std::none_of(j.beside.begin(), j.beside.end(),
                      [&](const ConnectionFacts* other) { return other->at(0).time_ns > start; });
}

// `total` for the connection `j` when the scenario's amounts are over all
// of a side's connections. A side that opens another connection has found
// somewhere else to open its streams, so it is no longer "unable to do so
// due to the maximum stream limit" (RFC 9000 §4.6) on the earlier one: what
// it never sent is wished for on the connection it opened last, and of
// each earlier one only the capture tells (Firefox spreads a page over two or
// three connections, a different number each run).
std::optional<Expected> on_connection(const CaseSettings& settings, std::optional<Expected> total, const Judged& j,
                                      const std::function<std::uint64_t(const ConnectionFacts&)>& amount) {
  if (!total || !settings.demand || !settings.demand->across_connections || j.beside.empty()) return total;
  if (!opened_last(j)) return std::nullopt;
  std::uint64_t elsewhere = 0;
  for (const ConnectionFacts* other : j.beside) elsewhere += amount(*other);
  total->source += fmt::format(", less {} on {} other connection{}", elsewhere, j.beside.size(),
                               j.beside.size() == 1 ? "" : "s");
  total->value = total->value > elsewhere ? total->value - elsewhere : 0;
  return total;
}

}  // namespace

Demand demand(Demand seen, std::int64_t fixed, const std::string& param, const std::optional<Expected>& scenario) {
  const std::optional<Expected> more =
      fixed >= 0 ? std::optional<Expected>(Expected{std::uint64_t(fixed), "parameter " + param}) : scenario;
  seen.at_once = more && more->at_once;
  if (more && more->value > seen.wanted) return {more->value, more->source, more->at_once};
  return seen;
}

std::optional<Expected> expected_streams(const CaseSettings& settings, Side from, StreamDir dir, const Judged& j) {
  const SideDemand* d = side_demand(settings, from);
  if (!d) return std::nullopt;
  return on_connection(settings, declared(settings, dir == StreamDir::uni ? d->uni_streams : d->bidi_streams), j,
                       [&](const ConnectionFacts& c) { return c.side(from).opened[std::size_t(dir)].size(); });
}

std::optional<Expected> expected_bytes(const CaseSettings& settings, Side from, const Judged& j) {
  const SideDemand* d = side_demand(settings, from);
  if (!d) return std::nullopt;
  return on_connection(settings, declared(settings, d->bytes), j, [&](const ConnectionFacts& c) -> std::uint64_t {
    const auto& sent = c.side(from).data_sent;
    return sent.empty() ? 0 : sent.back().value;
  });
}

}  // namespace conform::quic_checks

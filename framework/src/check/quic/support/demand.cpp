// Demand from the capture, the check's parameters and the run's scenario.
#include "check/quic/support/demand.hpp"

namespace conform::quic_checks {
namespace {

std::optional<Expected> declared(const std::optional<DemandValue>& v) {
  if (!v) return std::nullopt;
  return Expected{v->value, "scenario " + v->source};
}

const SideDemand* side_demand(const CaseSettings& settings, Side from) {
  if (!settings.demand) return nullptr;
  return from == Side::client ? &settings.demand->client : &settings.demand->server;
}

}  // namespace

Demand demand(Demand seen, std::int64_t fixed, const std::string& param, const std::optional<Expected>& scenario) {
  const std::optional<Expected> more =
      fixed >= 0 ? std::optional<Expected>(Expected{std::uint64_t(fixed), "parameter " + param}) : scenario;
  if (more && more->value > seen.wanted) return {more->value, more->source};
  return seen;
}

std::optional<Expected> expected_streams(const CaseSettings& settings, Side from, StreamDir dir) {
  const SideDemand* d = side_demand(settings, from);
  if (!d) return std::nullopt;
  return declared(dir == StreamDir::uni ? d->uni_streams : d->bidi_streams);
}

std::optional<Expected> expected_bytes(const CaseSettings& settings, Side from) {
  const SideDemand* d = side_demand(settings, from);
  return d ? declared(d->bytes) : std::nullopt;
}

}  // namespace conform::quic_checks

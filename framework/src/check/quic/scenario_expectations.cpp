// Demand from scenario parameters.
#include "check/quic/scenario_expectations.hpp"

#include <fmt/format.h>

namespace conform::quic_checks {
namespace {

std::optional<std::int64_t> integer(const ValueMap& params, const std::string& name) {
  auto it = params.find(name);
  if (it == params.end()) return std::nullopt;
  if (const auto* v = std::get_if<std::int64_t>(&it->second); v && *v >= 0) return *v;
  return std::nullopt;
}

}  // namespace

Demand demand(Demand seen, std::int64_t fixed, const std::string& param, const std::optional<Expected>& scenario) {
  const std::optional<Expected> more =
      fixed >= 0 ? std::optional<Expected>(Expected{std::uint64_t(fixed), "parameter " + param}) : scenario;
  if (more && more->value > seen.wanted) return {more->value, more->source};
  return seen;
}

std::optional<Expected> expected_streams(const ValueMap& params, Side from, StreamDir dir) {
  if (from == Side::client && dir == StreamDir::uni)
    if (auto n = integer(params, "streams")) return Expected{std::uint64_t(*n), fmt::format("scenario streams={}", *n)};
  if (from == Side::client && dir == StreamDir::bidi)
    if (auto n = integer(params, "requests")) return Expected{std::uint64_t(*n), fmt::format("scenario requests={}", *n)};
  if (from == Side::server && dir == StreamDir::uni)
    if (auto frames = integer(params, "frames")) {
      const std::int64_t per_group = integer(params, "frames_per_group").value_or(1);
      const std::uint64_t groups = per_group == 0 ? 1 : std::uint64_t((*frames + per_group - 1) / per_group);
      return Expected{groups, fmt::format("scenario frames={} frames_per_group={}", *frames, per_group)};
    }
  return std::nullopt;
}

std::optional<Expected> expected_bytes(const ValueMap& params, Side from) {
  auto product = [&](const char* count, const char* size) -> std::optional<Expected> {
    auto n = integer(params, count), b = integer(params, size);
    if (!n || !b) return std::nullopt;
    return Expected{std::uint64_t(*n) * std::uint64_t(*b), fmt::format("scenario {}={} × {}={}", count, *n, size, *b)};
  };
  if (auto bytes = integer(params, "bytes")) {
    auto it = params.find("direction");
    const std::string direction = it != params.end() && std::holds_alternative<std::string>(it->second)
                                      ? std::get<std::string>(it->second)
                                      : "download";
    if (direction == "both" || (direction == "download") == (from == Side::server))
      return Expected{std::uint64_t(*bytes), fmt::format("scenario bytes={} direction={}", *bytes, direction)};
    return std::nullopt;
  }
  if (params.count("requests")) return product("requests", from == Side::client ? "request_bytes" : "response_bytes");
  if (from == Side::server && params.count("frames")) return product("frames", "payload_bytes");
  if (from == Side::client && params.count("streams")) return product("streams", "payload_bytes");
  return std::nullopt;
}

}  // namespace conform::quic_checks

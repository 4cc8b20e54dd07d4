// CONNECTION_CLOSE frames (RFC 9000 §10.2, §19.19) and the error codes they
// carry: a transport close's (§20.1; RFC 9001 §4.8 for CRYPTO_ERROR), an
// application close's in HTTP/3's terms (RFC 9114 §8.1), as
// connection_closed_with and no_connection_error read them.
#pragma once

#include "check/quic/support/quic_check.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace conform::quic_checks {

/// Which CONNECTION_CLOSE: transport (0x1c) or application (0x1d).
enum class CloseKind : std::uint8_t { transport, application };

/// "STREAM_LIMIT_ERROR", "CRYPTO_ERROR(0x12a)", "H3_FRAME_UNEXPECTED" (an
/// application code), or the code in hex.
std::string error_name(std::uint64_t code, CloseKind kind = CloseKind::transport);

/// The codes `spec` names, inclusive: an error name of `kind`, for a
/// transport close also "CRYPTO_ERROR" (any TLS alert), or a number ("4",
/// "0x104"); nullopt for anything else.
std::optional<std::pair<std::uint64_t, std::uint64_t>> error_range(const std::string& spec,
                                                                   CloseKind kind = CloseKind::transport);

/// The sides a `by` parameter ("client", "server", "any") names.
std::vector<Side> sides(const std::string& by);

// The CONNECTION_CLOSE frames of `kind` each side sent, at its own captures.
template <typename F>
void for_each_close(const QuicRun& run, const std::string& by, F&& f, CloseKind kind = CloseKind::transport) {
  for (Side side : sides(by))
    for (const Judged& j : connections_of(run.at(side), run.vantage(side)))
      for (const auto& c : j.connection->side(side).closes)
        if (c.frame.application == (kind == CloseKind::application)) f(j, side, c);
}

}  // namespace conform::quic_checks

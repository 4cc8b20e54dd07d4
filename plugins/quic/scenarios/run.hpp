// Playing one case of the QUIC plugin: the endpoints' Configs from the
// case's knobs and seed, a test certificate, the scenario's applications,
// and the simulated network run until every connection has closed.
#pragma once

#include <conform/plugin.hpp>

#include "connection/config.hpp"

namespace conform::quic {

/// The Config of each role before the per-client seed: the knobs of
/// `settings.knobs[role]` on a default Config, is_server set for "server".
/// Returns "" or one line naming the role and knob that cannot be used.
std::string role_config(const CaseSettings& settings, const std::string& role, Config& out);

/// Runs `ctx.settings()` to its end. completed: every connection closed
/// (connection errors included: the capture shows them, the checks judge);
/// timeout: the network's virtual-time budget ran out; error: the network
/// stalled or was misconfigured, or a connection or certificate could not be
/// made.
RunOutcome play(RunContext& ctx);

}  // namespace conform::quic

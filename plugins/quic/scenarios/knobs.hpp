// The QUIC plugin's knobs: the fields of quic::Config a suite may set per
// role (transport parameters of RFC 9000 §18.2 and the behaviours the
// mutants switch off, ARCHITECTURE.md principle 4), declared to the
// framework with types, defaults and docs, and mapped onto a Config by one
// table in knobs.cpp where each knob is one entry.
#pragma once

#include <conform/value.hpp>

#include <string>
#include <vector>

#include "connection/config.hpp"

namespace conform::quic {

/// The knobs as the framework sees them (PluginInfo::knobs). Defaults are
/// those of a default-constructed Config.
const std::vector<ValueSpec>& knob_specs();

/// The knobs of the quic plugin's own scenarios: knob_specs() less the
/// values only conform-quic's HTTP/3 plays (the HTTP/3 violations), so a
/// simulator case naming one is refused where it names it.
const std::vector<ValueSpec>& simulator_knob_specs();

/// Writes every knob of `values` (one role's knobs, as the runner resolved
/// them) into `config`. Knobs absent from `values` leave `config` as it is.
/// Returns an empty string, or one line naming the knob whose value the
/// framework's validator lets through but the QUIC core cannot use (an
/// integer out of its range, e.g. max_udp_payload_size below 1200).
std::string apply_knobs(const ValueMap& values, Config& config);

/// The command-line spelling of a knob (conform-quic's options, and the
/// external plugin's command lines for it): "--" and `knob` with '-' for
/// '_' (initial_max_streams_bidi: --initial-max-streams-bidi).
std::string knob_option(const std::string& knob);

/// The text of `value` on a command line: true|false, decimal integers,
/// floats to 17 significant digits, strings as they are, lists
/// comma-separated.
std::string knob_text(const Value& value);

}  // namespace conform::quic

// conform-quic's options for the knobs of the in-house QUIC: one option per
// entry of the knob table (scenarios/knobs.hpp), so the program takes every
// knob a suite can set, under the knob's name with '-' for '_'
// (initial_max_streams_bidi: --initial-max-streams-bidi), with the knob's
// type, bounds, default and description. This is what makes conform-quic a
// scripted peer of the external plugin (profile key `quic_knobs`).
#pragma once

#include <conform/value.hpp>

#include <CLI/CLI.hpp>

#include <string>

namespace conform::quic::tool {

/// Adds the knob options (knob_option(), read as knob_text() writes them)
/// to `cmd`; each one given is read into `values`
/// under the knob's name. A value the knob's spec refuses (wrong type, out
/// of bounds, not among its choices) is a CLI11 validation error naming the
/// option.
void add_knob_options(CLI::App& cmd, ValueMap& values);

}  // namespace conform::quic::tool

// The in-house QUIC as a scripted peer (issue 17): every knob of the quic
// plugin's table (plugins/quic/scenarios/knobs.hpp) is a knob of the
// external plugin too, so a case can set, say, `server = { implementation =
// "conform", emit_max_streams = false }` and pair that server with any
// client. A role whose profile says `quic_knobs = true` (conform-quic) gets
// each one the case sets as `--knob-name VALUE`; any other profile cannot
// play such a case, which is then UNSUPPORTED naming the knob. The knobs the
// external plugin declares itself (stream and data limits, idle timeout,
// certificate padding) reach every profile through its placeholders and are
// not repeated here.
#pragma once

#include "profile.hpp"

#include <conform/value.hpp>

#include <string>
#include <vector>

namespace external {

/// The quic plugin's knobs whose names are not in `own`, each described as
/// the in-house QUIC's only.
std::vector<conform::ValueSpec> in_house_knob_specs(const std::vector<conform::ValueSpec>& own);

/// What `role`'s program is given for the knobs of `in_house` that the case
/// sets to something other than their default (`knobs`: the role's knobs as
/// the runner resolved them, defaults included): `--knob-name VALUE` pairs
/// when `command.quic_knobs`. Otherwise empty, with `problem` naming the
/// first such knob and `profile`, which cannot play it.
std::vector<std::string> in_house_knob_args(const conform::ValueMap& knobs,
                                            const std::vector<conform::ValueSpec>& in_house,
                                            const RoleCommand& command, const std::string& profile,
                                            std::string& problem);

}  // namespace external

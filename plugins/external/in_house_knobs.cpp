// The quic plugin's knob table, offered through the external plugin.
#include "in_house_knobs.hpp"

#include "scenarios/knobs.hpp"

#include <algorithm>

namespace external {

std::vector<conform::ValueSpec> in_house_knob_specs(const std::vector<conform::ValueSpec>& own) {
  std::vector<conform::ValueSpec> out;
  for (conform::ValueSpec spec : conform::quic::knob_specs()) {
    const auto same_name = [&](const conform::ValueSpec& o) { return o.name == spec.name; };
    if (std::any_of(own.begin(), own.end(), same_name)) continue;
    spec.doc = "in-house QUIC only (a profile with quic_knobs, such as conform): " + spec.doc;
    out.push_back(std::move(spec));
  }
  return out;
}

std::vector<std::string> in_house_knob_args(const conform::ValueMap& knobs,
                                            const std::vector<conform::ValueSpec>& in_house,
                                            const RoleCommand& command, const std::string& profile,
                                            std::string& problem) {
  std::vector<std::string> args;
  for (const conform::ValueSpec& spec : in_house) {
    const auto it = knobs.find(spec.name);
    if (it == knobs.end() || (spec.default_value && it->second == *spec.default_value)) continue;
    if (!command.quic_knobs) {
      problem = "knob " + spec.name + " is the in-house QUIC's: profile '" + profile + "' cannot play it";
      return {};
    }
    args.push_back(conform::quic::knob_option(spec.name));
    args.push_back(conform::quic::knob_text(it->second));
  }
  return args;
}

}  // namespace external

// The in-house QUIC plugin: the sans-IO connection of quic_core playing the
// scenarios of plugins/quic/scenarios on the simulated network, with every
// field of quic::Config a suite may turn declared as a knob.
#include <conform/plugin_export.hpp>

#include "scenarios/knobs.hpp"
#include "scenarios/run.hpp"
#include "scenarios/scenario.hpp"

namespace {

using namespace conform;

class QuicPlugin final : public Plugin {
 public:
  QuicPlugin() {
    info_.name = "quic";
    info_.version = "0.2.0";
    info_.time_model = TimeModel::simulated;
    info_.roles = {"client", "server"};
    for (const quic::ScenarioEntry& e : quic::scenario_table()) info_.scenarios.push_back(e.spec);
    info_.knobs = quic::simulator_knob_specs();
    // Its fault knobs can break whatever it plays: every case proves its
    // checks able to fail.
    info_.mutants_required = true;
  }

  const PluginInfo& info() const override { return info_; }

  RunOutcome run(RunContext& ctx) override {
    try {
      return quic::play(ctx);
    } catch (const std::exception& e) {
      return {RunOutcome::Status::error, std::string("quic: ") + e.what()};
    }
  }

 private:
  PluginInfo info_;
};

}  // namespace

CONFORM_PLUGIN(QuicPlugin)

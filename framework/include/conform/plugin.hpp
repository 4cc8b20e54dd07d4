// The plugin API: what a transport plugin declares and the one call that runs
// a case. A plugin is a MODULE library exporting, through Boost.DLL, a factory
// and the ABI version it was built against (CONFORM_PLUGIN, plugin_export.hpp).
#pragma once

#include <conform/run_context.hpp>
#include <conform/value.hpp>

#include <memory>
#include <string>
#include <vector>

namespace conform {

/// Bumped whenever a type in framework/include/conform changes layout or
/// meaning; the loader refuses a plugin built against another version.
/// 2: RunContext::network() and relay(), RunOutcome::Status::timeout.
/// 3: RunContext::adopt_capture.
/// 4: PluginInfo::problems.
/// 5: ValueSpec::min and max.
/// 6: ScenarioSpec::demand, CaseSettings::demand.
/// 7: ValueSpec::range (bounds of floats); CONFORM_PLUGIN in plugin_export.hpp.
/// 9: PluginInfo::stop_grace_ms and mutants_required, RunContext::stop_requested.
/// 10: ValueSpec::value_labels, LoopbackRelay::drain.
inline constexpr std::uint32_t kAbiVersion = 10;

/// Whether a plugin's runs advance a virtual clock (repeatable to the
/// nanosecond) or run on the wall clock with real sockets.
enum class TimeModel { simulated, real };

/// "simulated" or "real".
inline const char* to_string(TimeModel m) { return m == TimeModel::simulated ? "simulated" : "real"; }

/// Something wrong in a file a plugin reads to describe itself (the external
/// plugin's profiles): where, and what. Line and column count from 1, 0 when
/// unknown.
///
/// Which cases it refuses: with `knob` empty, every case naming the plugin;
/// else only a case where some role's `knob` takes `value` (the external
/// plugin's profile of that name), and no case at all when `value` is empty
/// (a profile whose name could not be read: a case naming it is refused as
/// naming no profile). A problem that refuses no case is a warning.
struct PluginProblem {
  std::string file;
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  std::string message;
  std::string knob;
  std::string value;
};

/// What a run of a scenario asks for, from the run's parameters (every
/// parameter of the scenario, defaults filled in, values within their
/// specs). The framework calls it before each run; it must not throw.
using DemandFunction = RunDemand (*)(const ValueMap& params);

/// A workload a plugin can play, with the parameters a case's `params` sets.
struct ScenarioSpec {
  std::string name;
  std::string summary;
  std::vector<ValueSpec> params;
  /// What each run asks for; nullptr when the scenario declares nothing
  /// (checks then judge from what the captures show). Since ABI version 6.
  DemandFunction demand = nullptr;
};

/// Everything a plugin declares; the suite validator checks cases against it.
struct PluginInfo {
  std::string name;
  std::string version;
  TimeModel time_model = TimeModel::simulated;
  std::vector<ScenarioSpec> scenarios;
  /// Knobs of an endpoint; a case sets them per role (`client = {...}`).
  std::vector<ValueSpec> knobs;
  /// Roles whose knobs a case may set ("client", "server", ...). A case that
  /// sets knobs of a well-known role the plugin does not play is unsupported.
  std::vector<std::string> roles;
  /// What is wrong with the plugin's own configuration files. A suite that
  /// names a plugin with problems is refused before anything runs (exit 2,
  /// one `file:line:col: message` line each). Since ABI version 4.
  std::vector<PluginProblem> problems;
  /// How long a run of this plugin may take to end when conform stops it
  /// early (Ctrl-C, or past its time limit), in ms: conform sends the run's
  /// process SIGTERM, RunContext::stop_requested() turns true, and the plugin
  /// stops and reaps the programs it started and removes its throwaway
  /// files; the run's whole process group is killed (SIGKILL) when it is
  /// over, or after this long. 0 (the default): killed at once, for a plugin
  /// with nothing outside its own process. Since ABI version 9.
  std::uint32_t stop_grace_ms = 0;
  /// Whether every case of this plugin must prove its checks able to fail:
  /// a [[case.mutant]] whose knobs break what the case shows, or
  /// `no_mutant = "why"` (the loader refuses a case with neither). For a
  /// plugin whose knobs can break any behaviour it plays (the in-house
  /// QUIC). Since ABI version 9.
  bool mutants_required = false;
};

/// The end of one run, as the plugin saw it. Pass or fail is never decided
/// here: checks judge the captures afterwards.
struct RunOutcome {
  enum class Status {
    /// The scenario ran to its end; its captures are complete.
    completed,
    /// The plugin cannot run this case here (reason says why: a missing
    /// program, no capture privilege); reported UNSUPPORTED, not failed.
    unsupported,
    /// The plugin could not carry the scenario out (reason says why).
    error,
    /// The scenario did not end within its budget (for a simulated run, the
    /// network's virtual-time budget); reported TIMEOUT.
    timeout,
  };
  Status status = Status::completed;
  std::string reason;
};

/// A transport plugin. Implementations must not throw out of these calls.
class Plugin {
 public:
  virtual ~Plugin() = default;
  virtual const PluginInfo& info() const = 0;
  /// Runs `ctx.settings()` to the end of its scenario, writing captures and
  /// key material through `ctx`. Called in a child process of its own.
  virtual RunOutcome run(RunContext& ctx) = 0;
};

/// The factory signature a plugin exports under the name `conform_create_plugin`.
using PluginFactory = std::unique_ptr<Plugin>();

}  // namespace conform

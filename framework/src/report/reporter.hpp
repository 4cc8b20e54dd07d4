// What every report shares besides the run's event stream
// (run/run_events.hpp): the command that replays a case.
#pragma once

#include "run/run_events.hpp"

#include <string>

namespace conform {

/// `conform run <suite file> [replay args] --seed S --filter 'ID'`, quoted for a POSIX shell.
std::string replay_command(const RunPlan& plan, const CaseResult& result);

/// `s` quoted for a POSIX shell when it needs it.
std::string shell_quote(const std::string& s);

}  // namespace conform

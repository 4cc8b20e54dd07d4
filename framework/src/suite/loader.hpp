// Loading suites: finding the TOML files, parsing them with tomlplusplus and
// validating every case against the plugins' declarations and the check
// catalogue before anything runs.
#pragma once

#include "check/registry.hpp"
#include "suite/model.hpp"

#include <conform/plugin.hpp>

#include <memory>
#include <string>
#include <vector>

namespace conform {

/// What suites are validated against.
struct Catalogue {
  std::vector<const PluginInfo*> plugins;
  const CheckRegistry* checks = nullptr;
  /// The keys a `network` table may hold.
  const std::vector<ValueSpec>* network = nullptr;
  /// For `conform check`, which runs no case and no mutant: a plugin's
  /// mutants_required does not apply.
  bool offline = false;
};

/// The `*.toml` files named by `paths`: files as given, folders searched
/// recursively, each folder's files in name order. Throws InputError for a
/// path that does not exist or a folder without suite files.
std::vector<std::string> discover_suite_files(const std::vector<std::string>& paths);

namespace suite_detail {
class RuleSources;
}

/// Parses and validates one file, appending every problem found to
/// `problems` (malformed TOML, unknown key, wrong type, unknown plugin,
/// scenario, knob or check, matrix over an unknown key). `rules`: the files
/// rule_from named so far in this load, read once each (none: this file's
/// own).
std::unique_ptr<SuiteFile> parse_suite_file(const std::string& path, const Catalogue& catalogue,
                                            std::vector<Diagnostic>& problems,
                                            suite_detail::RuleSources* rules = nullptr);

/// Discovers, parses and validates the suites of `paths`, then checks that
/// case ids are unique across them. Throws InputError with every problem,
/// after appending to `warnings` the problems of a named plugin that refuse
/// none of these cases (a broken profile no case plays).
std::vector<std::unique_ptr<SuiteFile>> load_suites(const std::vector<std::string>& paths,
                                                    const Catalogue& catalogue,
                                                    std::vector<Diagnostic>* warnings = nullptr);

}  // namespace conform

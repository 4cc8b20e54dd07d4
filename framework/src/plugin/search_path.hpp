// Where a run looks for plugin files.
#pragma once

#include <string>
#include <vector>

namespace conform {

/// The plugin folders of a run, in search order: each `--plugin-dir`, else
/// each entry of CONFORM_PLUGIN_PATH (colon-separated), else the build's
/// plugin folder.
std::vector<std::string> plugin_search_path(const std::vector<std::string>& cli_dirs);

}  // namespace conform

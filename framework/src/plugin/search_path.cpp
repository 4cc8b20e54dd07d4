// The plugin search path. The only source compiled with the build's plugin
// folder (CONFORM_DEFAULT_PLUGIN_DIR, an absolute path): a definition on
// every source would make each object differ per checkout, and ccache miss
// across worktrees and clones.
#include "plugin/search_path.hpp"

#include <cstdlib>

namespace conform {

std::vector<std::string> plugin_search_path(const std::vector<std::string>& cli_dirs) {
  if (!cli_dirs.empty()) return cli_dirs;
  std::vector<std::string> dirs;
  if (const char* env = std::getenv("CONFORM_PLUGIN_PATH"); env && *env) {
    std::string path = env;
    std::size_t start = 0;
    while (start <= path.size()) {
      std::size_t end = path.find(':', start);
      if (end == std::string::npos) end = path.size();
      if (end > start) dirs.push_back(path.substr(start, end - start));
      start = end + 1;
    }
    if (!dirs.empty()) return dirs;
  }
  return {CONFORM_DEFAULT_PLUGIN_DIR};
}

}  // namespace conform

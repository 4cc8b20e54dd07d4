// Plugin loading through Boost.DLL.
#include "plugin/loader.hpp"

#include "common/input_error.hpp"

#include <boost/dll/shared_library.hpp>

#include <dlfcn.h>

#include <algorithm>
#include <filesystem>

namespace conform {
namespace fs = std::filesystem;

LoadedPlugin::LoadedPlugin(std::string file, std::shared_ptr<void> library,
                           std::unique_ptr<Plugin> plugin, std::uint32_t abi_version)
    : file_(std::move(file)),
      library_(std::move(library)),
      plugin_(std::move(plugin)),
      abi_version_(abi_version) {}

LoadedPlugin load_plugin(const std::string& file) {
  auto fail = [&](const std::string& why) { return InputError({file}, why); };
  std::error_code ec;
  if (!fs::exists(file, ec)) throw fail("no such plugin file");
  if (!fs::is_regular_file(file, ec)) throw fail("not a regular file");

  const std::string path = fs::absolute(file).string();
  // Boost.DLL 1.74 reports every load failure as "Bad file descriptor"; the
  // loader's own words ("invalid ELF header", "undefined symbol: x") come
  // from dlopen, so ask it first.
  if (void* probe = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL)) {
    dlclose(probe);
  } else {
    std::string why = dlerror() ?: "dlopen failed";
    if (why.rfind(path + ": ", 0) == 0) why.erase(0, path.size() + 2);
    throw fail("not a loadable library (" + why + ")");
  }
  auto library = std::make_shared<boost::dll::shared_library>();
  boost::system::error_code load_error;
  library->load(path, boost::dll::load_mode::rtld_now, load_error);
  if (load_error) throw fail("not a loadable library (" + load_error.message() + ")");
  if (!library->has("conform_abi_version"))
    throw fail("not a conform plugin: no conform_abi_version symbol");
  const std::uint32_t abi = library->get<const std::uint32_t>("conform_abi_version");
  if (abi != kAbiVersion)
    throw fail("ABI version " + std::to_string(abi) + ", but this conform needs " +
               std::to_string(kAbiVersion) + "; rebuild the plugin against this conform");
  if (!library->has("conform_create_plugin"))
    throw fail("not a conform plugin: no conform_create_plugin symbol");
  auto& factory = library->get_alias<PluginFactory>("conform_create_plugin");
  std::unique_ptr<Plugin> plugin = factory();
  if (!plugin) throw fail("conform_create_plugin returned no plugin");
  if (plugin->info().name.empty()) throw fail("the plugin declares no name");
  return LoadedPlugin(file, std::move(library), std::move(plugin), abi);
}

void PluginSet::load_dir(const std::string& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw InputError({dir}, "no such plugin folder");
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.path().extension() == ".so") files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  for (const auto& f : files) load_file(f);
}

void PluginSet::load_file(const std::string& file) {
  // The same file named twice (--plugin-dir given twice, say) is one plugin.
  std::error_code ec;
  auto canonical = fs::weakly_canonical(file, ec);
  for (const auto& p : plugins_)
    if (!ec && fs::weakly_canonical(p.file(), ec) == canonical) return;
  add(load_plugin(file));
}

void PluginSet::add(LoadedPlugin plugin) {
  if (const auto* other = find(plugin.info().name))
    throw InputError({plugin.file()},
                     "plugin '" + plugin.info().name + "' is also provided by " + other->file());
  plugins_.push_back(std::move(plugin));
}

const LoadedPlugin* PluginSet::find(const std::string& name) const {
  for (const auto& p : plugins_)
    if (p.info().name == name) return &p;
  return nullptr;
}

std::vector<std::string> PluginSet::names() const {
  std::vector<std::string> out;
  for (const auto& p : plugins_) out.push_back(p.info().name);
  return out;
}

}  // namespace conform

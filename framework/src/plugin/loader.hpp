// Finding and loading plugin files with Boost.DLL, refusing any whose ABI
// version differs from the framework's.
#pragma once

#include <conform/plugin.hpp>

#include <memory>
#include <string>
#include <vector>

namespace conform {

/// A loaded plugin and the library that holds its code.
class LoadedPlugin {
 public:
  LoadedPlugin(std::string file, std::shared_ptr<void> library, std::unique_ptr<Plugin> plugin,
               std::uint32_t abi_version);
  LoadedPlugin(LoadedPlugin&&) = default;
  // No assignment: it would release the old library before destroying the
  // old plugin object whose code lives in it.
  LoadedPlugin& operator=(LoadedPlugin&&) = delete;

  const std::string& file() const { return file_; }
  std::uint32_t abi_version() const { return abi_version_; }
  const PluginInfo& info() const { return plugin_->info(); }
  Plugin& plugin() const { return *plugin_; }

 private:
  std::string file_;
  // Declared before plugin_ so the code outlives the object it made
  // (members are destroyed in reverse order).
  std::shared_ptr<void> library_;
  std::unique_ptr<Plugin> plugin_;
  std::uint32_t abi_version_;
};

/// Loads one plugin file. Throws InputError naming the file and the reason:
/// missing, not a loadable library, no `conform_abi_version` or
/// `conform_create_plugin` symbol, an ABI version other than kAbiVersion, or
/// a factory that returned nothing.
LoadedPlugin load_plugin(const std::string& file);

/// The plugins a run sees, by name.
class PluginSet {
 public:
  /// Loads every `*.so` in `dir` (not recursive), in name order. Throws
  /// InputError for a missing folder, a bad file, or a plugin name that
  /// another file already provided.
  void load_dir(const std::string& dir);
  /// Loads one file; errors as load_plugin, plus duplicate names.
  void load_file(const std::string& file);
  /// The plugin named `name`, or nullptr.
  const LoadedPlugin* find(const std::string& name) const;
  std::vector<std::string> names() const;
  const std::vector<LoadedPlugin>& all() const { return plugins_; }

 private:
  void add(LoadedPlugin plugin);
  std::vector<LoadedPlugin> plugins_;
};

}  // namespace conform

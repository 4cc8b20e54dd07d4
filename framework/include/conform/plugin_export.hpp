// The export of a plugin library: included by the one file of a plugin that
// names its Plugin class, so Boost.DLL's headers reach no other file.
#pragma once

#include <conform/plugin.hpp>

#include <boost/dll/alias.hpp>

/// Exports `Type` (default-constructible, derived from conform::Plugin) as
/// this library's plugin, with the ABI version it was compiled against.
#define CONFORM_PLUGIN(Type)                                                     \
  namespace conform_plugin_export {                                              \
  std::unique_ptr<::conform::Plugin> create() { return std::make_unique<Type>(); } \
  extern "C" BOOST_SYMBOL_EXPORT const std::uint32_t conform_abi_version =        \
      ::conform::kAbiVersion;                                                    \
  }                                                                              \
  BOOST_DLL_ALIAS(conform_plugin_export::create, conform_create_plugin)

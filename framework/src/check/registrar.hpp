// How a check enters the catalogue from its own file: one
// CONFORM_REGISTER_CHECK line after the class. The build lists every check
// file (check/quic/*.cpp, check/tcp/*.cpp, check/udp/*.cpp; helpers live in
// their support/ folders) and the catalogue references each file's registrar
// by the file's stem (check/check_files.hpp). So a check file without a
// registrar does not link, the linker cannot drop one from libconform.a as
// unreferenced, and a registrar is constant-initialised: whole before any
// code runs, whichever translation unit reads the catalogue first.
#pragma once

#include "check/check.hpp"

#include <memory>

namespace conform {

/// A check file's entry in the catalogue: how to make its check.
struct CheckRegistrar {
  std::unique_ptr<Check> (*make)();
};

}  // namespace conform

/// Registers `Type` (constructed from the further arguments) as the check
/// of this file; `name` is the file's stem and the check's name(), which
/// the catalogue verifies.
#define CONFORM_REGISTER_CHECK(name, Type, ...)                                                         \
  namespace conform::registered_checks {                                                              \
  extern const CheckRegistrar name;                                                                   \
  constinit const CheckRegistrar name{                                                                \
      []() -> std::unique_ptr<Check> { return std::make_unique<Type>(__VA_ARGS__); }};                \
  }

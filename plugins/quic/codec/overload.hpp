// The overload set for std::visit: one lambda per alternative of a variant,
// so a variant that gains an alternative no lambda takes does not compile.
// The plugin's own (the framework has one too; the plugin includes nothing
// of the framework's internals, ARCHITECTURE.md principle 5).
#pragma once

namespace conform::quic {

template <class... F>
struct Overload : F... {
  using F::operator()...;
};
template <class... F>
Overload(F...) -> Overload<F...>;

}  // namespace conform::quic

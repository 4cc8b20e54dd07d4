// The overload set for std::visit: one lambda per alternative of a variant.
#pragma once

namespace conform {

template <class... F>
struct Overload : F... {
  using F::operator()...;
};
template <class... F>
Overload(F...) -> Overload<F...>;

}  // namespace conform

// Time for the sans-IO core: an Instant and a Duration over integer
// nanoseconds. The core never reads a clock; every call that needs the time
// takes it as an argument (STYLE.md habit 2).
#pragma once

#include <compare>
#include <cstdint>
#include <limits>

namespace conform::quic {

/// A span of time in nanoseconds.
struct Duration {
  int64_t ns = 0;

  static constexpr Duration nanos(int64_t v) { return {v}; }
  static constexpr Duration micros(int64_t v) { return {v * 1'000}; }
  static constexpr Duration millis(int64_t v) { return {v * 1'000'000}; }
  static constexpr Duration seconds(int64_t v) { return {v * 1'000'000'000}; }

  constexpr int64_t as_micros() const { return ns / 1'000; }
  constexpr int64_t as_millis() const { return ns / 1'000'000; }
  constexpr auto operator<=>(const Duration&) const = default;
  constexpr Duration operator+(Duration o) const { return {ns + o.ns}; }
  constexpr Duration operator-(Duration o) const { return {ns - o.ns}; }
  constexpr Duration operator*(int64_t k) const { return {ns * k}; }
};

/// A point in time, nanoseconds since an origin the driver chooses (the
/// simulator starts at 0). `Instant::never()` means "no deadline".
struct Instant {
  int64_t ns = 0;

  static constexpr Instant from_nanos(int64_t v) { return {v}; }
  static constexpr Instant never() { return {std::numeric_limits<int64_t>::max()}; }
  constexpr bool is_never() const { return ns == std::numeric_limits<int64_t>::max(); }

  constexpr auto operator<=>(const Instant&) const = default;
  /// Saturates at never() so a deadline computed from never stays never.
  constexpr Instant operator+(Duration d) const {
    if (is_never() || ns > std::numeric_limits<int64_t>::max() - d.ns) return never();
    return {ns + d.ns};
  }
  constexpr Duration operator-(Instant o) const { return {ns - o.ns}; }
};

}  // namespace conform::quic

// Virtual or real time as strong types over integer nanoseconds (STYLE.md
// habit 2): an Instant is a point on a run's clock, counted from the start of
// the case; a Duration is a signed distance between two Instants. Keeping them
// apart lets the compiler refuse `instant + instant` and unit mix-ups.
#pragma once

#include <compare>
#include <cstdint>
#include <limits>

namespace conform {

/// A signed span of time in nanoseconds.
class Duration {
 public:
  constexpr Duration() = default;
  static constexpr Duration nanoseconds(std::int64_t ns) { return Duration(ns); }
  static constexpr Duration microseconds(std::int64_t us) { return Duration(us * 1'000); }
  static constexpr Duration milliseconds(std::int64_t ms) { return Duration(ms * 1'000'000); }
  static constexpr Duration seconds(std::int64_t s) { return Duration(s * 1'000'000'000); }
  /// `ms` milliseconds rounded to the nearest nanosecond (suite values are floats).
  static constexpr Duration from_ms(double ms) {
    double ns = ms * 1e6;
    return Duration(static_cast<std::int64_t>(ns < 0 ? ns - 0.5 : ns + 0.5));
  }
  constexpr std::int64_t ns() const { return ns_; }
  constexpr double ms() const { return static_cast<double>(ns_) / 1e6; }

  constexpr auto operator<=>(const Duration&) const = default;
  constexpr Duration operator+(Duration o) const { return Duration(ns_ + o.ns_); }
  constexpr Duration operator-(Duration o) const { return Duration(ns_ - o.ns_); }
  constexpr Duration operator*(std::int64_t k) const { return Duration(ns_ * k); }
  constexpr Duration& operator+=(Duration o) { ns_ += o.ns_; return *this; }

 private:
  constexpr explicit Duration(std::int64_t ns) : ns_(ns) {}
  std::int64_t ns_ = 0;
};

/// A point in time: nanoseconds since the start of the case. `never()` is a
/// sentinel later than every real instant ("no timer armed"); adding any
/// Duration to it leaves it `never()`.
class Instant {
 public:
  constexpr Instant() = default;
  static constexpr Instant from_ns(std::int64_t ns) { return Instant(ns); }
  static constexpr Instant never() { return Instant(std::numeric_limits<std::int64_t>::max()); }
  constexpr std::int64_t ns() const { return ns_; }
  constexpr bool is_never() const { return *this == never(); }

  constexpr auto operator<=>(const Instant&) const = default;
  /// Saturates at never() rather than overflowing.
  constexpr Instant operator+(Duration d) const {
    if (is_never()) return never();
    if (d.ns() > 0 && ns_ > std::numeric_limits<std::int64_t>::max() - d.ns()) return never();
    return Instant(ns_ + d.ns());
  }
  constexpr Instant operator-(Duration d) const { return *this + Duration::nanoseconds(-d.ns()); }
  constexpr Duration operator-(Instant o) const { return Duration::nanoseconds(ns_ - o.ns_); }
  constexpr Instant& operator+=(Duration d) { return *this = *this + d; }

 private:
  constexpr explicit Instant(std::int64_t ns) : ns_(ns) {}
  std::int64_t ns_ = 0;
};

}  // namespace conform

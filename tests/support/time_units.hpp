// Nanoseconds in a millisecond, as the tests write times: one definition for
// every helper header, so two of them can meet in one unity batch.
#pragma once

#include <cstdint>

namespace conform::test {

inline constexpr std::int64_t kMs = 1'000'000;

}  // namespace conform::test

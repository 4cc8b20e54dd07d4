// The simulator's only source of randomness: xoshiro256** seeded through
// SplitMix64, written out here so that a seed yields the same stream on every
// platform, compiler and standard library (std:: distributions do not promise
// that). One Rng per link and impairment keeps each pattern independent of
// which other impairments a case turns on.
#pragma once

#include <cstdint>

namespace conform {

class Rng {
 public:
  /// A stream determined by the run's `seed` and a `stream` number naming
  /// what it serves (a link and an impairment).
  Rng(std::uint64_t seed, std::uint64_t stream);

  /// The next 64 random bits.
  std::uint64_t next();
  /// Uniform in [0, 1), with 53 random bits.
  double uniform();
  /// True with probability `p`; p <= 0 never, p >= 1 always (no draw then).
  bool chance(double p);
  /// Uniform in [0, n); 0 when n is 0.
  std::uint64_t below(std::uint64_t n);

 private:
  std::uint64_t s_[4];
};

}  // namespace conform

// xoshiro256** (Blackman and Vigna, 2018) with SplitMix64 seeding.
#include "net/rng.hpp"

namespace conform {
namespace {

std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

// SplitMix64: spreads a (seed, stream) pair over the 256-bit state, which
// must not be all zero; SplitMix64 outputs never are four zeros in a row.
std::uint64_t splitmix64(std::uint64_t& x) {
  std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace

Rng::Rng(std::uint64_t seed, std::uint64_t stream) {
  std::uint64_t x = seed;
  // Mix the stream number in through a second SplitMix64 round so streams
  // of neighbouring seeds do not overlap (seed 1 stream 0 vs seed 0 stream 1).
  std::uint64_t y = stream ^ 0x6a09e667f3bcc909ULL;
  x ^= splitmix64(y);
  for (auto& s : s_) s = splitmix64(x);
}

std::uint64_t Rng::next() {
  const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
  const std::uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

double Rng::uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

bool Rng::chance(double p) {
  if (p <= 0) return false;
  if (p >= 1) return true;
  return uniform() < p;
}

std::uint64_t Rng::below(std::uint64_t n) {
  if (n == 0) return 0;
  // Multiply-shift (Lemire): the high half of a 128-bit product maps 64
  // random bits onto [0, n) with a bias below n / 2^64, far under anything a
  // test could see, and without the platform-dependent rejection loop.
  return static_cast<std::uint64_t>((static_cast<unsigned __int128>(next()) * n) >> 64);
}

}  // namespace conform

// The simulator's PRNG: pinned outputs (the same on every platform), streams
// that differ by seed and by purpose, and the helpers' edge cases.
#include "net/rng.hpp"

#include <boost/test/unit_test.hpp>


using namespace conform;

BOOST_AUTO_TEST_SUITE(rng_test)

BOOST_AUTO_TEST_CASE(outputs_are_pinned) {
  Rng r(0, 0);
  const std::uint64_t a = r.next(), b = r.next();
  // Cross-checked against a separate transcription of the algorithm, which
  // also reproduces xoshiro256**'s published outputs for the state {1,2,3,4}
  // (11520, 0, 1509978240, 1215971899390074240).
  BOOST_TEST(a == 0xff73d0ed7d9fce26ULL);
  BOOST_TEST(b == 0x2aebd5d6fe969244ULL);
}

BOOST_AUTO_TEST_CASE(seeds_and_streams_differ) {
  BOOST_TEST(Rng(1, 0).next() != Rng(2, 0).next());
  BOOST_TEST(Rng(1, 0).next() != Rng(1, 1).next());
  BOOST_TEST(Rng(1, 0).next() != Rng(0, 1).next());
  Rng x(5, 3), y(5, 3);
  for (int i = 0; i < 100; ++i) BOOST_TEST(x.next() == y.next());
}

BOOST_AUTO_TEST_CASE(helpers_stay_in_range) {
  Rng r(11, 0);
  for (int i = 0; i < 10000; ++i) {
    const double u = r.uniform();
    BOOST_TEST((u >= 0.0 && u < 1.0));
    BOOST_TEST(r.below(7) < 7u);
  }
  BOOST_TEST(r.below(0) == 0u);
  BOOST_TEST(!r.chance(0.0));
  BOOST_TEST(r.chance(1.0));
  int hits = 0;
  for (int i = 0; i < 10000; ++i) hits += r.chance(0.3);
  BOOST_TEST(hits > 2800);
  BOOST_TEST(hits < 3200);
}

BOOST_AUTO_TEST_SUITE_END()

// FrameNumbers: frame lists as variable-length differences, read back exactly.
#include "offline/frame_numbers.hpp"

#include <boost/test/unit_test.hpp>

#include <limits>

using conform::FrameNumbers;

BOOST_AUTO_TEST_SUITE(frame_numbers_test)

BOOST_AUTO_TEST_CASE(numbers_come_back_as_given) {
  const std::uint64_t max = std::numeric_limits<std::uint64_t>::max();
  for (const std::vector<std::uint64_t>& frames : std::vector<std::vector<std::uint64_t>>{
           {}, {1}, {1, 2, 3, 130, 131, 100000, 100001}, {5, 3, 400, 1}, {0, max, 1, max - 1}}) {
    const FrameNumbers kept(frames);
    BOOST_TEST(kept.size() == frames.size());
    BOOST_TEST(kept.empty() == frames.empty());
    if (!frames.empty()) BOOST_TEST(kept.front() == frames.front());
    BOOST_TEST(kept.all() == frames);
  }
}

BOOST_AUTO_TEST_SUITE_END()

// The plan of a sharded check: which job reads which capture, and which
// connections of a split capture each judges.
#include "gate/check_shard.hpp"

#include <boost/test/unit_test.hpp>

#include <map>
#include <random>

using namespace conform;

namespace {

std::vector<std::size_t> read_by(const std::vector<CaptureShare>& shares) {
  std::vector<std::size_t> out;
  for (std::size_t k = 0; k < shares.size(); ++k)
    if (shares[k].read) out.push_back(k);
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(check_shard_test)

// Two captures of at least 300 bytes are split (350 bytes to each job); the
// rest go largest first to the job with the fewest bytes: 100 to job 1 (a
// tie: the lower), 50 to job 2, then 10 to job 2 as well (400 < 450 bytes).
BOOST_AUTO_TEST_CASE(large_captures_are_split_and_the_rest_dealt_largest_first) {
  const std::vector<std::uintmax_t> sizes{100, 50, 400, 10, 300};
  const auto one = plan_check_shard(sizes, {1, 2}, 300);
  const auto two = plan_check_shard(sizes, {2, 2}, 300);
  BOOST_TEST(read_by(one) == (std::vector<std::size_t>{0, 2, 4}), boost::test_tools::per_element());
  BOOST_TEST(read_by(two) == (std::vector<std::size_t>{1, 2, 3, 4}), boost::test_tools::per_element());
  for (std::size_t k = 0; k < sizes.size(); ++k) {
    BOOST_TEST(one[k].split == (k == 2 || k == 4));
    BOOST_TEST(one[k].bytes == sizes[k]);
  }
  // Connection n of capture 2 goes to job (2 + n - 1) mod 2 + 1.
  BOOST_TEST(judges_connection(2, 1, {1, 2}));
  BOOST_TEST(!judges_connection(2, 1, {2, 2}));
  BOOST_TEST(judges_connection(2, 2, {2, 2}));
  BOOST_TEST(judges_connection(4, 3, {1, 2}));
}

// Whatever the sizes and the number of jobs, each capture below the split
// size is read by one job, each connection of a split one judged by one,
// and the bytes dealt whole differ between jobs by at most the largest.
BOOST_AUTO_TEST_CASE(every_capture_and_connection_goes_to_one_job) {
  std::mt19937_64 random(7);
  for (int round = 0; round < 50; ++round) {
    const std::size_t count = 1 + random() % 6;
    std::vector<std::uintmax_t> sizes(random() % 20);
    for (auto& s : sizes) s = random() % 1000;
    const std::uintmax_t split = 500 + random() % 600;
    std::vector<std::size_t> readers(sizes.size(), 0);
    std::vector<std::uintmax_t> load(count, 0);
    for (std::size_t job = 1; job <= count; ++job) {
      const auto shares = plan_check_shard(sizes, {job, count}, split);
      for (std::size_t k = 0; k < sizes.size(); ++k) {
        BOOST_TEST(shares[k].split == (sizes[k] >= split));
        if (!shares[k].read) continue;
        ++readers[k];
        if (!shares[k].split) load[job - 1] += sizes[k];
      }
    }
    std::uintmax_t largest = 0;
    for (std::size_t k = 0; k < sizes.size(); ++k) {
      BOOST_TEST(readers[k] == (sizes[k] >= split ? count : 1u));
      if (sizes[k] < split) largest = std::max(largest, sizes[k]);
      for (std::size_t n = 1; n <= 7; ++n) {
        std::size_t judges = 0;
        for (std::size_t job = 1; job <= count; ++job) judges += judges_connection(k, n, {job, count});
        BOOST_TEST(judges == 1u);
      }
    }
    const auto [low, high] = std::minmax_element(load.begin(), load.end());
    BOOST_TEST(*high - *low <= largest);
  }
}

BOOST_AUTO_TEST_SUITE_END()

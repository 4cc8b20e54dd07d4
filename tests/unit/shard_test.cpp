// Sharding: `--shard K/N` parsing and the deal of cases over shards.
#include "gate/shard.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>

using namespace conform;

BOOST_AUTO_TEST_SUITE(shard_test)

BOOST_AUTO_TEST_CASE(parses_k_of_n_and_refuses_the_rest) {
  ShardSpec spec;
  BOOST_TEST(parse_shard("2/4", spec).empty());
  BOOST_TEST(spec.index == 2u);
  BOOST_TEST(spec.count == 4u);
  BOOST_TEST(parse_shard("1/1", spec).empty());
  BOOST_TEST(parse_shard("10000/10000", spec).empty());
  for (const char* bad : {"", "0/4", "5/4", "2/0", "2", "/4", "2/", "a/4", "2/4/1", "-1/4", "2 /4", "1/10001",
                          "99999999999999999999/1"}) {
    ShardSpec untouched{7, 9};
    const std::string problem = parse_shard(bad, untouched);
    BOOST_TEST(problem == "--shard takes K/N with 1 <= K <= N <= 10000 (e.g. 2/4), not '" + std::string(bad) + "'",
               bad);
    BOOST_TEST(untouched.index == 7u, bad);
  }
}

BOOST_AUTO_TEST_CASE(deals_round_robin_over_sorted_ids) {
  // Sorted: a, b[x=1], b[x=2], c, d → shards 1 2 3 1 2.
  const std::vector<std::string> ids{"d", "b[x=2]", "a", "c", "b[x=1]"};
  const auto shard = assign_shards(ids, 3);
  BOOST_TEST(shard == (std::vector<std::size_t>{2, 3, 1, 1, 2}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(the_split_ignores_the_order_of_the_list) {
  std::vector<std::string> ids;
  for (int i = 0; i < 50; ++i) ids.push_back("case/" + std::to_string(i * 7919 % 101));
  std::vector<std::string> reversed(ids.rbegin(), ids.rend());
  const auto a = assign_shards(ids, 4);
  const auto b = assign_shards(reversed, 4);
  for (std::size_t i = 0; i < ids.size(); ++i) BOOST_TEST(a[i] == b[ids.size() - 1 - i]);
  // Sizes differ by at most one: 50 over 4 is 13, 13, 12, 12.
  for (std::size_t k = 1; k <= 4; ++k)
    BOOST_TEST(std::count(a.begin(), a.end(), k) == (k <= 2 ? 13 : 12), k);
}

BOOST_AUTO_TEST_CASE(the_digest_names_the_list_in_order) {
  BOOST_TEST(cases_digest({"a", "b"}) == cases_digest({"a", "b"}));
  BOOST_TEST(cases_digest({"a", "b"}) != cases_digest({"b", "a"}));
  BOOST_TEST(cases_digest({"ab"}) != cases_digest({"a", "b"}));
  // FNV-1a of "" is its offset basis.
  BOOST_TEST(cases_digest({}) == "cbf29ce484222325-0");
}

BOOST_AUTO_TEST_SUITE_END()

// Case folders: one folder per id, never shared, never outside --out.
#include "run/runner.hpp"

#include <boost/test/unit_test.hpp>

#include <set>

using namespace conform;

BOOST_AUTO_TEST_SUITE(runner_test)

BOOST_AUTO_TEST_CASE(ids_become_readable_folders) {
  BOOST_TEST(case_folder("max-streams-uni/fanout[frames=200]") == "max-streams-uni/fanout[frames=200]");
  BOOST_TEST(case_folder("a b") == "a%20b");
  BOOST_TEST(case_folder("a_b") == "a_b");
  BOOST_TEST(case_folder("é") == "%C3%A9");
  BOOST_TEST(case_folder("x@seed-1") == "x%40seed-1");
}

BOOST_AUTO_TEST_CASE(no_id_climbs_out_or_lands_at_the_root) {
  BOOST_TEST(case_folder("..") == "%2E%2E");
  BOOST_TEST(case_folder("../../etc") == "%2E%2E/%2E%2E/etc");
  BOOST_TEST(case_folder("/etc/passwd") == "%/etc/passwd");
  BOOST_TEST(case_folder(".") == "%2E");
  BOOST_TEST(case_folder("") == "%");
}

BOOST_AUTO_TEST_CASE(distinct_ids_get_distinct_folders) {
  const std::vector<std::string> ids = {"a b", "a_b", "a%20b", "é", "ü", "..", "a//b", "a/b",
                                        "x", "x/@seed-1", std::string(300, 'a'),
                                        std::string(300, 'a') + "b"};
  std::set<std::string> folders;
  for (const auto& id : ids) folders.insert(case_folder(id));
  BOOST_TEST(folders.size() == ids.size());
}

BOOST_AUTO_TEST_CASE(long_parts_are_shortened_with_a_hash) {
  const std::string folder = case_folder(std::string(300, 'a'));
  BOOST_TEST(folder.size() == 200u);
  BOOST_TEST(folder.substr(0, 183) == std::string(183, 'a'));
  BOOST_TEST(folder[183] == '~');
}

BOOST_AUTO_TEST_SUITE_END()

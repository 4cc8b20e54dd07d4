// Case selection by id glob and RFC section.
#include "cli/select.hpp"

#include <boost/test/unit_test.hpp>

using namespace conform;

BOOST_AUTO_TEST_SUITE(select_test)

BOOST_AUTO_TEST_CASE(glob_crosses_slashes_and_exact_ids_match_themselves) {
  BOOST_TEST(id_matches("max-streams-uni/fanout", "max-streams-*"));
  BOOST_TEST(id_matches("max-streams-uni/fanout[frames=200]", "*fanout*"));
  // `[frames=200]` is a character class as a glob; the exact id still matches.
  BOOST_TEST(id_matches("max-streams-uni/fanout[frames=200]", "max-streams-uni/fanout[frames=200]"));
  BOOST_TEST(!id_matches("max-streams-uni/fanout[frames=200]", "max-streams-uni/fanout[frames=2000]"));
  BOOST_TEST(!id_matches("handshake/basic", "max-*"));
}

BOOST_AUTO_TEST_CASE(sections_match_at_component_boundaries) {
  BOOST_TEST(section_matches("9000§4.6", "9000"));
  BOOST_TEST(section_matches("9000§4.6", "9000§4"));
  BOOST_TEST(section_matches("9000§4.6", "9000§4.6"));
  BOOST_TEST(section_matches("9000§4.6.1", "9000§4.6"));
  BOOST_TEST(!section_matches("9000§41", "9000§4"));
  BOOST_TEST(!section_matches("9000§4.6", "900"));
  BOOST_TEST(!section_matches("9001§4.6", "9000"));
  BOOST_TEST(!section_matches("9000§4.6", "9000§4.6.1"));
}

BOOST_AUTO_TEST_SUITE_END()

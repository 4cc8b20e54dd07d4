// The Boost.Test entry point shared by each test executable: Boost.Test's
// own, with the exit code ctest reads as skipped (support/needs.hpp).
#define BOOST_TEST_MODULE conform
#define BOOST_TEST_NO_MAIN
#include <boost/test/unit_test.hpp>

#include "support/needs.hpp"

int main(int argc, char* argv[]) {
  return conform::test::exit_code_after_skips(boost::unit_test::unit_test_main(&init_unit_test, argc, argv));
}

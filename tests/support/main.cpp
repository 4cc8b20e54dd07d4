// The Boost.Test entry point shared by each test executable.
#define BOOST_TEST_MODULE conform
#include <boost/test/unit_test.hpp>

// TaskPool: tasks run on its threads or, with none, by submit(); the first
// exception is told by failed() and rethrown by wait().
#include "common/task_pool.hpp"

#include <boost/test/unit_test.hpp>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>

using conform::TaskPool;

BOOST_AUTO_TEST_SUITE(task_pool_test)

BOOST_AUTO_TEST_CASE(a_task_that_throws_is_told_then_rethrown) {
  for (const unsigned threads : {0u, 2u}) {
    TaskPool pool(threads, 4);
    std::atomic<int> ran{0};
    pool.submit([&] { ++ran; });
    BOOST_TEST(!pool.failed());
    pool.submit([] { throw std::runtime_error("disk full"); });
    // A worker takes it in its own time.
    for (int k = 0; k < 500 && !pool.failed(); ++k) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    BOOST_TEST(pool.failed(), threads);
    pool.submit([&] { ++ran; });  // dropped: the pool has failed
    BOOST_CHECK_THROW(pool.wait(), std::runtime_error);
    BOOST_TEST(!pool.failed(), threads);
    BOOST_TEST(ran.load() == 1, threads);
  }
}

BOOST_AUTO_TEST_SUITE_END()

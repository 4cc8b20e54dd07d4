// The stop request of a run: a caught signal seen through the pipe, the
// exit code it gives, a second signal that ends the process at once, and
// the handlers put back afterwards. Signals are raised in forked children,
// so a mistake cannot end the test program.
#include "run/interruption.hpp"

#include <boost/test/unit_test.hpp>

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>

using namespace conform;

namespace {

// Runs `body` in a child; its wait status.
template <typename Body>
int in_child(Body body) {
  const pid_t pid = fork();
  if (pid == 0) {
    // Boost.Test's own handlers must not stand in for the default actions.
    for (int sig : {SIGINT, SIGTERM}) signal(sig, SIG_DFL);
    std::_Exit(body());
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return status;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(interruption_test)

BOOST_AUTO_TEST_CASE(a_caught_signal_is_seen_through_the_pipe_with_its_exit_code) {
  const int status = in_child([] {
    Interruption interruption;
    if (interruption.signal() != 0 || interruption.exit_code() != 0) return 10;
    raise(SIGINT);
    pollfd fd{interruption.fd(), POLLIN, 0};
    if (poll(&fd, 1, 1000) != 1) return 11;  // the pipe wakes a poll at once
    if (interruption.signal() != SIGINT) return 12;
    if (interruption.exit_code() != 130) return 13;
    return 0;
  });
  BOOST_TEST(WIFEXITED(status));
  BOOST_TEST(WEXITSTATUS(status) == 0);
}

BOOST_AUTO_TEST_CASE(the_first_signal_is_kept_when_others_follow) {
  const int status = in_child([] {
    Interruption interruption;
    raise(SIGTERM);
    // The handler of SIGINT is still there: only SIGTERM's was used up.
    raise(SIGINT);
    return interruption.signal() == SIGTERM && interruption.exit_code() == 143 ? 0 : 1;
  });
  BOOST_TEST(WIFEXITED(status));
  BOOST_TEST(WEXITSTATUS(status) == 0);
}

BOOST_AUTO_TEST_CASE(a_second_sigint_ends_the_process_at_once) {
  const int status = in_child([] {
    Interruption interruption;
    raise(SIGINT);
    raise(SIGINT);  // the default action: the process ends here
    return 7;
  });
  BOOST_TEST(WIFSIGNALED(status));
  BOOST_TEST(WTERMSIG(status) == SIGINT);
}

BOOST_AUTO_TEST_CASE(the_handlers_found_are_put_back) {
  struct sigaction before {}, after {};
  sigaction(SIGINT, nullptr, &before);
  { Interruption interruption; }
  sigaction(SIGINT, nullptr, &after);
  BOOST_TEST((after.sa_handler == before.sa_handler));
}

BOOST_AUTO_TEST_SUITE_END()

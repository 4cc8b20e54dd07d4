// Isolated children: output, crashes, timeouts, exit codes, logs, parallel
// jobs, and the processes a child leaves behind.
#include "run/isolate.hpp"
#include "support/support.hpp"

#include <boost/test/unit_test.hpp>

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <string>
#include <thread>
#include <vector>

using namespace conform;
namespace fs = std::filesystem;

namespace {

// Boost.Test installs handlers for SIGSEGV and SIGABRT, and a forked child
// inherits them; a task that means to die of a signal restores the default
// first, as in the `conform` binary, which installs none.
void die_of(int sig) {
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

std::string sleep_for(double seconds, std::string then = "") {
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
  return then;
}

// Runs `tasks` and returns each result by index, checking that on_done came
// exactly once per task.
std::vector<ChildResult> run_all(const std::vector<ChildTask>& tasks, unsigned jobs) {
  std::vector<std::optional<ChildResult>> got(tasks.size());
  std::vector<int> calls(tasks.size(), 0);
  Interruption interruption;
  run_isolated(tasks, jobs, interruption, [&](std::size_t index, ChildResult result) {
    BOOST_REQUIRE_LT(index, tasks.size());
    ++calls[index];
    got[index] = std::move(result);
  });
  std::vector<ChildResult> out;
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    BOOST_TEST(calls[i] == 1, "on_done for task " << i << " was called " << calls[i] << " times");
    out.push_back(got[i].value_or(ChildResult{}));
  }
  return out;
}

// Whether `pid` is gone or a zombie (reaped or not, it runs no more).
bool is_dead(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  if (!stat) return true;
  std::string line;
  std::getline(stat, line);
  auto close = line.rfind(')');
  return close == std::string::npos || close + 2 >= line.size() || line[close + 2] == 'Z' ||
         line[close + 2] == 'X';
}

using End = ChildResult::End;

}  // namespace

BOOST_AUTO_TEST_SUITE(isolate_test)

BOOST_AUTO_TEST_CASE(each_way_a_child_can_end) {
  const std::string dir = conform::test::scratch_dir("isolate_ends");
  auto log = [&](const char* name) { return dir + "/" + name + ".log"; };
  std::vector<ChildTask> tasks = {
      {[] { return std::string("{\"status\":\"PASS\"}"); }, 10, log("output")},
      {[]() -> std::string {
         std::signal(SIGABRT, SIG_DFL);
         std::abort();
       },
       10, log("abort")},
      {[]() -> std::string { die_of(SIGSEGV); return "unreachable"; }, 10, log("segv")},
      {[] { return sleep_for(30, "too late"); }, 0.3, log("sleep")},
      {[]() -> std::string { std::_Exit(7); }, 10, log("exit7")},
      {[] { return std::string(); }, 10, log("empty")},
  };
  auto results = run_all(tasks, 3);

  BOOST_TEST((results[0].end == End::exited));
  BOOST_TEST(results[0].code == 0);
  BOOST_TEST(results[0].output == "{\"status\":\"PASS\"}");

  BOOST_TEST((results[1].end == End::signaled));
  BOOST_TEST(results[1].code == SIGABRT);
  BOOST_TEST(results[1].output.empty());

  BOOST_TEST((results[2].end == End::signaled));
  BOOST_TEST(results[2].code == SIGSEGV);
  BOOST_TEST(results[2].output.empty());

  BOOST_TEST((results[3].end == End::timed_out));
  BOOST_TEST(results[3].output.empty());
  BOOST_TEST(results[3].duration_s >= 0.3);
  BOOST_TEST(results[3].duration_s < 10.0);  // killed, not waited for

  BOOST_TEST((results[4].end == End::exited));
  BOOST_TEST(results[4].code == 7);
  BOOST_TEST(results[4].output.empty());

  BOOST_TEST((results[5].end == End::exited));
  BOOST_TEST(results[5].code == 0);
  BOOST_TEST(results[5].output.empty());

  for (const auto& r : results) BOOST_TEST(r.duration_s >= 0.0);
}

BOOST_AUTO_TEST_CASE(large_output_arrives_whole) {
  const std::string dir = conform::test::scratch_dir("isolate_large");
  std::string big;
  for (int i = 0; i < 200'000; ++i) big += std::to_string(i % 10);
  big += "end";
  std::vector<ChildTask> tasks = {{[&big] { return big; }, 20, dir + "/log.txt"}};
  auto results = run_all(tasks, 1);
  BOOST_TEST((results[0].end == End::exited));
  BOOST_TEST(results[0].output.size() == big.size());
  BOOST_TEST((results[0].output == big));
}

BOOST_AUTO_TEST_CASE(child_stdout_and_stderr_go_to_its_log) {
  const std::string dir = conform::test::scratch_dir("isolate_log");
  const std::string path = dir + "/sub/log.txt";  // folder exists below
  fs::create_directories(dir + "/sub");
  conform::test::write_file(path, "earlier line\n");
  std::vector<ChildTask> tasks = {{[] {
                                     std::fputs("via stderr\n", stderr);
                                     ssize_t n = write(STDOUT_FILENO, "via write\n", 10);
                                     (void)n;
                                     std::printf("via printf\n");
                                     std::cout << "via cout\n";
                                     return std::string("result");
                                   },
                                   10, path}};
  auto results = run_all(tasks, 1);
  BOOST_TEST(results[0].output == "result");
  const std::string text = conform::test::read_file(path);
  // Appended, not truncated.
  BOOST_TEST(text.rfind("earlier line\n", 0) == 0u, text);
  BOOST_TEST(text.find("via stderr\n") != std::string::npos, text);
  BOOST_TEST(text.find("via write\n") != std::string::npos, text);
  // Buffered stdio output reaches the log too when the body returns.
  BOOST_TEST(text.find("via printf\n") != std::string::npos, text);
  BOOST_TEST(text.find("via cout\n") != std::string::npos, text);
  // Nothing the body returns goes to the log.
  BOOST_TEST(text.find("result") == std::string::npos, text);
}

BOOST_AUTO_TEST_CASE(log_file_is_created_when_missing) {
  const std::string dir = conform::test::scratch_dir("isolate_newlog");
  const std::string path = dir + "/new.txt";
  std::vector<ChildTask> tasks = {{[] {
                                     std::fputs("hello log\n", stderr);
                                     return std::string("x");
                                   },
                                   10, path}};
  run_all(tasks, 1);
  BOOST_TEST(conform::test::read_file(path) == "hello log\n");
}

BOOST_AUTO_TEST_CASE(on_done_is_called_once_per_task_in_order_with_one_job) {
  const std::string dir = conform::test::scratch_dir("isolate_order");
  std::vector<ChildTask> tasks;
  for (int i = 0; i < 6; ++i)
    tasks.push_back({[i] { return "task " + std::to_string(i); }, 10, dir + "/log.txt"});
  std::vector<std::size_t> order;
  std::vector<std::string> outputs;
  Interruption interruption;
  run_isolated(tasks, 1, interruption, [&](std::size_t index, ChildResult r) {
    order.push_back(index);
    outputs.push_back(r.output);
  });
  BOOST_TEST(order == (std::vector<std::size_t>{0, 1, 2, 3, 4, 5}), boost::test_tools::per_element());
  BOOST_REQUIRE_EQUAL(outputs.size(), 6u);
  for (std::size_t i = 0; i < 6; ++i) BOOST_TEST(outputs[i] == "task " + std::to_string(i));
}

BOOST_AUTO_TEST_CASE(zero_jobs_means_one_and_no_tasks_means_no_calls) {
  const std::string dir = conform::test::scratch_dir("isolate_zero");
  std::vector<ChildTask> tasks = {{[] { return std::string("a"); }, 10, dir + "/log.txt"},
                                  {[] { return std::string("b"); }, 10, dir + "/log.txt"}};
  auto results = run_all(tasks, 0);
  BOOST_TEST(results[0].output == "a");
  BOOST_TEST(results[1].output == "b");

  int calls = 0;
  Interruption interruption;
  run_isolated({}, 2, interruption, [&](std::size_t, ChildResult) { ++calls; });
  BOOST_TEST(calls == 0);
}

BOOST_AUTO_TEST_CASE(two_jobs_run_side_by_side_and_one_job_does_not) {
  // Each child marks its start, then waits for the other's mark. Side by
  // side they meet; one after the other the first waits in vain. No
  // wall-clock bound is needed to tell.
  auto meet = [](const std::string& dir, const std::string& me, const std::string& other,
                 int patience_ms) {
    std::ofstream(dir + "/" + me + ".started").put('x');
    for (int waited = 0; waited < patience_ms; waited += 10) {
      if (fs::exists(dir + "/" + other + ".started")) return me + " met " + other;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return me + " alone";
  };
  const std::string both = conform::test::scratch_dir("isolate_parallel");
  auto parallel = run_all({{[&] { return meet(both, "a", "b", 20000); }, 30, both + "/a.txt"},
                           {[&] { return meet(both, "b", "a", 20000); }, 30, both + "/b.txt"}},
                          2);
  BOOST_TEST(parallel[0].output == "a met b");
  BOOST_TEST(parallel[1].output == "b met a");
  const std::string one = conform::test::scratch_dir("isolate_serial");
  auto serial = run_all({{[&] { return meet(one, "a", "b", 500); }, 30, one + "/a.txt"},
                         {[&] { return meet(one, "b", "a", 500); }, 30, one + "/b.txt"}},
                        1);
  BOOST_TEST(serial[0].output == "a alone");
  BOOST_TEST(serial[1].output == "b met a");
}

BOOST_AUTO_TEST_CASE(a_crash_does_not_stop_the_others) {
  const std::string dir = conform::test::scratch_dir("isolate_crash_others");
  std::vector<ChildTask> tasks = {
      {[]() -> std::string { die_of(SIGSEGV); return ""; }, 10, dir + "/log.txt"},
      {[] { return sleep_for(0.1, "after"); }, 10, dir + "/log.txt"},
      {[] { return std::string("last"); }, 10, dir + "/log.txt"}};
  auto results = run_all(tasks, 2);
  BOOST_TEST((results[0].end == End::signaled));
  BOOST_TEST(results[1].output == "after");
  BOOST_TEST(results[2].output == "last");
}

BOOST_AUTO_TEST_CASE(processes_a_child_started_die_with_it) {
  const std::string dir = conform::test::scratch_dir("isolate_grandchild");
  std::vector<ChildTask> tasks = {{[] {
                                     pid_t pid = fork();
                                     if (pid == 0) {
                                       while (true) pause();
                                     }
                                     return std::to_string(pid);
                                   },
                                   10, dir + "/log.txt"}};
  auto results = run_all(tasks, 1);
  BOOST_TEST((results[0].end == End::exited));
  const pid_t grandchild = static_cast<pid_t>(std::stol(results[0].output));
  BOOST_REQUIRE(grandchild > 0);
  bool dead = false;
  for (int i = 0; i < 200 && !dead; ++i) {
    dead = is_dead(grandchild);
    if (!dead) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (!dead) kill(grandchild, SIGKILL);  // do not leave it behind
  BOOST_TEST(dead, "process " << grandchild << " outlived its parent's run");
}

BOOST_AUTO_TEST_CASE(timed_out_child_is_killed_with_its_group) {
  const std::string dir = conform::test::scratch_dir("isolate_timeout_group");
  const std::string pid_file = dir + "/grandchild.pid";
  std::vector<ChildTask> tasks = {{[pid_file] {
                                     pid_t pid = fork();
                                     if (pid == 0) {
                                       while (true) pause();
                                     }
                                     std::ofstream(pid_file) << pid;
                                     return sleep_for(30, "never");
                                   },
                                   0.3, dir + "/log.txt"}};
  auto results = run_all(tasks, 1);
  BOOST_TEST((results[0].end == End::timed_out));
  const std::string text = conform::test::read_file(pid_file);
  BOOST_REQUIRE(!text.empty());
  const pid_t grandchild = static_cast<pid_t>(std::stol(text));
  bool dead = false;
  for (int i = 0; i < 200 && !dead; ++i) {
    dead = is_dead(grandchild);
    if (!dead) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (!dead) kill(grandchild, SIGKILL);
  BOOST_TEST(dead);
}

// SIGINT while three tasks run: the one that ended is reported as it ended,
// the two still running are killed with their groups and reported
// interrupted, and the task never started gets no call.
BOOST_AUTO_TEST_CASE(an_interruption_kills_the_running_and_starts_no_more) {
  const std::string dir = conform::test::scratch_dir("isolate_interrupt");
  const std::string pid_file = dir + "/grandchild.pid";
  std::vector<ChildTask> tasks = {
      {[] { return std::string("done"); }, 30, dir + "/log.txt"},
      {[pid_file] {
         pid_t pid = fork();
         if (pid == 0)
           while (true) pause();
         std::ofstream(pid_file) << pid;
         return sleep_for(30, "never");
       },
       30, dir + "/log.txt"},
      {[] { return sleep_for(30, "never"); }, 30, dir + "/log.txt"},
      {[] { return std::string("not started"); }, 30, dir + "/log.txt"}};
  std::map<std::size_t, ChildResult> got;
  const auto started = std::chrono::steady_clock::now();
  Interruption interruption;
  run_isolated(tasks, 3, interruption, [&](std::size_t index, ChildResult r) {
    // The quick task's end is the user's Ctrl-C, once the grandchild is up.
    if (index == 0) {
      while (!fs::exists(pid_file) || conform::test::read_file(pid_file).empty())
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
      std::raise(SIGINT);
    }
    got[index] = std::move(r);
  });
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  BOOST_TEST(took < 10.0);
  BOOST_REQUIRE_EQUAL(got.size(), 3u);
  BOOST_TEST((got[0].end == End::exited));
  BOOST_TEST(got[0].output == "done");
  for (std::size_t i : {1u, 2u}) {
    BOOST_TEST((got[i].end == End::interrupted), i);
    BOOST_TEST(got[i].code == SIGINT);
    BOOST_TEST(got[i].output.empty());
  }
  BOOST_TEST(got.count(3) == 0u);
  const pid_t grandchild = static_cast<pid_t>(std::stol(conform::test::read_file(pid_file)));
  bool dead = false;
  for (int i = 0; i < 100 && !dead; ++i) {
    dead = is_dead(grandchild);
    if (!dead) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (!dead) kill(grandchild, SIGKILL);
  BOOST_TEST(dead, "the interrupted run's own process " << grandchild << " outlived it");
}

// A child with a grace period is asked to stop (stop_requested()) before its
// group is killed, so that it can end what it started and remove its files:
// past its time limit or interrupted, it does and is reported as such; one
// that does not stop is killed when its grace is over.
BOOST_AUTO_TEST_CASE(a_child_with_a_grace_period_is_asked_to_stop_first) {
  const std::string dir = conform::test::scratch_dir("isolate_grace");
  // Waits to be asked, then leaves `file` and ends.
  const auto tidy = [](const std::string& file) {
    return [file] {
      while (!stop_requested()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
      std::ofstream(file) << "cleaned";
      return std::string("stopped");
    };
  };
  const std::string log = dir + "/log.txt";
  const auto started = std::chrono::steady_clock::now();
  const auto results = run_all({{tidy(dir + "/timed"), 0.2, log, 20},
                                {[] { return sleep_for(30, "never"); }, 0.2, log, 0.3}},
                               2);
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  BOOST_TEST((results[0].end == End::timed_out));
  BOOST_TEST(conform::test::read_file(dir + "/timed") == "cleaned");
  BOOST_TEST((results[1].end == End::timed_out));
  BOOST_TEST(took >= 0.5, "the stubborn child was killed before its grace was over: " << took << " s");
  BOOST_TEST(took < 10.0, "a child that stopped when asked was waited for to its grace's end: " << took << " s");

  const std::string pid_file = dir + "/tidy.pid";
  std::map<std::size_t, ChildResult> got;
  Interruption interruption;
  run_isolated({{[] { return std::string("done"); }, 30, log},
                {[&tidy, pid_file, dir] {
                   std::ofstream(pid_file) << getpid();
                   return tidy(dir + "/interrupted")();
                 },
                 30, log, 20}},
               2, interruption, [&](std::size_t index, ChildResult r) {
                 if (index == 0) {
                   while (!fs::exists(pid_file) || conform::test::read_file(pid_file).empty())
                     std::this_thread::sleep_for(std::chrono::milliseconds(5));
                   std::raise(SIGINT);
                 }
                 got[index] = std::move(r);
               });
  BOOST_REQUIRE_EQUAL(got.size(), 2u);
  BOOST_TEST((got[1].end == End::interrupted));
  BOOST_TEST(got[1].code == SIGINT);
  BOOST_TEST(got[1].output.empty());
  BOOST_TEST(conform::test::read_file(dir + "/interrupted") == "cleaned");
}

BOOST_AUTO_TEST_CASE(describe_signal_names_the_signal_and_its_text) {
  BOOST_TEST(describe_signal(11) == "killed by SIGSEGV (Segmentation fault)");
  BOOST_TEST(describe_signal(SIGABRT) == "killed by SIGABRT (Aborted)");
  BOOST_TEST(describe_signal(SIGKILL) == "killed by SIGKILL (Killed)");
  BOOST_TEST(signal_name(SIGINT) == "SIGINT");
  // An unknown number still gives one readable line.
  const std::string unknown = describe_signal(200);
  BOOST_TEST(unknown.rfind("killed by signal 200 (", 0) == 0u, unknown);
  BOOST_TEST(unknown.back() == ')');
}

BOOST_AUTO_TEST_SUITE_END()

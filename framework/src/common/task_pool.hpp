// A fixed number of threads running tasks from a bounded queue: submit()
// blocks while the queue is full, so a producer faster than the workers
// (`conform check` reading a capture while connections are judged) holds
// at most `max_queued` tasks' data at once. With no threads, submit() runs
// the task itself. The first exception a task throws is rethrown by
// wait(); tasks still queued then are not started.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace conform {

class TaskPool {
 public:
  TaskPool(unsigned threads, std::size_t max_queued);
  ~TaskPool();
  TaskPool(const TaskPool&) = delete;
  TaskPool& operator=(const TaskPool&) = delete;

  void submit(std::function<void()> task);
  /// Waits until every task submitted has run; rethrows the first exception.
  void wait();
  /// Whether a task has thrown (wait() then rethrows it): a producer stops
  /// producing instead of feeding a pool that drops its tasks.
  bool failed();

 private:
  void work();

  std::size_t max_queued_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::function<void()>> queue_;
  std::size_t running_ = 0;
  bool stopping_ = false;
  std::exception_ptr error_;
  std::vector<std::thread> threads_;
};

}  // namespace conform

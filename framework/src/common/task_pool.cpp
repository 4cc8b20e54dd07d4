// Running tasks on a fixed set of threads.
#include "common/task_pool.hpp"

#include <algorithm>
#include <utility>

namespace conform {

TaskPool::TaskPool(unsigned threads, std::size_t max_queued) : max_queued_(std::max<std::size_t>(1, max_queued)) {
  for (unsigned i = 0; i < threads; ++i) threads_.emplace_back([this] { work(); });
}

TaskPool::~TaskPool() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    queue_.clear();
  }
  changed_.notify_all();
  for (auto& t : threads_) t.join();
}

void TaskPool::submit(std::function<void()> task) {
  if (threads_.empty()) {
    if (!error_) try {
        task();
      } catch (...) {
        error_ = std::current_exception();
      }
    return;
  }
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return queue_.size() < max_queued_ || error_; });
  if (error_) return;
  queue_.push_back(std::move(task));
  changed_.notify_all();
}

bool TaskPool::failed() {
  std::lock_guard lock(mutex_);
  return error_ != nullptr;
}

void TaskPool::wait() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return (queue_.empty() && running_ == 0) || (error_ && running_ == 0); });
  queue_.clear();
  if (auto error = std::exchange(error_, nullptr)) std::rethrow_exception(error);
}

void TaskPool::work() {
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
    if (stopping_) return;
    auto task = std::move(queue_.front());
    queue_.pop_front();
    ++running_;
    lock.unlock();
    std::exception_ptr failed;
    try {
      task();
    } catch (...) {
      failed = std::current_exception();
    }
    lock.lock();
    --running_;
    if (failed && !error_) error_ = failed;
    if (error_) queue_.clear();
    changed_.notify_all();
  }
}

}  // namespace conform

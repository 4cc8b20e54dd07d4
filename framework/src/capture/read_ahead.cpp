// Reading a capture on a thread of its own.
#include "capture/read_ahead.hpp"

#include <condition_variable>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace conform {

namespace {

// Datagrams handed over at once: one lock and wake-up per batch, not per
// datagram. Their payload buffers are reused, so a batch allocates only
// until its buffers have grown to the capture's datagrams.
constexpr std::size_t kBatchDatagrams = 256;
constexpr std::size_t kBatches = 8;

struct Batch {
  std::vector<CapturedDatagram> datagrams;
  std::size_t used = 0;
  /// The file offset for_each_datagram gave while this batch filled.
  std::optional<std::uint64_t> offset;
};

// Thrown into for_each_datagram when the caller has stopped.
struct Stopped {};

class Queue {
 public:
  Queue() {
    for (std::size_t k = 0; k < kBatches; ++k) empty_.push_back(std::make_unique<Batch>());
  }
  // The reader's side.
  std::unique_ptr<Batch> take_empty() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return !empty_.empty() || stopped_; });
    if (stopped_) throw Stopped{};
    auto batch = std::move(empty_.front());
    empty_.pop_front();
    batch->used = 0;
    batch->offset.reset();
    return batch;
  }
  void hand_over(std::unique_ptr<Batch> batch) {
    {
      std::lock_guard lock(mutex_);
      full_.push_back(std::move(batch));
    }
    changed_.notify_all();
  }
  void finish(std::exception_ptr error) {
    {
      std::lock_guard lock(mutex_);
      done_ = true;
      error_ = error;
    }
    changed_.notify_all();
  }
  // The caller's side: the next batch, or nullptr once the reading is over.
  std::unique_ptr<Batch> take_full() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return !full_.empty() || done_; });
    if (full_.empty()) return nullptr;
    auto batch = std::move(full_.front());
    full_.pop_front();
    return batch;
  }
  void give_back(std::unique_ptr<Batch> batch) {
    {
      std::lock_guard lock(mutex_);
      empty_.push_back(std::move(batch));
    }
    changed_.notify_all();
  }
  void stop() {
    {
      std::lock_guard lock(mutex_);
      stopped_ = true;
    }
    changed_.notify_all();
  }
  std::exception_ptr error() {
    std::lock_guard lock(mutex_);
    return error_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::unique_ptr<Batch>> empty_, full_;
  bool done_ = false, stopped_ = false;
  std::exception_ptr error_;
};

}  // namespace

CaptureSummary for_each_datagram_read_ahead(const std::string& path,
                                            const std::function<void(const CapturedDatagram&)>& on_datagram,
                                            const std::function<void(std::uint64_t offset)>& on_offset) {
  Queue queue;
  CaptureSummary summary;
  std::thread reader([&] {
    std::exception_ptr error;
    try {
      auto batch = queue.take_empty();
      std::function<void(std::uint64_t)> note_offset;
      if (on_offset) note_offset = [&](std::uint64_t offset) { batch->offset = offset; };
      summary = for_each_datagram(
          path,
          [&](const CapturedDatagram& d) {
            if (batch->used == batch->datagrams.size()) batch->datagrams.emplace_back();
            batch->datagrams[batch->used++] = d;
            if (batch->used < kBatchDatagrams) return;
            queue.hand_over(std::move(batch));
            batch = queue.take_empty();
          },
          note_offset);
      if (batch->used) queue.hand_over(std::move(batch));
    } catch (const Stopped&) {
    } catch (...) {
      error = std::current_exception();
    }
    queue.finish(error);
  });
  try {
    while (auto batch = queue.take_full()) {
      for (std::size_t k = 0; k < batch->used; ++k) on_datagram(batch->datagrams[k]);
      if (batch->offset && on_offset) on_offset(*batch->offset);
      queue.give_back(std::move(batch));
    }
  } catch (...) {
    queue.stop();
    reader.join();
    throw;
  }
  reader.join();
  if (const auto error = queue.error()) std::rethrow_exception(error);
  return summary;
}

}  // namespace conform

// `conform check`'s progress line: on a terminal, one line on stderr,
// rewritten in place at most four times a second, while the captures are
// read (each connection judged as it ends; "judging again" for a capture
// read a second time, "splitting" for one a shard splits):
//
//   judging big.pcap: 1.21 of 2.41 GB (50%), 96 connections open, 5000 judged, 310 MB/s, 4 s left
//
// The rate and what is left count every reading. Nothing when stderr is
// not a terminal, so logs and pipes hold only results.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>

namespace conform {

class CheckProgress {
 public:
  /// Shown only when `enabled` and stderr is a terminal.
  explicit CheckProgress(bool enabled);
  ~CheckProgress();
  CheckProgress(const CheckProgress&) = delete;
  CheckProgress& operator=(const CheckProgress&) = delete;

  /// The bytes the readings of every capture will read.
  void set_total(std::uint64_t bytes) { total_ = bytes; }
  /// A capture to read once more than set_total() counted.
  void add_total(std::uint64_t bytes) { total_ += bytes; }
  /// Starts reading a capture of `bytes` ("splitting x.pcap", "judging x.pcap").
  void start(std::string what, std::uint64_t bytes);
  /// How far into the current capture the reading is, and how many
  /// connections are open there.
  void at(std::uint64_t offset, std::size_t open);
  /// One more connection judged (any thread).
  void judged() { ++judged_; }
  /// The current capture read to its end.
  void finish_capture();
  /// Clears the line.
  void done();

 private:
  void draw(bool force);

  bool shown_;
  std::uint64_t total_ = 0, done_bytes_ = 0, capture_bytes_ = 0, offset_ = 0;
  std::size_t open_ = 0;
  std::atomic<std::size_t> judged_{0};
  std::string what_;
  std::chrono::steady_clock::time_point start_, drawn_;
  bool drew_ = false;
};

}  // namespace conform

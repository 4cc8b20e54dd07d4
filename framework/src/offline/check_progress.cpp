// Drawing `conform check`'s progress line.
#include "offline/check_progress.hpp"

#include <fmt/format.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace conform {

namespace {

std::string size_text(std::uint64_t bytes) {
  if (bytes >= 1'000'000'000) return fmt::format("{:.2f} GB", bytes / 1e9);
  return fmt::format("{:.1f} MB", bytes / 1e6);
}

}  // namespace

CheckProgress::CheckProgress(bool enabled)
    : shown_(enabled && isatty(STDERR_FILENO)), start_(std::chrono::steady_clock::now()) {}

CheckProgress::~CheckProgress() { done(); }

void CheckProgress::start(std::string what, std::uint64_t bytes) {
  what_ = std::move(what);
  capture_bytes_ = bytes;
  offset_ = 0;
  open_ = 0;
  draw(true);
}

void CheckProgress::at(std::uint64_t offset, std::size_t open) {
  offset_ = std::min(offset, capture_bytes_);
  open_ = open;
  draw(false);
}

void CheckProgress::finish_capture() {
  done_bytes_ += capture_bytes_;
  offset_ = capture_bytes_ = 0;
}

void CheckProgress::done() {
  if (!shown_ || !drew_) return;
  fmt::print(stderr, "\r\033[K");
  std::fflush(stderr);
  drew_ = false;
}

void CheckProgress::draw(bool force) {
  if (!shown_) return;
  const auto now = std::chrono::steady_clock::now();
  if (!force && drew_ && now - drawn_ < std::chrono::milliseconds(250)) return;
  drawn_ = now;
  drew_ = true;
  const std::uint64_t read = done_bytes_ + offset_;
  const double seconds = std::chrono::duration<double>(now - start_).count();
  const double rate = seconds > 0 ? read / seconds : 0;
  std::string line = fmt::format("{}: {} of {}", what_, size_text(offset_), size_text(capture_bytes_));
  if (capture_bytes_) line += fmt::format(" ({}%)", offset_ * 100 / capture_bytes_);
  line += fmt::format(", {} connection{} open, {} judged", open_, open_ == 1 ? "" : "s", judged_.load());
  if (rate > 0) {
    line += fmt::format(", {:.0f} MB/s", rate / 1e6);
    if (total_ > read) line += fmt::format(", {:.0f} s left", (total_ - read) / rate);
  }
  // Never wider than the terminal: a line that wraps leaves its first row
  // behind at each redraw.
  if (winsize w{}; ioctl(STDERR_FILENO, TIOCGWINSZ, &w) == 0 && w.ws_col > 1 && line.size() >= w.ws_col)
    line.resize(w.ws_col - 1);
  fmt::print(stderr, "\r\033[K{}", line);
  std::fflush(stderr);
}

}  // namespace conform

// A run's stop request: SIGINT (Ctrl-C), SIGTERM, SIGHUP or SIGQUIT turned
// into a flag the run loops read between steps. The handler does no work:
// it writes the signal's number to a pipe (the self-pipe pattern), and
// SA_RESETHAND puts the default action back as it runs, so a second signal
// ends the process at once, whatever the loops are doing.
#pragma once

namespace conform {

class Interruption {
 public:
  /// Catches the four signals until destroyed, which restores the handlers
  /// found. One at a time per process. Throws std::system_error when the
  /// pipe cannot be made.
  Interruption();
  ~Interruption();
  Interruption(const Interruption&) = delete;
  Interruption& operator=(const Interruption&) = delete;

  /// The first signal caught, 0 while none was. Never blocks.
  int signal();
  /// Readable once a signal was caught: for poll(2) beside other descriptors.
  int fd() const { return read_fd_; }
  /// 128 + the signal (130 for SIGINT): the exit code of an interrupted
  /// command, as a shell gives a program a signal ended. 0 while none was caught.
  int exit_code() { return signal() ? 128 + signal() : 0; }

  /// In a child forked while an Interruption lives: the default actions
  /// back, so a signal meant for the child ends it instead of asking the
  /// parent to stop.
  static void reset_in_child();

 private:
  int read_fd_ = -1;
  int write_fd_ = -1;
  int caught_ = 0;
};

}  // namespace conform

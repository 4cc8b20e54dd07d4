// Forwarding one direction of a relayed connection.
#include "forwarding.hpp"

#include "sockets.hpp"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>
#include <vector>

namespace tcp_relay {
namespace {

void forward_copying(int from, int to, std::int64_t piece_bytes) {
  std::vector<std::uint8_t> piece(static_cast<std::size_t>(piece_bytes));
  while (true) {
    ssize_t n = ::recv(from, piece.data(), piece.size(), 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    if (!write_all(to, {piece.data(), static_cast<std::size_t>(n)})) return;
  }
}

// A pipe with room for one piece, or why there is none.
struct Pipe {
  Fd read, write;
  std::string problem;
};

Pipe make_pipe(std::int64_t piece_bytes) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return {Fd(), Fd(), std::string("pipe2: ") + std::strerror(errno)};
  Pipe p{Fd(fds[0]), Fd(fds[1]), {}};
  // The kernel rounds the size up to a power of two pages; its limit is 2^31.
  const char* why = piece_bytes > (1 << 30) ? "above 1 GiB"
                    : ::fcntl(fds[1], F_SETPIPE_SZ, static_cast<int>(piece_bytes)) < 0
                        ? std::strerror(errno)
                        : nullptr;
  if (why)
    p.problem = "piece_bytes = " + std::to_string(piece_bytes) +
                ": a pipe cannot hold that much here (F_SETPIPE_SZ: " + why +
                "; see /proc/sys/fs/pipe-max-size), so splice forwarding cannot move whole pieces";
  return p;
}

// splice(2) into a socket raises SIGPIPE at a closed peer (it has no
// MSG_NOSIGNAL); blocked on this thread while it forwards, and a pending one
// taken before the mask is restored.
class SigpipeBlocked {
 public:
  SigpipeBlocked() {
    sigemptyset(&pipe_);
    sigaddset(&pipe_, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_, &before_);
  }
  ~SigpipeBlocked() {
    const timespec now{0, 0};
    while (sigtimedwait(&pipe_, nullptr, &now) == SIGPIPE) {
    }
    pthread_sigmask(SIG_SETMASK, &before_, nullptr);
  }
  SigpipeBlocked(const SigpipeBlocked&) = delete;
  SigpipeBlocked& operator=(const SigpipeBlocked&) = delete;

 private:
  sigset_t pipe_, before_;
};

// Moves `bytes` out of the pipe into `to`; false on an error at `to`.
bool drain(int pipe_read, int to, ssize_t bytes) {
  while (bytes > 0) {
    ssize_t n = ::splice(pipe_read, nullptr, to, nullptr, static_cast<std::size_t>(bytes), 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes -= n;
  }
  return true;
}

void forward_splicing(int from, int to, std::int64_t piece_bytes) {
  Pipe pipe = make_pipe(piece_bytes);
  if (!pipe.problem.empty() || !pipe.read) return;  // forwarding_problem() said so before the run
  SigpipeBlocked quiet;
  while (true) {
    // Returns once some bytes are queued, up to a piece: the read of `copy`.
    ssize_t n = ::splice(from, nullptr, pipe.write.get(), nullptr,
                         static_cast<std::size_t>(piece_bytes), 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    if (!drain(pipe.read.get(), to, n)) return;
  }
}

}  // namespace

void forward(int from, int to, std::int64_t piece_bytes, Forwarding how) {
  if (how == Forwarding::splice)
    forward_splicing(from, to, piece_bytes);
  else
    forward_copying(from, to, piece_bytes);
  ::shutdown(to, SHUT_WR);
}

std::string forwarding_problem(std::int64_t piece_bytes, Forwarding how) {
  if (how == Forwarding::copy) return {};
  return make_pipe(piece_bytes).problem;
}

}  // namespace tcp_relay

// The client's transfers.
#include "client.hpp"

#include "sockets.hpp"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <poll.h>
#include <sys/socket.h>
#include <thread>

namespace tcp_relay {
namespace {

using Clock = std::chrono::steady_clock;
constexpr std::size_t kReadBytes = 64 * 1024;

// Reads exactly `bytes` before `deadline`; an empty string or why not.
std::string read_answer(int fd, std::int64_t bytes, std::int64_t delay_us, Clock::time_point deadline,
                        std::vector<std::uint8_t>& buffer) {
  bool woken = false;  // by poll(): bytes are queued, the delay was taken
  while (bytes > 0) {
    if (delay_us > 0 && !woken) std::this_thread::sleep_for(std::chrono::microseconds(delay_us));
    woken = false;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) return "time limit reached";
    // Bytes already queued are taken at once; poll() only waits for more.
    ssize_t n = ::recv(fd, buffer.data(), std::min<std::size_t>(buffer.size(), bytes), MSG_DONTWAIT);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      pollfd p{fd, POLLIN, 0};
      const int ready = ::poll(&p, 1, static_cast<int>(left.count()));
      if (ready == 0) return "time limit reached";
      woken = ready > 0;
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return std::string("recv: ") + std::strerror(errno);
    if (n == 0) return "the answer ended early";
    bytes -= n;
  }
  return {};
}

}  // namespace

ClientResult run_client(const RunSettings& s, std::uint16_t port, SocketRegistry& sockets,
                        TcpInfoSampler& sampler) {
  ClientResult result;
  const auto deadline = Clock::now() + std::chrono::milliseconds(s.time_limit_ms);
  std::vector<Fd> conns;
  for (std::int64_t c = 0; c < s.connections; ++c) {
    auto conn = connect_loopback(port, s.client);
    if (!conn.fd) {
      result.problem = conn.problem;
      break;
    }
    // A request stuck behind a stalled window must not outlive the limit either.
    const timeval limit{static_cast<time_t>(s.time_limit_ms / 1000),
                        static_cast<suseconds_t>(s.time_limit_ms % 1000 * 1000)};
    ::setsockopt(conn.fd.get(), SOL_SOCKET, SO_SNDTIMEO, &limit, sizeof limit);
    sockets.add(conn.fd.get(), "client");
    conns.push_back(std::move(conn.fd));
  }
  const std::vector<std::uint8_t> request(static_cast<std::size_t>(s.request_bytes), 'q');
  std::vector<std::uint8_t> buffer(kReadBytes);
  for (std::int64_t i = 0; result.problem.empty() && i < s.transfers; ++i) {
    const std::int64_t c = i % s.connections;
    const int fd = conns[static_cast<std::size_t>(c)].get();
    const auto start = Clock::now();
    sampler.transfer_started(i);
    if (!write_all(fd, request)) result.problem = "the request could not be sent";
    if (result.problem.empty())
      result.problem = read_answer(fd, s.response_bytes, s.reader_delay_us, deadline, buffer);
    sampler.transfer_ended();
    const double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    result.transfers.push_back({i, c, ms, result.problem.empty()});
  }
  for (auto& conn : conns) sockets.remove(conn.get());
  return result;  // closing the connections ends the server's (and relay's) side
}

}  // namespace tcp_relay

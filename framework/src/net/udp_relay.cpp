// The relay's sockets, its real-time hold queue and its taps. The only code
// under net/ that reads a clock: steady_clock, since it forwards real traffic.
#include "net/udp_relay.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>

namespace conform {
namespace {

constexpr std::size_t kMaxDatagram = 65535;
constexpr std::size_t kMaxRelayClients = 1000;

sockaddr_in loopback(std::uint16_t port) {
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = htons(port);
  return a;
}

// A non-blocking UDP socket bound to 127.0.0.1:port; -1 with `error` set.
int bind_loopback(std::uint16_t port, std::string& error) {
  int fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    error = std::string("socket: ") + std::strerror(errno);
    return -1;
  }
  sockaddr_in a = loopback(port);
  if (bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    error = "bind 127.0.0.1:" + std::to_string(port) + ": " + std::strerror(errno);
    close(fd);
    return -1;
  }
  return fd;
}

std::uint16_t bound_port(int fd) {
  sockaddr_in a{};
  socklen_t len = sizeof a;
  getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  return ntohs(a.sin_port);
}

}  // namespace

// One client: the socket the server sees it as, and the path's two links.
struct UdpRelay::Session {
  std::uint16_t client_port = 0;
  int fd = -1;
  CaptureWriter* tap = nullptr;
  std::unique_ptr<Link> up, down;
};

// A datagram a link holds until its arrival time.
struct UdpRelay::Held {
  Instant at;
  std::uint64_t seq = 0;
  int fd = -1;
  std::uint16_t to_port = 0;
  CaptureWriter* tap = nullptr;
  UdpEndpoint from{}, to{};
  std::vector<std::uint8_t> payload;
  // Earliest on top of std::push_heap's max-heap; ties in scheduling order.
  bool operator<(const Held& o) const { return at != o.at ? at > o.at : seq > o.seq; }
};

namespace {

// Without a key log the relay reads no packet, so selectors by content
// would match nothing and the case would run on a path it did not ask for.
std::string unsupported_selectors(const NetConfig& c) {
  for (const auto& [key, list] : c.selector_lists())
    for (const DatagramSelector& s : *list)
      if (s.reads_contents())
        return std::string("the relay cannot select packets by content without a key log to read (none was "
                           "given it to follow): network.") +
               key + " '" + s.text + "' uses " + s.content_part();
  return {};
}

}  // namespace

UdpRelay::UdpRelay(NetConfig config, std::uint64_t seed, std::uint16_t server_port,
                   CaptureSource captures, std::uint16_t listen_port)
    : config_(std::move(config)), seed_(seed), server_port_(server_port), captures_(std::move(captures)) {
  unsupported_ = unsupported_selectors(config_);
  if (config_.selectors_read_contents()) reader_ = std::make_unique<DatagramReader>();
  open(listen_port);
}

void UdpRelay::follow_key_log(const std::string& path) {
  key_logs_.follow(path);
  unsupported_.clear();
}

std::optional<DatagramContents> UdpRelay::read_contents(Instant now, UdpEndpoint from, UdpEndpoint to,
                                                        const std::vector<std::uint8_t>& payload) {
  if (!reader_) return std::nullopt;
  // The sender logged the secrets before it sent the packet: read them first.
  for (const std::string& line : key_logs_.new_lines()) reader_->key_log(line);
  DatagramContents contents = reader_->read(now, from, to, payload);
  if (std::any_of(contents.packets.begin(), contents.packets.end(),
                  [](const PacketContents& p) { return !p.packet_number; }))
    ++unread_[from.address == kServerAddress ? 1 : 0];
  return contents;
}

std::string UdpRelay::unread_by_selectors() const {
  for (const auto& [key, list] : config_.selector_lists())
    for (const DatagramSelector& s : *list) {
      const std::uint64_t unread = unread_[s.sender == "server" ? 1 : 0];
      if (s.reads_contents() && unread > 0)
        return "network." + std::string(key) + " '" + s.text + "' reads the packets of the " +
               (s.sender == "server" ? "server" : "clients") + ", but " + std::to_string(unread) +
               " of their datagrams carried packets the key logs could not read yet when they passed the relay "
               "(a program that writes its key log late): the path is not the one the case asks for";
    }
  return {};
}


void UdpRelay::open(std::uint16_t listen_port) {
  buffer_.resize(kMaxDatagram);
  listen_fd_ = bind_loopback(listen_port, error_);
  if (listen_fd_ < 0) return;
  wake_fd_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (wake_fd_ < 0) {
    error_ = std::string("eventfd: ") + std::strerror(errno);
    return;
  }
  port_ = bound_port(listen_fd_);
}

std::vector<std::string> UdpRelay::idle_selectors() const {
  std::vector<const Link*> links;
  for (const auto& session : sessions_) links.insert(links.end(), {session->up.get(), session->down.get()});
  return conform::idle_selectors(config_, links);
}

UdpRelay::~UdpRelay() {
  stop();
  for (auto& s : sessions_)
    if (s->fd >= 0) close(s->fd);
  if (listen_fd_ >= 0) close(listen_fd_);
  if (wake_fd_ >= 0) close(wake_fd_);
}

Instant UdpRelay::clock() const {
  const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                      std::chrono::steady_clock::now().time_since_epoch())
                      .count();
  return Instant::from_ns(ns - start_ns_);
}

void UdpRelay::start() {
  if (!error_.empty() || thread_.joinable()) return;
  start_ns_ = 0;
  start_ns_ = clock().ns();
  if (captures_) server_tap_ = captures_("server");
  thread_ = std::thread([this] { loop(); });
}

void UdpRelay::drain(std::uint32_t at_most_ms) {
  if (!thread_.joinable()) return;
  const std::uint64_t asked = ++drain_asked_;
  const std::uint64_t one = 1;
  [[maybe_unused]] auto n = write(wake_fd_, &one, sizeof one);
  std::unique_lock lock(drain_mutex_);
  drained_cv_.wait_for(lock, std::chrono::milliseconds(at_most_ms), [&] { return drained_ >= asked; });
}

void UdpRelay::stop() {
  if (!thread_.joinable()) return;
  stopping_ = true;
  const std::uint64_t one = 1;
  [[maybe_unused]] auto n = write(wake_fd_, &one, sizeof one);
  thread_.join();
}

UdpRelay::Session& UdpRelay::session_for(std::uint16_t client_port) {
  for (auto& s : sessions_)
    if (s->client_port == client_port) return *s;
  const std::size_t i = sessions_.size();
  auto s = std::make_unique<Session>();
  s->client_port = client_port;
  std::string ignored;
  s->fd = bind_loopback(0, ignored);  // -1: this client's datagrams are lost
  const std::string name = "client-" + std::to_string(i + 1);
  s->up = std::make_unique<Link>(config_.sent_by("client"), "client", name, seed_, 2 * i);
  s->down = std::make_unique<Link>(config_.sent_by("server"), "server", "server", seed_, 2 * i + 1);
  if (captures_) s->tap = captures_(i == 0 ? "client" : name);
  sessions_.push_back(std::move(s));
  return *sessions_.back();
}

void UdpRelay::schedule(LinkOutcome out, int to_fd, std::uint16_t to_port, CaptureWriter* tap,
                        UdpEndpoint from, UdpEndpoint to) {
  if (out.lost) ++stats_.lost;
  for (auto& a : out.arrivals) {
    stats_.corrupted += a.corrupted;
    stats_.duplicated += a.duplicate;
    held_.push_back({a.at, next_seq_++, to_fd, to_port, tap, from, to, std::move(a.payload)});
    std::push_heap(held_.begin(), held_.end());
  }
}

void UdpRelay::read_clients(Instant now) {
  std::vector<std::uint8_t>& buf = buffer_;
  for (;;) {
    sockaddr_in src{};
    socklen_t len = sizeof src;
    ssize_t n = recvfrom(listen_fd_, buf.data(), buf.size(), 0, reinterpret_cast<sockaddr*>(&src), &len);
    if (n < 0) return;
    // Loopback only: anything from elsewhere is not ours to forward.
    if (src.sin_addr.s_addr != htonl(INADDR_LOOPBACK)) continue;
    const std::uint16_t port = ntohs(src.sin_port);
    if (sessions_.size() >= kMaxRelayClients && std::none_of(sessions_.begin(), sessions_.end(), [&](auto& s) {
          return s->client_port == port;
        }))
      continue;
    Session& s = session_for(port);
    const UdpEndpoint client{kClientAddress, port}, server{kServerAddress, server_port_};
    std::vector<std::uint8_t> payload(buf.begin(), buf.begin() + n);
    if (s.tap) s.tap->write_udp(now.ns(), client, server, payload);
    ++stats_.sent;
    const auto contents = read_contents(now, client, server, payload);
    schedule(s.up->send(now, std::move(payload), contents ? &*contents : nullptr), s.fd, server_port_, server_tap_,
             client, server);
  }
}

void UdpRelay::read_server(Session& s, Instant now) {
  std::vector<std::uint8_t>& buf = buffer_;
  for (;;) {
    sockaddr_in src{};
    socklen_t len = sizeof src;
    ssize_t n = recvfrom(s.fd, buf.data(), buf.size(), 0, reinterpret_cast<sockaddr*>(&src), &len);
    if (n < 0) return;
    if (src.sin_addr.s_addr != htonl(INADDR_LOOPBACK) || ntohs(src.sin_port) != server_port_) continue;
    const UdpEndpoint client{kClientAddress, s.client_port}, server{kServerAddress, server_port_};
    std::vector<std::uint8_t> payload(buf.begin(), buf.begin() + n);
    if (server_tap_) server_tap_->write_udp(now.ns(), server, client, payload);
    ++stats_.sent;
    const auto contents = read_contents(now, server, client, payload);
    schedule(s.down->send(now, std::move(payload), contents ? &*contents : nullptr), listen_fd_, s.client_port,
             s.tap, server, client);
  }
}

void UdpRelay::release(Instant until) {
  while (!held_.empty() && held_.front().at <= until) {
    std::pop_heap(held_.begin(), held_.end());
    Held h = std::move(held_.back());
    held_.pop_back();
    sockaddr_in to = loopback(h.to_port);
    // No socket for this client, or the receiver's buffer is full: lost, as
    // on a real host.
    if (h.fd < 0 ||
        sendto(h.fd, h.payload.data(), h.payload.size(), 0, reinterpret_cast<sockaddr*>(&to), sizeof to) < 0) {
      ++stats_.lost;
      continue;
    }
    ++stats_.arrived;
    // Stamped when it really left the relay, which may be a little after
    // the link's arrival time: the capture shows what the receiver saw.
    if (h.tap) h.tap->write_udp(clock().ns(), h.from, h.to, h.payload);
  }
}

void UdpRelay::loop() {
  while (!stopping_) {
    std::vector<pollfd> fds = {{wake_fd_, POLLIN, 0}, {listen_fd_, POLLIN, 0}};
    for (auto& s : sessions_)
      if (s->fd >= 0) fds.push_back({s->fd, POLLIN, 0});
    timespec wait{1, 0};
    if (!held_.empty()) {
      const std::int64_t ns = std::max<std::int64_t>(0, (held_.front().at - clock()).ns());
      wait = {static_cast<time_t>(ns / 1'000'000'000), static_cast<long>(ns % 1'000'000'000)};
    }
    ppoll(fds.data(), fds.size(), &wait, nullptr);
    if (stopping_) break;
    std::uint64_t woken = 0;
    [[maybe_unused]] auto n = read(wake_fd_, &woken, sizeof woken);
    // A pass begun after a drain request reads every socket to its end:
    // if it leaves nothing held, everything sent before the request is out.
    const std::uint64_t asked = drain_asked_.load();
    const Instant now = clock();
    read_clients(now);
    for (std::size_t i = 0; i < sessions_.size(); ++i)
      if (sessions_[i]->fd >= 0) read_server(*sessions_[i], now);
    release(clock());
    if (held_.empty() && asked > 0) {
      const std::lock_guard lock(drain_mutex_);
      drained_ = asked;
      drained_cv_.notify_all();
    }
  }
}

}  // namespace conform

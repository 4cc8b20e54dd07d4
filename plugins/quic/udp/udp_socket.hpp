// A non-blocking IPv4 UDP socket and its addresses, for the real-socket
// driver (the core never touches sockets). IPv4 only: the tool's peers run
// on loopback or a lab network, and its pcap synthesises IPv4 headers.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "codec/buffer.hpp"

namespace conform::quic::udp {

struct UdpAddress {
  uint32_t ip = 0;  ///< host byte order
  uint16_t port = 0;

  /// "a.b.c.d:port"; nullopt when malformed.
  static std::optional<UdpAddress> parse(std::string_view text);
  std::string to_string() const;
  bool operator==(const UdpAddress&) const = default;
  auto operator<=>(const UdpAddress&) const = default;
};

class UdpSocket {
 public:
  /// Binds a non-blocking socket to `local` (port 0: any free port).
  /// Errors: the failing system call and errno's text.
  static std::optional<UdpSocket> bind(UdpAddress local, std::string& error);
  UdpSocket(UdpSocket&& o) noexcept : fd_(std::exchange(o.fd_, -1)) {}
  UdpSocket& operator=(UdpSocket&& o) noexcept;
  ~UdpSocket();

  /// Fixes the peer (a client's server), so local_address() names the
  /// interface used. Errors as bind.
  bool connect(UdpAddress peer, std::string& error);
  int fd() const { return fd_; }
  UdpAddress local_address() const;
  /// Sends one datagram, waiting up to 100 ms while the send buffer is full.
  /// false: not sent (the caller counts it as lost; QUIC recovers).
  bool send(UdpAddress to, ByteView datagram);
  /// One datagram into `buf`; nullopt when none is waiting.
  std::optional<size_t> receive(std::span<uint8_t> buf, UdpAddress& from);

 private:
  explicit UdpSocket(int fd) : fd_(fd) {}
  int fd_ = -1;
};

}  // namespace conform::quic::udp

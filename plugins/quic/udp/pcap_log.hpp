// A pcap of the datagrams one endpoint sent and received, so a run of
// conform-quic can be dissected (by conform or Wireshark) with its key log
// and without capture privileges. Each datagram gets a synthesised IPv4 and
// UDP header (LINKTYPE_RAW); the UDP checksum is 0, "not computed", which
// RFC 768 allows over IPv4.
#pragma once

#include <memory>
#include <string>

#include "codec/buffer.hpp"
#include "udp/udp_socket.hpp"

namespace conform::quic::udp {

class PcapLog {
 public:
  /// Creates `path`. Errors: libpcap's message, with the path.
  static std::unique_ptr<PcapLog> create(const std::string& path, std::string& error);
  ~PcapLog();
  /// Appends one datagram, stamped with the wall clock, and flushes so the
  /// file is complete even if the process is killed.
  void record(UdpAddress from, UdpAddress to, ByteView payload);

 private:
  PcapLog() = default;
  struct Handles;
  std::unique_ptr<Handles> h_;
};

}  // namespace conform::quic::udp

// The QUIC v1 dissector: captured UDP datagrams in, a decrypted timeline out
// (RFC 9000, RFC 9001). It tells connections apart by connection IDs (and by
// addresses when a connection ID is empty or unknown), derives Initial keys
// from the client's first Destination Connection ID (RFC 9001 §5.2), takes
// Handshake, 0-RTT and 1-RTT secrets from a key log by the ClientHello's
// random, follows Retry (§5.8) and key updates (§6), and learns each
// endpoint's connection IDs (and so the short header's DCID length) from
// long headers and NEW_CONNECTION_ID frames.
#pragma once

#include "capture/pcap_reader.hpp"
#include "dissect/key_log.hpp"
#include "dissect/timeline.hpp"

#include <memory>
#include <span>

namespace conform::dissect {

class Dissector {
 public:
  /// `keys` must outlive the Dissector; an empty KeyLog decrypts Initial
  /// packets only.
  explicit Dissector(const KeyLog& keys);
  ~Dissector();
  Dissector(const Dissector&) = delete;
  Dissector& operator=(const Dissector&) = delete;

  /// Adds the next datagram in capture order.
  void add(const CapturedDatagram& datagram);
  /// The timeline of everything added, moved out; the Dissector is spent.
  Timeline finish();

 private:
  struct State;
  std::unique_ptr<State> s_;
};

/// Dissects a whole capture's datagrams.
Timeline dissect(std::span<const CapturedDatagram> datagrams, const KeyLog& keys);

}  // namespace conform::dissect

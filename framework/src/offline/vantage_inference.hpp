// Where a capture made elsewhere was taken, read from the capture itself
// (docs/offline.md, "Vantage"). Signs of a host, each settling one side:
//
//   one host  Every datagram went between two ports of one IP address:
//             both endpoints ran on the machine that recorded them. The
//             only sign a capture without QUIC gives (TCP segments).
//   sender    An endpoint's datagrams all carry a UDP checksum left for
//             the network card to finish (offload: the field holds the
//             pseudo-header's sum), or some were recorded as GSO
//             super-datagrams: recorded on its machine before they left.
//   routed    An endpoint's datagrams all came with a TTL (IPv6: Hop
//             Limit) below the initial value senders use: routers lowered
//             it before the capture, which is therefore not on its
//             machine.
//
// and two signs from the ACK frames each endpoint sent about the other's
// packets the capture saw:
//
//   reaction  An endpoint's ACK, less the ACK Delay it reports (RFC 9000
//             §13.2.5; Initial and Handshake ACKs are sent at once,
//             §13.2.1), follows the acknowledged packet by the time that
//             packet and the ACK spent between the capture point and the
//             endpoint: near zero on its host, about a round trip on its
//             peer's host.
//   gaps      A packet the capture saw that no ACK ever covered, although
//             a later ACK acknowledged a higher number of its space
//             (between its ranges or below them), never reached the
//             endpoint: it was lost beyond the capture point, which is
//             therefore not the endpoint's receive side. (Initials a Retry
//             abandoned are left out.)
//
// An endpoint is where the capture was taken when it skipped none of what
// the capture saw and a host sign says so, or, without one, it reacts
// within kNearNs (and within a quarter of its peer's reaction, unless that
// is within kNearNs too). Both endpoints: `both`; one: that one; none:
// `path`. An endpoint none of whose ACKs the capture shows (no key log, or
// it never answered) leaves the answer ambiguous: what the capture saw
// arriving may not have reached it.
#pragma once

#include "capture/vantage.hpp"
#include "dissect/timeline.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace conform {

/// What the capture shows of one endpoint's acknowledgements.
struct AckerSigns {
  /// ACK frames read (decrypted), and those whose largest acknowledged
  /// packet the capture saw.
  std::uint64_t acks = 0;
  std::uint64_t samples = 0;
  /// The smallest reaction among them (ns, ACK Delay removed, never negative).
  std::optional<std::int64_t> reaction_ns;
  /// Packets of the peer the capture saw that the endpoint's ACKs skipped
  /// for good, and the capture frame of the first.
  std::uint64_t skipped = 0;
  std::uint64_t first_skipped_frame = 0;
  /// Datagrams this endpoint sent, those recorded as GSO super-datagrams
  /// (counted once per record), and those whose checksum was offloaded.
  std::uint64_t datagrams = 0;
  std::uint64_t gso = 0;
  std::uint64_t offloaded = 0;
  /// Datagrams with a known TTL, those lowered by routers before the
  /// capture, and the fewest routers any of them passed.
  std::uint64_t with_ttl = 0;
  std::uint64_t routed = 0;
  unsigned fewest_hops = 0;
};

struct VantageInference {
  Vantage vantage = Vantage::path;
  /// One sentence: the signs, with their figures.
  std::string reason;
  /// The signs did not settle it (an endpoint acknowledged nothing the
  /// capture saw, or both took long alike to acknowledge and skipped
  /// nothing, which a capture on the path and slow endpoints both show):
  /// `vantage` is then what the host signs say, else `path`.
  bool ambiguous = false;
  AckerSigns client, server;
  /// Every datagram went between two ports of this one address.
  std::optional<std::string> one_host;
};

/// A reaction up to this is "at once": what an endpoint's own stack takes
/// between a datagram's arrival and its ACK, far below any round trip
/// beyond one host.
inline constexpr std::int64_t kNearNs = 1'000'000;

/// The signs of a capture's QUIC connections, pooled one connection at a
/// time (conform check forgets each once it has ended), and what they say.
class VantageSurvey {
 public:
  void add(const dissect::Connection& c);
  /// What `add` would have made of the connections `other` was given,
  /// added after those given here.
  void merge(const VantageSurvey& other);
  /// A TCP segment (IPv4, host byte order): where its hosts are, and no
  /// more (no TCP check needs the vantage).
  void add_tcp_segment(std::uint32_t from, std::uint32_t to);
  VantageInference infer() const;

 private:
  void add_hosts(NetEndpoint from, NetEndpoint to);

  std::size_t connections_ = 0, tcp_segments_ = 0;
  AckerSigns client_, server_;
  std::optional<NetEndpoint> host_;
  bool many_hosts_ = false;
};

/// The signs of every QUIC connection of `timeline`, pooled, and what they say.
VantageInference infer_vantage(const dissect::Timeline& timeline);

}  // namespace conform

// The timeline: what the dissector makes of a capture, and the only input
// of every check. Per connection, the datagrams in capture order; per
// datagram, its QUIC packets (coalesced ones split, RFC 9000 §12.2); per
// packet, its frames. A packet that could not be decrypted stays, with the
// reason; a datagram that belongs to no connection is kept apart, with the
// reason. Nothing is dropped silently.
#pragma once

#include "dissect/bytes.hpp"
#include "dissect/cipher_suite.hpp"
#include "dissect/frames.hpp"
#include "dissect/header.hpp"
#include "dissect/key_log.hpp"
#include "dissect/transport_parameters.hpp"

#include "capture/pcap_reader.hpp"
#include "common/boxed.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace conform::dissect {

enum class Direction : std::uint8_t { client_to_server = 0, server_to_client = 1 };
/// "client_to_server" / "server_to_client".
std::string_view to_string(Direction direction);

/// Why a packet's payload is not in the timeline.
enum class Undecryptable : std::uint8_t {
  malformed_header,       // the header does not parse: see `detail`
  unknown_version,        // a long header of a version other than 1
  no_keys,                // no secret for this level: no key log line, or no ClientHello seen
  authentication_failed,  // the AEAD tag did not verify with any key that applies
  /// Not a packet but a Stateless Reset (RFC 9000 §10.3): its last 16 bytes
  /// are a Stateless Reset Token the sender issued in NEW_CONNECTION_ID.
  stateless_reset,
};
std::string_view to_string(Undecryptable reason);

/// What few packets carry: long-header fields, a Retry's or a Version
/// Negotiation's contents, why a packet could not be read. Kept out of line
/// so that the many 1-RTT packets of a long connection carry one pointer:
/// `conform check` holds every packet of a connection until it ends.
struct PacketExtras {
  ConnectionId scid;  // long headers
  Bytes token;        // Initial Token or Retry Token
  std::optional<bool> retry_integrity_ok;  // Retry: RFC 9001 §5.8
  std::vector<std::uint32_t> supported_versions;  // Version Negotiation
  std::string detail;  // for `Packet::undecryptable`: what exactly
};

struct Packet {
  std::size_t offset = 0;  // bytes from the start of the UDP payload
  std::size_t length = 0;  // bytes of this packet, header and tag included
  std::size_t payload_length = 0;  // plaintext bytes of frames
  /// Set once header protection is removed (RFC 9001 §5.4), which needs keys.
  std::optional<std::uint64_t> packet_number;
  ConnectionId dcid;
  std::vector<Frame> frames;
  std::uint32_t version = 0;
  unsigned packet_number_length = 0;  // 1-4 bytes on the wire
  /// 1-RTT: key updates the sender made before these keys; 0 is
  /// *_TRAFFIC_SECRET_0 (RFC 9001 §6.1).
  unsigned key_generation = 0;
  std::optional<unsigned> key_phase;  // 1-RTT: the Key Phase bit (RFC 9001 §6)
  PacketType type = PacketType::one_rtt;
  PacketSpace space = PacketSpace::none;
  /// The Reserved Bits after header protection removal; a sender MUST set
  /// them to 0 (RFC 9000 §17.2, §17.3.1).
  std::uint8_t reserved_bits = 0;
  std::optional<Undecryptable> undecryptable;

  bool decrypted() const { return !undecryptable && packet_number.has_value(); }
  /// The packet's extras, empty ones when it has none.
  const PacketExtras& extras() const {
    static const PacketExtras none;
    return extras_.get() ? *extras_.get() : none;
  }
  /// The packet's extras to fill in, made on first use.
  PacketExtras& edit_extras() { return extras_.make(); }

 private:
  Boxed<PacketExtras> extras_;
};

/// Whether a packet holds an ack-eliciting frame (RFC 9002 §2).
bool ack_eliciting(const Packet& p);

/// Where a datagram came from when the capture held several in one record:
/// a sender using UDP segmentation offload (GSO) hands the kernel one
/// buffer of equal-sized segments, and a capture on loopback records that
/// buffer before it is split. The dissector splits it back and says so.
struct GsoSegment {
  unsigned index = 0;             // from 0
  unsigned count = 0;             // segments in the captured record
  std::size_t segment_size = 0;   // bytes of every segment but maybe the last
};

struct Datagram {
  std::uint64_t frame = 0;  // capture frame number, from 1 (Wireshark's)
  std::int64_t time_ns = 0;
  Direction direction = Direction::client_to_server;
  std::size_t size = 0;  // UDP payload bytes (of this segment when split)
  std::optional<GsoSegment> gso;
  NetEndpoint from{};
  NetEndpoint to{};
  /// Captured on the sender's machine before its network card finished the
  /// UDP checksum (CapturedDatagram::checksum_offloaded).
  bool checksum_offloaded = false;
  /// IPv4 TTL or IPv6 Hop Limit as captured (CapturedDatagram::ttl); 0
  /// when not known (conform's own simulated captures).
  std::uint8_t ttl = 0;
  std::vector<Packet> packets;
  /// Bytes after the last packet that cannot start a QUIC packet: their
  /// first byte has the Fixed Bit clear (RFC 9000 §17.2, §17.3.1), and the
  /// receiver did not advertise grease_quic_bit (RFC 9287). A receiver
  /// discards them; a sender that pads a datagram this way (Cloudflare
  /// quiche fills with zeros, Firefox too) uses them as padding.
  std::size_t padding_after = 0;
};

/// How many first bytes of a unidirectional stream a Connection keeps: one
/// variable-length integer at most (RFC 9000 §16).
constexpr std::size_t kStreamHeadBytes = 8;

struct Connection {
  std::size_t index = 0;  // order of first appearance, from 0
  NetEndpoint client{};   // addresses of the client's first Initial
  NetEndpoint server{};
  ConnectionId original_dcid;  // of the client's first Initial
  std::optional<ClientRandom> client_random;  // from the ClientHello
  std::optional<CipherSuite> cipher_suite;    // from the ServerHello
  bool secrets_found = false;  // the key log holds this client random
  /// From the ClientHello and the EncryptedExtensions (RFC 9000 §18).
  std::optional<TransportParameters> client_parameters;
  std::optional<TransportParameters> server_parameters;
  /// The application protocol the server selected (ALPN, RFC 7301 §3.1,
  /// from its EncryptedExtensions); empty when the capture does not show it.
  std::string alpn;
  /// The first bytes (up to kStreamHeadBytes) of each unidirectional
  /// stream, by stream ID: where HTTP/3 says what the stream is for.
  std::map<std::uint64_t, std::vector<std::uint8_t>> uni_stream_heads;
  /// What the dissector noticed about the connection as a whole, e.g.
  /// transport parameters that could not be decoded.
  std::vector<std::string> notes;
  std::vector<Datagram> datagrams;
};

/// A datagram the dissector could not assign to a connection.
struct UnattributedDatagram {
  std::uint64_t frame = 0;
  std::int64_t time_ns = 0;
  NetEndpoint from{};
  NetEndpoint to{};
  std::size_t size = 0;
  std::string reason;
};

struct Timeline {
  std::vector<Connection> connections;
  std::vector<UnattributedDatagram> unattributed;
};

}  // namespace conform::dissect

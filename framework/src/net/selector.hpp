// A selector of a case's `network` table: which datagrams of a direction an
// explicit impairment (drop, reorder, duplicate, corrupt) hits, or, with
// `pn=`, which packet. Written `<sender>[:<qualifier>]...[:<count>]`:
//   - `server:9`, `client:initial:2`: by count, from the header bytes header
//     protection leaves in the clear (no keys needed);
//   - `server:handshake:pn=2`, `client:frame=RESET_STREAM:1st`,
//     `server:frame=CRYPTO:offset>=1200`, `server:initial:ack_only`,
//     `server:after=handshake_done:1`: by what the packets are, read with
//     the run's own keys (net/datagram_contents.hpp), so a selector names
//     the same packet in a mutant's run as in the case's;
//   - `client:from_ms=100:to_ms=300`: a window of virtual time.
// selector_forms() is the one list of the forms: the parser's error, the
// docs and the relay's UNSUPPORTED name them from it.
#pragma once

#include "net/quic_long_header.hpp"

#include <conform/time.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace conform {

/// One form a selector's part may take, for docs and errors.
struct SelectorForm {
  /// The part as written, with its placeholder: "pn=<n>".
  std::string part;
  /// A whole selector using it: "server:handshake:pn=2".
  std::string example;
  std::string meaning;
  /// Whether matching it reads the packets with the run's keys (the
  /// simulator with the endpoints' key log lines, the relay with the key
  /// log files it follows, else it says UNSUPPORTED).
  bool reads_contents = false;
};

/// Every form, in the order the docs list them.
const std::vector<SelectorForm>& selector_forms();

/// The event a selector may count from (`after=`).
enum class SelectorEvent : std::uint8_t {
  /// The datagram carrying the path's first HANDSHAKE_DONE frame has been
  /// sent (the server's handshake is confirmed, RFC 9001 §4.1.2).
  handshake_done,
};

/// `sender` is "server" (each server-to-client direction, counted per
/// client), "client" (every client's direction to the server, each counted
/// on its own), or "client-<k>" (only the k-th client, from 1).
struct DatagramSelector {
  /// As written, for traces and UNSUPPORTED.
  std::string text;
  std::string sender;
  /// A long-header packet of this type, or with `one_rtt` a short-header
  /// (1-RTT) packet.
  std::optional<LongType> type;
  bool one_rtt = false;
  /// The packet of that type with this packet number: the packet alone is
  /// dropped from a coalesced datagram.
  std::optional<std::uint64_t> packet_number;
  /// A packet carrying a frame of this type (RFC 9000 §19 name) and, for
  /// CRYPTO or STREAM, one starting at or past `min_offset`.
  std::string frame;
  std::optional<std::uint64_t> min_offset;
  /// true: ack-eliciting (RFC 9002 §2: a frame other than ACK, PADDING or
  /// CONNECTION_CLOSE); false: ACK-only. Of the packet of `type` when given,
  /// else of the datagram.
  std::optional<bool> ack_eliciting;
  /// Sent at or after `from` and before `to`, in the run's time.
  std::optional<Duration> from, to;
  std::optional<SelectorEvent> after;
  /// The n-th datagram that matches, from 1; 0: every one ("all", or no count).
  std::int64_t nth = 0;

  /// Whether the selector names a packet (pn=) rather than a datagram.
  bool names_packet() const { return packet_number.has_value(); }
  /// Whether matching needs the packets decrypted.
  bool reads_contents() const;
  /// The first part that does, as selector_forms() names it ("pn=<n>");
  /// empty when none.
  std::string content_part() const;
};

/// Parses one selector; on failure returns nothing and sets `error`, which
/// names the part at fault and the accepted forms.
std::optional<DatagramSelector> parse_selector(std::string_view text, std::string& error);

/// What the run's keys showed of one packet of a datagram.
struct PacketContents {
  /// Bytes of the UDP payload it spans, header and tag included.
  std::size_t offset = 0, length = 0;
  /// Absent: a short-header (1-RTT) packet.
  std::optional<LongType> type;
  /// Absent when the packet could not be decrypted (yet).
  std::optional<std::uint64_t> packet_number;
  struct Frame {
    /// RFC 9000 §19 name, "CRYPTO".
    std::string_view name;
    /// CRYPTO and STREAM: the offset of the frame's first byte.
    std::optional<std::uint64_t> offset;
  };
  std::vector<Frame> frames;
  bool ack_eliciting = false;
};

/// A datagram's packets as the run's keys read them.
struct DatagramContents {
  std::vector<PacketContents> packets;
  /// A datagram of this path carrying HANDSHAKE_DONE went before this one.
  bool after_handshake_done = false;
};

/// What a direction knows about the datagram it is carrying: who sends it
/// (`group` "client" or "server", `name` "client-2" or "server"), when, the
/// long-header types it carries (bit mask, from the clear header bytes), and
/// its contents when a selector needs them.
struct DatagramPosition {
  std::string_view group;
  std::string_view name;
  Instant at;
  std::uint8_t types = 0;
  bool short_header = false;
  const DatagramContents* contents = nullptr;
};

/// Whether `selector`'s qualifiers (all but the count) hold for the
/// datagram at `pos`; with pn=, which of its packets (indices into
/// contents->packets) they hold for, in `packets`.
bool qualifies(const DatagramSelector& selector, const DatagramPosition& pos,
               std::vector<std::size_t>* packets = nullptr);

/// A list of selectors (a `drop` or `reorder` list) and how many datagrams
/// of one direction each has matched so far: the count of `server:3` is the
/// direction's own.
class SelectorList {
 public:
  SelectorList() = default;
  explicit SelectorList(const std::vector<DatagramSelector>& selectors);

  struct Pick {
    /// A datagram selector picked the whole datagram.
    bool datagram = false;
    /// Packet selectors picked these packets (indices into the contents).
    std::vector<std::size_t> packets;
    bool any() const { return datagram || !packets.empty(); }
  };
  /// Counts the datagram at `pos` for each selector and says what they pick.
  /// Call once per datagram the direction carries, in order.
  Pick pick(const DatagramPosition& pos);
  /// Whether the i-th selector has picked anything yet.
  bool picked(std::size_t i) const { return picked_[i]; }

 private:
  const std::vector<DatagramSelector>* selectors_ = nullptr;
  std::vector<std::int64_t> matched_;
  std::vector<bool> picked_;
};

}  // namespace conform

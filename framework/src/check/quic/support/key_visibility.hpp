// Whether a capture's QUIC packets decrypted far enough for a check to see
// what it judges. Without keys a packet's frames are invisible (RFC 9001
// §5: packet protection), and a check that counts frames would judge
// nothing and pass: "received=0/0". Wireshark marks such packets and goes
// on; a verdict must not.
#pragma once

#include "check/quic/support/capture_facts.hpp"

#include <optional>
#include <string>
#include <vector>

namespace conform::quic_checks {

/// The deepest encryption level a check reads frames from (RFC 9001 §4).
/// Initial keys come from the client's Destination Connection ID alone, so
/// a check of Initial packets needs no key log; Handshake and 1-RTT need
/// the secrets of an NSS key log.
enum class KeysNeeded { initial, handshake, one_rtt };

/// "Initial", "Handshake", "1-RTT".
const char* to_string(KeysNeeded level);

/// Why `captures` cannot be judged at `level`, or nothing when they can:
/// the first connection and direction that sent packets of a level up to
/// `level` of which none decrypted, e.g. "server.pcap: no Handshake keys in
/// the key log for the connection of client random 3f…: none of its 5
/// Handshake packets from the server decrypt". A level a
/// direction never used does not count: a handshake that failed early
/// leaves nothing to decrypt, which checks judge as they see it.
std::optional<std::string> undecryptable(const std::vector<const CaptureFacts*>& captures, KeysNeeded level);

}  // namespace conform::quic_checks

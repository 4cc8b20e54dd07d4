// The keys one endpoint protects its packets with at one encryption level
// (RFC 9001 §4, Table 1), made from a secret when the first packet needs
// them, with the generations that key updates bring (RFC 9001 §6). Until the
// cipher suite is known (the ServerHello may be missing from a capture,
// and the key log does not name it), every suite whose hash matches the
// secret's length is a candidate and the AEAD decides.
#pragma once

#include "dissect/packet_protection.hpp"

#include <optional>
#include <span>
#include <vector>

namespace conform::dissect {

class LevelKeys {
 public:
  /// Keys from a traffic secret, for a known suite or for every suite whose
  /// hash length matches `secret` when `suite` is empty.
  void set_secret(const Bytes& secret, std::optional<CipherSuite> suite);
  /// Keys already made (Initial keys, whose suite is always AES-128-GCM).
  void set_keys(PacketKeys keys);
  bool empty() const { return generations_.empty() && candidates_.empty(); }
  bool confirmed() const { return !generations_.empty(); }

  /// Generation-0 keys to try: one once confirmed, else the candidates.
  /// Valid until the next call of a non-const member.
  std::span<const PacketKeys> candidates() const;
  /// Keeps the candidate whose suite decrypted a packet.
  void confirm(CipherSuite suite);

  /// Confirmed keys of generation `g`, derived on demand (confirmed() only).
  const PacketKeys& generation(unsigned g);
  /// The newest generation a packet has been decrypted with.
  unsigned current() const { return current_; }
  void set_current(unsigned g) { current_ = g; }

 private:
  std::vector<PacketKeys> candidates_;
  std::vector<PacketKeys> generations_;
  unsigned current_ = 0;
};

}  // namespace conform::dissect

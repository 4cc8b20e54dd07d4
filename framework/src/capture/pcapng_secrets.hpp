// TLS key material stored inside a pcapng capture: Decryption Secrets
// Blocks (pcapng block type 0x0000000A, secrets type 0x544c534b "TLSK",
// holding NSS key log text), as `editcap --inject-secrets` writes them.
// libpcap skips these blocks, so they are read here, block by block.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace conform {

struct SecretsBlock {
  std::uint64_t offset = 0;  // bytes from the start of the file
  std::string key_log;       // NSS key log text

  /// How a problem in its key log names it: "CAPTURE (Decryption Secrets
  /// Block at byte N)", followed by the line and column.
  std::string source(const std::string& capture) const {
    return capture + " (Decryption Secrets Block at byte " + std::to_string(offset) + ")";
  }
};

/// The TLS key logs of every Decryption Secrets Block of `path`, in file
/// order; none for a pcap (not pcapng) file. Secrets of other types (WireGuard,
/// ZigBee, ...) are skipped. Throws InputError naming the file when it cannot
/// be opened, and naming the block (counted from 1) and its byte offset when
/// a Decryption Secrets Block is damaged: a length under its 20 bytes of
/// framing, not a multiple of 4 or past the end of the file, or a secrets
/// length the block cannot hold. Damage to other blocks ends the scan (the
/// packet reader reports it).
std::vector<SecretsBlock> read_pcapng_secrets(const std::string& path);

}  // namespace conform

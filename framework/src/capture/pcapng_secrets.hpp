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
};

/// The TLS key logs of every Decryption Secrets Block of `path`, in file
/// order; none for a pcap (not pcapng) file. Secrets of other types (WireGuard,
/// ZigBee, ...) are skipped. Throws InputError naming the file when it cannot
/// be opened; a block structure that stops making sense ends the scan (the
/// packet reader reports such damage itself).
std::vector<SecretsBlock> read_pcapng_secrets(const std::string& path);

}  // namespace conform

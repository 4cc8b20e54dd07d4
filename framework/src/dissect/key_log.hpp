// TLS 1.3 secrets from an NSS key log file (the SSLKEYLOGFILE format that
// Wireshark reads: "LABEL <client random hex> <secret hex>" a line), indexed
// by the ClientHello random that names the connection.
#pragma once

#include "common/input_error.hpp"
#include "dissect/bytes.hpp"

#include <array>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace conform::dissect {

using ClientRandom = std::array<std::uint8_t, 32>;

/// The traffic secrets one TLS 1.3 connection logged; empty when absent.
/// Secrets are 32 bytes (SHA-256 suites) or 48 (SHA-384).
struct TlsSecrets {
  Bytes client_early;        // CLIENT_EARLY_TRAFFIC_SECRET: 0-RTT
  Bytes client_handshake;    // CLIENT_HANDSHAKE_TRAFFIC_SECRET
  Bytes server_handshake;    // SERVER_HANDSHAKE_TRAFFIC_SECRET
  Bytes client_application;  // CLIENT_TRAFFIC_SECRET_0
  Bytes server_application;  // SERVER_TRAFFIC_SECRET_0
};

struct KeyLog {
  std::map<ClientRandom, TlsSecrets> connections;
  /// Lines that could not be used, each naming `file:line`. They do not stop
  /// the reading: the connections whose lines were good still decrypt.
  std::vector<Diagnostic> problems;
};

/// Parses key log text; `file` names it in problems. Blank lines and lines
/// starting with '#' are skipped; labels of TLS 1.2 and exporter secrets are
/// accepted and ignored; anything else malformed is a problem.
KeyLog parse_key_log(std::string_view text, const std::string& file);

/// The text of the key log `path`, read once (a pipe, such as `--keylog
/// <(...)`, can be read only once). Throws InputError naming the file when
/// it cannot be read or is a folder.
std::string read_key_log_text(const std::string& path);

/// Reads and parses `path`. Throws InputError naming the file when it cannot
/// be read.
KeyLog read_key_log(const std::string& path);

/// Throws InputError when `log` has problems: a key log with a malformed
/// line is not what the user meant to give, and a connection it was meant
/// to decrypt would otherwise be judged blind. The error lists the first
/// few problems, each `file:line:1: message`, and how many more there are.
void require_well_formed(const KeyLog& log);

/// Adds the secrets of `more` to `into` (pcapng Decryption Secrets Blocks
/// and --keylog files combine this way); later secrets win.
void merge_key_log(KeyLog& into, const KeyLog& more);

}  // namespace conform::dissect

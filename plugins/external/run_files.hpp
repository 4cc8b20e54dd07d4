// What a run of the external plugin prepares in its case folder and reads
// back: the server's certificate, the file it serves, a free UDP port, the
// moment the server has bound it, and the programs' key logs.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace external {

/// Writes `dir`/cert.pem and key.pem, a self-signed ECDSA P-256 pair for
/// CN=localhost (what GnuTLS, BoringSSL and Go all accept), with the
/// `openssl` program at `openssl`. Empty on success, else why not.
std::string make_certificate(const std::string& openssl, const std::string& dir);

/// Writes `path` with `bytes` bytes of a fixed pattern.
bool write_body(const std::string& path, std::int64_t bytes);

/// A UDP port on 127.0.0.1 that was free a moment ago (0 if none).
std::uint16_t free_udp_port();

/// Whether some socket is bound to UDP `port` (any address), from
/// /proc/net/udp: no probe bind that could race the server's own.
bool udp_port_bound(std::uint16_t port);

/// The NSS key log lines of `files` in order, each line once; files that do
/// not exist add nothing.
std::vector<std::string> key_log_lines(const std::vector<std::string>& files);

}  // namespace external

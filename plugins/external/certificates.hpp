// The server certificates of the external plugin's runs: made with openssl
// once per padding into the plugin's RunCache, then copied into each run's
// folder, where the programs read them.
#pragma once

#include "run_cache.hpp"

#include <cstddef>
#include <string>

namespace external {

/// Writes `dir`/ca.pem, a CA certificate, and cert.pem + key.pem, an ECDSA
/// P-256 leaf it signed for CN=localhost with subjectAltName IP:127.0.0.1
/// and DNS:localhost (what GnuTLS, BoringSSL, Go and rustls accept, and
/// what a browser accepts once it trusts ca.pem), with the `openssl`
/// program at `openssl`. With `padding_bytes`, the leaf also carries a
/// non-critical extension of a documentation OID (RFC 5612) holding that
/// many bytes, which every TLS stack ignores but sends. Empty on success, else why not.
std::string make_certificate(const std::string& openssl, const std::string& dir, std::size_t padding_bytes = 0);

/// A Chromium certificate pin of `dir`/cert.pem: base64 of the SHA-256 of
/// its SubjectPublicKeyInfo (DER). Empty with `problem` set when openssl
/// fails.
std::string spki_pin(const std::string& openssl, const std::string& dir, std::string& problem);

/// Copies ca.pem, ca-key.pem, cert.pem and key.pem of a leaf padded with
/// `padding_bytes` into `dir`, from `cache`, where the first run to ask
/// made them with `openssl`; with `pin`, also sets *pin to the leaf's
/// spki_pin. Empty, or why not.
std::string place_certificate(const RunCache& cache, const std::string& openssl, const std::string& dir,
                              std::size_t padding_bytes, std::string* pin = nullptr);

}  // namespace external

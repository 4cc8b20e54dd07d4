// Self-signed Ed25519 test certificates, generated at test time from a seed
// so two runs produce the same bytes (ARCHITECTURE.md principle 3: Ed25519
// signatures have a fixed size, and nothing here reads a clock); or a
// certificate and key given as PEM files to the command-line tool.
#pragma once

#include <memory>
#include <string>

#include "codec/buffer.hpp"

struct x509_st;
struct evp_pkey_st;

namespace conform::quic {

class TestCertificate {
 public:
  /// A certificate for `common_name` whose key is derived from `seed`; valid
  /// from 2020-01-01 to 2100-01-01 (fixed, so no clock is read). With
  /// `padding_bytes` > 0 it carries a non-critical private extension of
  /// that many zero bytes (a large certificate, as real chains are). nullptr
  /// if BoringSSL fails.
  static std::shared_ptr<const TestCertificate> generate(const std::string& common_name,
                                                         uint64_t seed, size_t padding_bytes = 0);
  /// A certificate and private key read from PEM text (any key type
  /// BoringSSL signs with: Ed25519, ECDSA, RSA), for a server run by hand
  /// (conform-quic). nullptr with `error` set if either does not parse or
  /// the key does not match the certificate.
  static std::shared_ptr<const TestCertificate> from_pem(const std::string& cert_pem,
                                                         const std::string& key_pem,
                                                         std::string& error);
  ~TestCertificate();
  TestCertificate(const TestCertificate&) = delete;
  TestCertificate& operator=(const TestCertificate&) = delete;

  x509_st* x509() const { return x509_; }
  evp_pkey_st* key() const { return key_; }
  /// DER encoding, e.g. to write a PEM file for an external peer.
  Bytes der() const;

 private:
  TestCertificate() = default;
  x509_st* x509_ = nullptr;
  evp_pkey_st* key_ = nullptr;
};

}  // namespace conform::quic

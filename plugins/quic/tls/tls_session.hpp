// The TLS 1.3 handshake of one QUIC connection, RFC 9001 §4, on BoringSSL's
// QUIC API (SSL_QUIC_METHOD). The session turns CRYPTO bytes in into CRYPTO
// bytes out per encryption level, and reports traffic secrets as they are
// installed; the connection owns packets and keys.
#pragma once

#include <array>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "codec/buffer.hpp"
#include "codec/error.hpp"
#include "tls/key_schedule.hpp"
#include "tls/test_certificate.hpp"

struct ssl_st;
struct ssl_ctx_st;

namespace conform::quic {

/// Encryption levels, in BoringSSL's order (RFC 9001 §4.1.4).
enum class Level : uint8_t { initial = 0, early_data = 1, handshake = 2, application = 3 };

/// Key exchange groups (the `tls_groups` knob): the one a client offers, the
/// one a server prefers (it accepts the others too). CECPQ2 is X25519 +
/// HRSS: a ClientHello of ~1.4 KB, larger than one Initial packet.
enum class TlsGroups { x25519, p256, cecpq2 };

struct TlsConfig {
  bool is_server = false;
  std::vector<std::string> alpn = {"conform"};  ///< Offered (client) / accepted (server).
  std::string server_name = "localhost";
  TlsGroups groups = TlsGroups::x25519;
  std::shared_ptr<const TestCertificate> certificate;  ///< Server only.
  /// NSS key log lines (without newline), e.g. "CLIENT_TRAFFIC_SECRET_0 <random> <secret>".
  std::function<void(std::string_view)> keylog;
};

/// A secret BoringSSL installed: which level, which direction, which suite.
struct TrafficSecret {
  Level level = Level::initial;
  bool write = false;
  CipherSuite suite = CipherSuite::aes128gcm;
  Bytes secret;
};

class TlsSession {
 public:
  /// Errors: INTERNAL_ERROR if BoringSSL refuses the configuration (e.g. a
  /// server without a certificate, an unknown group).
  static Result<std::unique_ptr<TlsSession>> create(const TlsConfig& config,
                                                    ByteView local_transport_params);
  ~TlsSession();

  /// Client: writes the ClientHello. Server: nothing until data arrives.
  Status<> start();
  /// Feeds in-order CRYPTO bytes of `level` and advances the handshake.
  /// Errors: CRYPTO_ERROR (0x100 + alert) when TLS fails.
  Status<> provide(Level level, ByteView data);

  bool handshake_complete() const { return complete_; }
  /// The peer's transport parameters (RFC 9001 §8.2); empty until received.
  ByteView peer_transport_params() const;
  std::string negotiated_alpn() const;

  /// Drains the secrets installed since the last call, in install order.
  std::vector<TrafficSecret> take_secrets() { return std::exchange(secrets_, {}); }
  /// Drains the handshake bytes to send at `level`.
  Bytes take_output(Level level) { return std::exchange(out_[static_cast<size_t>(level)], {}); }

 private:
  TlsSession() = default;
  Status<> advance();
  friend struct TlsCallbacks;

  ssl_ctx_st* ctx_ = nullptr;
  ssl_st* ssl_ = nullptr;
  TlsConfig config_;
  bool complete_ = false;
  int alert_ = -1;
  std::vector<TrafficSecret> secrets_;
  std::array<Bytes, 4> out_;
};

}  // namespace conform::quic

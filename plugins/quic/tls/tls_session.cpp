// BoringSSL's QUIC hooks (SSL_QUIC_METHOD) bound to a TlsSession: secrets and
// handshake bytes are queued for the connection, alerts become CRYPTO_ERROR.
#include "tls/tls_session.hpp"

#include <openssl/ssl.h>

namespace conform::quic {

struct TlsCallbacks {
  static TlsSession* self(SSL* ssl) { return static_cast<TlsSession*>(SSL_get_app_data(ssl)); }

  static int secret(SSL* ssl, ssl_encryption_level_t level, const SSL_CIPHER* cipher,
                    const uint8_t* s, size_t len, bool write) {
    TrafficSecret t;
    t.level = static_cast<Level>(level);
    t.write = write;
    t.suite = static_cast<CipherSuite>(SSL_CIPHER_get_protocol_id(cipher));
    t.secret.assign(s, s + len);
    self(ssl)->secrets_.push_back(std::move(t));
    return 1;
  }
  static int set_read_secret(SSL* ssl, ssl_encryption_level_t level, const SSL_CIPHER* cipher,
                             const uint8_t* s, size_t len) {
    return secret(ssl, level, cipher, s, len, false);
  }
  static int set_write_secret(SSL* ssl, ssl_encryption_level_t level, const SSL_CIPHER* cipher,
                              const uint8_t* s, size_t len) {
    return secret(ssl, level, cipher, s, len, true);
  }
  static int add_handshake_data(SSL* ssl, ssl_encryption_level_t level, const uint8_t* data,
                                size_t len) {
    Bytes& out = self(ssl)->out_[static_cast<size_t>(level)];
    out.insert(out.end(), data, data + len);
    return 1;
  }
  static int flush_flight(SSL*) { return 1; }
  static int send_alert(SSL* ssl, ssl_encryption_level_t, uint8_t alert) {
    self(ssl)->alert_ = alert;
    return 1;
  }
  static void keylog(const SSL* ssl, const char* line) {
    auto* s = static_cast<TlsSession*>(SSL_get_app_data(ssl));
    if (s && s->config_.keylog) s->config_.keylog(line);
  }
  static int select_alpn(SSL* ssl, const uint8_t** out, uint8_t* out_len, const uint8_t* in,
                         unsigned in_len, void*) {
    // Server preference order: the first configured protocol the client offers.
    for (const std::string& want : self(ssl)->config_.alpn) {
      for (unsigned i = 0; i < in_len;) {
        const unsigned len = in[i];
        if (i + 1 + len > in_len) break;
        if (len == want.size() && std::equal(want.begin(), want.end(), in + i + 1)) {
          *out = in + i + 1;
          *out_len = static_cast<uint8_t>(len);
          return SSL_TLSEXT_ERR_OK;
        }
        i += 1 + len;
      }
    }
    return SSL_TLSEXT_ERR_ALERT_FATAL;  // RFC 9001 §8.1: no_application_protocol
  }
};

namespace {

const SSL_QUIC_METHOD kQuicMethod = {
    TlsCallbacks::set_read_secret, TlsCallbacks::set_write_secret,
    TlsCallbacks::add_handshake_data, TlsCallbacks::flush_flight, TlsCallbacks::send_alert};

// A client offers only its group, so a case controls the ClientHello's size;
// a server prefers its group but accepts the others, so a client of any
// group completes without a HelloRetryRequest.
const char* groups_list(TlsGroups g, bool is_server) {
  switch (g) {
    case TlsGroups::x25519: return is_server ? "X25519:P-256:CECPQ2" : "X25519";
    case TlsGroups::p256: return is_server ? "P-256:X25519:CECPQ2" : "P-256";
    case TlsGroups::cecpq2: return is_server ? "CECPQ2:X25519:P-256" : "CECPQ2";
  }
  return "X25519";
}

TransportError internal(const char* what) {
  return TransportError(TransportErrorCode::internal_error, what);
}

}  // namespace

Result<std::unique_ptr<TlsSession>> TlsSession::create(const TlsConfig& config,
                                                       ByteView local_transport_params) {
  std::unique_ptr<TlsSession> s(new TlsSession);
  s->config_ = config;
  s->ctx_ = SSL_CTX_new(TLS_method());
  if (!s->ctx_) return internal("SSL_CTX_new failed");
  SSL_CTX_set_min_proto_version(s->ctx_, TLS1_3_VERSION);
  SSL_CTX_set_max_proto_version(s->ctx_, TLS1_3_VERSION);
  SSL_CTX_set_keylog_callback(s->ctx_, TlsCallbacks::keylog);
  // A BoringSSL client refuses Ed25519 signatures unless asked (PLATFORM-NOTES).
  static const uint16_t kPrefs[] = {SSL_SIGN_ED25519, SSL_SIGN_ECDSA_SECP256R1_SHA256,
                                    SSL_SIGN_RSA_PSS_RSAE_SHA256};
  SSL_CTX_set_verify_algorithm_prefs(s->ctx_, kPrefs, std::size(kPrefs));
  // Test certificates are self-signed: the client does not verify the chain.
  SSL_CTX_set_verify(s->ctx_, SSL_VERIFY_NONE, nullptr);
  if (config.is_server) {
    if (!config.certificate) return internal("a server needs a certificate");
    SSL_CTX_set_alpn_select_cb(s->ctx_, TlsCallbacks::select_alpn, nullptr);
  }
  s->ssl_ = SSL_new(s->ctx_);
  if (!s->ssl_) return internal("SSL_new failed");
  SSL_set_app_data(s->ssl_, s.get());
  if (!SSL_set_quic_method(s->ssl_, &kQuicMethod)) return internal("SSL_set_quic_method failed");
  SSL_set_quic_use_legacy_codepoint(s->ssl_, 0);
  if (!SSL_set_quic_transport_params(s->ssl_, local_transport_params.data(),
                                     local_transport_params.size()))
    return internal("SSL_set_quic_transport_params failed");
  if (!SSL_set1_curves_list(s->ssl_, groups_list(config.groups, config.is_server)))
    return internal("unsupported tls_groups");
  if (config.is_server) {
    if (!SSL_use_certificate(s->ssl_, config.certificate->x509()) ||
        !SSL_use_PrivateKey(s->ssl_, config.certificate->key()))
      return internal("certificate or key refused");
    SSL_set_accept_state(s->ssl_);
  } else {
    Bytes alpn;
    for (const auto& p : config.alpn) {
      alpn.push_back(static_cast<uint8_t>(p.size()));
      alpn.insert(alpn.end(), p.begin(), p.end());
    }
    // SSL_set_alpn_protos returns 0 on success (an OpenSSL quirk BoringSSL keeps).
    if (SSL_set_alpn_protos(s->ssl_, alpn.data(), alpn.size()) != 0) return internal("bad ALPN");
    if (!config.server_name.empty()) SSL_set_tlsext_host_name(s->ssl_, config.server_name.c_str());
    SSL_set_connect_state(s->ssl_);
  }
  return s;
}

TlsSession::~TlsSession() {
  if (ssl_) SSL_free(ssl_);
  if (ctx_) SSL_CTX_free(ctx_);
}

Status<> TlsSession::start() {
  if (config_.is_server) return {};
  return advance();
}

Status<> TlsSession::provide(Level level, ByteView data) {
  if (!SSL_provide_quic_data(ssl_, static_cast<ssl_encryption_level_t>(level), data.data(),
                             data.size()))
    return TransportError(TransportErrorCode::crypto_buffer_exceeded, "TLS refused CRYPTO data");
  if (complete_) {
    // Post-handshake messages (NewSessionTicket) are consumed and ignored.
    if (SSL_process_quic_post_handshake(ssl_) != 1)
      return TransportError::crypto(alert_ >= 0 ? static_cast<uint8_t>(alert_) : 80,
                                    "post-handshake message refused");
    return {};
  }
  return advance();
}

Status<> TlsSession::advance() {
  const int rc = SSL_do_handshake(ssl_);
  if (rc == 1) {
    complete_ = true;
    return {};
  }
  const int err = SSL_get_error(ssl_, rc);
  if (err == SSL_ERROR_WANT_READ || err == SSL_ERROR_WANT_WRITE) return {};
  const uint8_t alert = alert_ >= 0 ? static_cast<uint8_t>(alert_) : 80;  // internal_error
  return TransportError::crypto(alert, "TLS handshake failed");
}

ByteView TlsSession::peer_transport_params() const {
  const uint8_t* p = nullptr;
  size_t len = 0;
  SSL_get_peer_quic_transport_params(ssl_, &p, &len);
  return {p, len};
}

std::string TlsSession::negotiated_alpn() const {
  const uint8_t* p = nullptr;
  unsigned len = 0;
  SSL_get0_alpn_selected(ssl_, &p, &len);
  return std::string(reinterpret_cast<const char*>(p), len);
}

}  // namespace conform::quic

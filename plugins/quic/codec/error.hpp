// Errors as values: the QUIC transport error codes of RFC 9000 §20.1 and a
// small Result type, so nothing in the core throws (STYLE.md habit 6).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace conform::quic {

/// Transport error codes, RFC 9000 §20.1. CRYPTO_ERROR is a range:
/// 0x0100 + the TLS alert (RFC 9001 §4.8).
enum class TransportErrorCode : uint64_t {
  no_error = 0x00,
  internal_error = 0x01,
  connection_refused = 0x02,
  flow_control_error = 0x03,
  stream_limit_error = 0x04,
  stream_state_error = 0x05,
  final_size_error = 0x06,
  frame_encoding_error = 0x07,
  transport_parameter_error = 0x08,
  connection_id_limit_error = 0x09,
  protocol_violation = 0x0a,
  invalid_token = 0x0b,
  application_error = 0x0c,
  crypto_buffer_exceeded = 0x0d,
  key_update_error = 0x0e,
  aead_limit_reached = 0x0f,
  no_viable_path = 0x10,
  crypto_error = 0x100,
};

std::string_view to_string(TransportErrorCode code);

/// A connection error: the code that goes into CONNECTION_CLOSE (type 0x1c),
/// the type of the frame that triggered it (0 when none) and a reason phrase.
struct TransportError {
  uint64_t code = 0;
  uint64_t frame_type = 0;
  std::string reason;

  TransportError() = default;
  TransportError(TransportErrorCode c, std::string r, uint64_t ft = 0)
      : code(static_cast<uint64_t>(c)), frame_type(ft), reason(std::move(r)) {}
  static TransportError crypto(uint8_t alert, std::string r) {
    TransportError e;
    e.code = 0x100 + alert;
    e.reason = std::move(r);
    return e;
  }
  bool is(TransportErrorCode c) const { return code == static_cast<uint64_t>(c); }
  /// A TLS alert carried as CRYPTO_ERROR (0x0100-0x01ff, RFC 9000 §20.1).
  bool is_crypto() const { return code >= 0x100 && code <= 0x1ff; }
};

/// Either a value or an error E. `ok()` first, then `value()` or `error()`.
template <class T, class E = TransportError>
class [[nodiscard]] Result {
 public:
  Result(T v) : v_(std::in_place_index<0>, std::move(v)) {}
  Result(E e) : v_(std::in_place_index<1>, std::move(e)) {}
  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() { return std::get<0>(v_); }
  const T& value() const { return std::get<0>(v_); }
  const E& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, E> v_;
};

/// Success or an error, for operations that produce nothing.
template <class E = TransportError>
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(E e) : err_(std::move(e)), failed_(true) {}
  bool ok() const { return !failed_; }
  explicit operator bool() const { return ok(); }
  const E& error() const { return err_; }

 private:
  E err_{};
  bool failed_ = false;
};

}  // namespace conform::quic

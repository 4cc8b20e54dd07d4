// Names of the transport error codes (RFC 9000 §20.1), for logs and tests.
#include "codec/error.hpp"

namespace conform::quic {

std::string_view to_string(TransportErrorCode code) {
  switch (code) {
    case TransportErrorCode::no_error: return "NO_ERROR";
    case TransportErrorCode::internal_error: return "INTERNAL_ERROR";
    case TransportErrorCode::connection_refused: return "CONNECTION_REFUSED";
    case TransportErrorCode::flow_control_error: return "FLOW_CONTROL_ERROR";
    case TransportErrorCode::stream_limit_error: return "STREAM_LIMIT_ERROR";
    case TransportErrorCode::stream_state_error: return "STREAM_STATE_ERROR";
    case TransportErrorCode::final_size_error: return "FINAL_SIZE_ERROR";
    case TransportErrorCode::frame_encoding_error: return "FRAME_ENCODING_ERROR";
    case TransportErrorCode::transport_parameter_error: return "TRANSPORT_PARAMETER_ERROR";
    case TransportErrorCode::connection_id_limit_error: return "CONNECTION_ID_LIMIT_ERROR";
    case TransportErrorCode::protocol_violation: return "PROTOCOL_VIOLATION";
    case TransportErrorCode::invalid_token: return "INVALID_TOKEN";
    case TransportErrorCode::application_error: return "APPLICATION_ERROR";
    case TransportErrorCode::crypto_buffer_exceeded: return "CRYPTO_BUFFER_EXCEEDED";
    case TransportErrorCode::key_update_error: return "KEY_UPDATE_ERROR";
    case TransportErrorCode::aead_limit_reached: return "AEAD_LIMIT_REACHED";
    case TransportErrorCode::no_viable_path: return "NO_VIABLE_PATH";
    case TransportErrorCode::crypto_error: return "CRYPTO_ERROR";
  }
  return "UNKNOWN_ERROR";
}

}  // namespace conform::quic

// One stream's state, RFC 9000 §3: the sending part (§3.1) and the
// receiving part (§3.2) with their data buffers and flow-control credit.
// A unidirectional stream has only the part its direction allows.
#pragma once

#include <optional>

#include "connection/flow_control.hpp"
#include "connection/recv_buffer.hpp"
#include "connection/send_buffer.hpp"
#include "connection/stream_id.hpp"

namespace conform::quic {

enum class SendState : uint8_t { ready, send, data_sent, reset_sent, data_recvd, reset_recvd };
enum class RecvState : uint8_t { recv, size_known, data_recvd, reset_recvd, data_read, reset_read };

struct Stream {
  StreamId id = 0;
  bool has_send = false;
  bool has_recv = false;

  SendState send_state = SendState::ready;
  SendBuffer send;
  SendCredit send_credit;
  std::optional<uint64_t> reset_code;      ///< We reset (RESET_STREAM due or sent).
  bool reset_pending = false;              ///< RESET_STREAM not yet sent.
  bool reset_lost = false;                 ///< A RESET_STREAM of it was lost.
  std::optional<uint64_t> peer_stop_code;  ///< STOP_SENDING received.

  RecvState recv_state = RecvState::recv;
  RecvBuffer recv;
  RecvWindow recv_window;
  std::optional<uint64_t> peer_reset_code;  ///< RESET_STREAM received.
  std::optional<uint64_t> stop_code;        ///< We asked the peer to stop.
  bool stop_pending = false;                ///< STOP_SENDING not yet sent.
  bool max_stream_data_pending = false;     ///< Resend MAX_STREAM_DATA (lost).
  /// The reject_peer_streams script refused it: the application never sees
  /// it, its data is discarded as it comes.
  bool rejected = false;

  bool send_terminal() const {
    return !has_send || send_state == SendState::data_recvd || send_state == SendState::reset_recvd;
  }
  bool recv_terminal() const {
    return !has_recv || recv_state == RecvState::data_read || recv_state == RecvState::reset_read;
  }
  /// Both parts are done: the stream can be forgotten (§3.3 "closed").
  bool closed() const { return send_terminal() && recv_terminal(); }
};

}  // namespace conform::quic

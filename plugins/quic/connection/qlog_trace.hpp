// A connection's own qlog: the events of draft-ietf-quic-qlog-quic-events-06
// (packets sent, received and lost, and the sender's recovery state of
// RFC 9002 §5, §6 and §7) as JSON-SEQ records (RFC 7464) in the shape of
// draft-ietf-quic-qlog-main-schema-07. The in-house QUIC writes it itself,
// from its own codec: it shares nothing with the framework's dissector.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "codec/buffer.hpp"
#include "codec/connection_id.hpp"
#include "codec/frame.hpp"
#include "codec/packet_header.hpp"
#include "codec/time.hpp"

namespace conform::quic {

class Recovery;
enum class Space : uint8_t;

/// Receives one whole record: RS, a JSON object, LF.
using QlogSink = std::function<void(std::string_view record)>;

class QlogTrace {
 public:
  /// `sink` empty: the trace is off and every call returns at once.
  explicit QlogTrace(QlogSink sink = {}) : sink_(std::move(sink)) {}

  /// The header record of a file of endpoint traces: `vantage` "client" or
  /// "server"; times are ms of the driver's clock (the simulator's virtual
  /// time, the captures' clock), reference_time 0.
  static std::string header(std::string_view vantage, std::string_view title);

  bool enabled() const { return static_cast<bool>(sink_); }
  /// The connection's group_id on every later event: its original
  /// Destination Connection ID in hex, as `conform dissect --qlog` names it.
  void set_group(const ConnectionId& original_dcid);

  /// Appends `frame` as a qlog QuicFrame object to `list` (JSON objects
  /// separated by commas), for a packet_sent event.
  void add_frame(std::string& list, const Frame& frame) const;
  /// quic:packet_sent: `length` bytes on the wire, `frames` from add_frame.
  void packet_sent(Instant now, PacketType type, uint64_t pn, size_t length, const std::string& frames);
  /// quic:packet_received with the frames of the decrypted `payload`.
  void packet_received(Instant now, PacketType type, uint64_t pn, size_t length, ByteView payload);
  /// recovery:packet_lost (RFC 9002 §6.1).
  void packet_lost(Instant now, Space space, uint64_t pn);
  /// recovery:metrics_updated with the fields that changed since the last
  /// one: min_rtt, smoothed_rtt, latest_rtt, rtt_variance (ms), pto_count,
  /// congestion_window, bytes_in_flight, ssthresh (bytes).
  void metrics(Instant now, const Recovery& recovery);
  /// Any other event, `data_json` a JSON object's text.
  void event(Instant now, std::string_view name, const std::string& data_json);

 private:
  struct Metrics {
    int64_t min_rtt = -1, smoothed_rtt = -1, latest_rtt = -1, rtt_variance = -1;
    int64_t pto_count = -1;
    uint64_t congestion_window = 0, bytes_in_flight = UINT64_MAX, ssthresh = 0;
  };
  QlogSink sink_;
  std::string group_;
  Metrics last_;
};

}  // namespace conform::quic

// A capture's timeline as qlog (draft-ietf-quic-qlog-main-schema-07, qlog
// 0.4, with the QUIC events of draft-ietf-quic-qlog-quic-events-06): a
// JSON-SEQ file (RFC 7464: each record starts with the Record Separator 0x1E
// and ends with a line feed) that qvis and other qlog tools open.
#pragma once

#include "dissect/timeline.hpp"

#include <ostream>
#include <string>

namespace conform {

/// Where the capture was taken, which decides what a datagram is: a
/// client's capture logs its client→server datagrams as `packet_sent` and
/// the others as `packet_received`; a server's the other way round; a
/// capture on the path ("network") is logged as seen from the client's side
/// (the qlog vantage point's `flow`).
enum class QlogVantage { client, server, network };

/// "client", "server", "network".
const char* to_string(QlogVantage vantage);

struct QlogOptions {
  QlogVantage vantage = QlogVantage::network;
  /// The file's `title`, e.g. the capture's path.
  std::string title;
};

/// Writes `timeline` as one qlog trace:
/// - the header record: `qlog_format` "JSON-SEQ", `qlog_version` "0.4",
///   `title`, and `trace` with `vantage_point` and `common_fields`
///   (`time_format` "relative", `reference_time` the first datagram's
///   capture time in ms since the Unix epoch, `protocol_type` ["QUIC"],
///   and `group_id`, the original Destination Connection ID in hex, when
///   the capture holds one connection; with several, each event carries it);
/// - per connection, `quic:parameters_set` for each side's transport
///   parameters (RFC 9000 §18.2) as the dissector decoded them;
/// - per QUIC packet, `quic:packet_sent` or `quic:packet_received` with
///   `header` (`packet_type`, `packet_number` once decrypted, connection
///   IDs), `raw` (`length` of the packet, `payload_length` of its
///   plaintext), `datagram_id` (the datagram's index in its connection) and
///   `frames` (every frame of the timeline, `frame_type` in the draft's
///   snake_case names; MALFORMED frames as "unknown");
/// - per packet that could not be decrypted, `quic:packet_dropped` with the
///   header as far as it was read and `trigger` (`key_unavailable`,
///   `payload_decrypt_error`, `header_parse_error`, `unsupported_version`);
/// - per datagram that belongs to no connection, `quic:datagram_dropped`.
/// Event `time` is in milliseconds since `reference_time`. ACK Delay is
/// scaled to milliseconds with the sender's ack_delay_exponent (RFC 9000
/// §19.3; 3 when the sender did not send one).
void write_qlog(std::ostream& out, const dissect::Timeline& timeline, const QlogOptions& options);

}  // namespace conform

// What the TCP checks share: reading one vantage point's capture into flows
// (dissect/tcp), the parameters that choose capture and side, and evidence
// that names Wireshark frames with times since the capture's first TCP
// segment.
#pragma once

#include "check/check.hpp"
#include "dissect/tcp/flow.hpp"

#include <optional>
#include <string>
#include <vector>

namespace conform {

struct TcpCapture {
  /// File name relative to the case folder, "loopback.pcap".
  std::string file;
  std::vector<tcp::Flow> flows;
  /// Capture time of the first TCP segment, nanoseconds: evidence times are
  /// relative to it.
  std::int64_t origin_ns = 0;

  Evidence evidence(tcp::FrameRef at, std::string text) const {
    return {file, at.frame, at.time_ns - origin_ns, std::move(text)};
  }
};

/// Evidence items a TCP check lists at most: the first few say what a
/// thousand would.
inline constexpr std::size_t kMaxTcpEvidence = 5;

/// The `vantage` parameter every TCP check takes (default "loopback", the
/// TCP relay's live capture of `lo`).
ValueSpec tcp_vantage_param();
/// The `by` parameter: whose segments count ("any", "initiator": the side
/// that sent the SYN, "responder").
ValueSpec tcp_side_param(const std::string& doc);
/// Direction indices of a flow that `by` selects.
std::vector<int> tcp_sides(const ValueMap& params);

/// The flows of `<artifact_dir>/<vantage>.pcap`, or a failed verdict saying
/// why there are none to judge (unreadable file, no TCP segment).
struct TcpCaptureOrVerdict {
  std::optional<TcpCapture> capture;
  CheckResult failure;
};
TcpCaptureOrVerdict load_tcp_capture(const CheckInput& input);

/// "1.234 ms".
std::string format_ms(std::int64_t ns);

}  // namespace conform

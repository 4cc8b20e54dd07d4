// Loading a capture for the TCP checks.
#include "check/tcp/support/tcp_capture.hpp"

#include "capture/tcp_segment_reader.hpp"
#include "common/input_error.hpp"
#include "dissect/tcp/flow_analysis.hpp"

#include <fmt/format.h>

#include <filesystem>

namespace conform {

ValueSpec tcp_vantage_param() {
  return {"vantage", ValueType::string, Value{std::string("loopback")},
          "whose capture: <vantage>.pcap in the case folder"};
}

ValueSpec tcp_side_param(const std::string& doc) {
  return {"by", ValueType::string, Value{std::string("any")}, doc, {"any", "initiator", "responder"}};
}

std::vector<int> tcp_sides(const ValueMap& params) {
  const auto by = value_or<std::string>(params, "by", "any");
  if (by == "initiator") return {0};
  if (by == "responder") return {1};
  return {0, 1};
}

TcpCaptureOrVerdict load_tcp_capture(const CheckInput& input) {
  const auto vantage = value_or<std::string>(input.params, "vantage", "loopback");
  TcpCapture capture;
  capture.file = vantage + ".pcap";
  const auto path = std::filesystem::path(input.artifact_dir) / capture.file;
  std::vector<TcpSegment> segments;
  try {
    segments = read_tcp_segments(path.string());
  } catch (const InputError& e) {
    return {std::nullopt, {Verdict::fail, fmt::format("{}: {}", capture.file, e.diagnostics().front().message), {}}};
  }
  if (segments.empty())
    return {std::nullopt, {Verdict::fail, capture.file + " holds no TCP segment over IPv4", {}}};
  capture.origin_ns = segments.front().time_ns;
  capture.flows = tcp::analyze_tcp(segments);
  return {std::move(capture), {}};
}

std::string format_ms(std::int64_t ns) { return fmt::format("{:.3f} ms", ns / 1e6); }

}  // namespace conform

// How a frame reads in `conform dissect`: one compact text token for people,
// one JSON object for tools (field names follow RFC 9000 §19, snake_case).
#pragma once

#include "dissect/frames.hpp"

#include <nlohmann/json_fwd.hpp>

#include <string>

namespace conform::dissect {

/// e.g. "STREAM id=4 off=0 len=100 fin", "ACK 7-9,2-5 delay=12",
/// "PADDING×917", "MALFORMED type=0x40 at 12 (18 bytes): unknown frame type 0x40".
std::string describe_frame(const Frame& frame);

/// {"type": "STREAM", "type_value": 11, "stream_id": 4, ...}; binary fields
/// (tokens, connection IDs, path data) as lower-case hex.
nlohmann::json frame_to_json(const Frame& frame);

}  // namespace conform::dissect

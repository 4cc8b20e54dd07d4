// Parsing a decrypted packet payload into frames (RFC 9000 §12.4, §19;
// RFC 9221 §4).
#pragma once

#include "dissect/frames.hpp"

#include <span>
#include <vector>

namespace conform::dissect {

/// The frames of `payload`, in order. Parsing never throws and never reads
/// out of bounds: the first frame that cannot be decoded becomes a
/// MalformedFrame covering the rest of the payload, and parsing stops there;
/// so does a frame type it does not know (an UnknownFrame, no error: an
/// extension's frame carries no length to skip it by).
/// Encodings the RFC calls FRAME_ENCODING_ERROR (a NEW_CONNECTION_ID length
/// outside 1..20, Retire Prior To above Sequence Number, a stream or
/// MAX_STREAMS value above 2^60, offset + length above 2^62 - 1, an ACK range
/// below packet number 0) are malformed too. An empty payload yields one
/// MalformedFrame: a packet must hold at least one frame (§12.4).
std::vector<Frame> parse_frames(std::span<const std::uint8_t> payload);

}  // namespace conform::dissect

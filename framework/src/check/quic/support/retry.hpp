// A Retry from the client's side (RFC 9000 §17.2.5, RFC 9002 §6.3): the
// client accepts the first Retry only, discards the Initial packets it sent
// before it and starts its Initial space again, loss recovery included, with
// Initials that carry the Retry's token. The token, not capture order, tells
// the two apart: at the server's host a datagram the client sent before the
// Retry may arrive after it.
#pragma once

#include "dissect/timeline.hpp"

#include <optional>

namespace conform::quic_checks {

/// The token of the connection's first Retry, if the server sent one.
std::optional<dissect::Bytes> retry_token(const dissect::Connection& c);

/// Whether client datagram `d` holds an Initial that the Retry of
/// `token` discarded: one without that token.
bool discarded_by_retry(const dissect::Datagram& d, const std::optional<dissect::Bytes>& token);

/// Whether client datagram `d` holds an Initial carrying `token`: sent after
/// the client read the Retry.
bool answers_retry(const dissect::Datagram& d, const std::optional<dissect::Bytes>& token);

}  // namespace conform::quic_checks

// Names of the timeline's enumerations.
#include "dissect/timeline.hpp"

#include <algorithm>

namespace conform::dissect {

bool ack_eliciting(const Packet& p) {
  return std::any_of(p.frames.begin(), p.frames.end(), [](const Frame& f) { return ack_eliciting(f); });
}

std::string_view to_string(Direction direction) {
  return direction == Direction::client_to_server ? "client_to_server" : "server_to_client";
}

std::string_view to_string(Undecryptable reason) {
  switch (reason) {
    case Undecryptable::malformed_header: return "malformed_header";
    case Undecryptable::unknown_version: return "unknown_version";
    case Undecryptable::no_keys: return "no_keys";
    case Undecryptable::authentication_failed: return "authentication_failed";
    case Undecryptable::stateless_reset: return "stateless_reset";
  }
  return "?";
}

}  // namespace conform::dissect

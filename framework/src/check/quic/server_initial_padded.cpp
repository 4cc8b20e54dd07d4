// `server_initial_padded`: a server expands every UDP datagram carrying an
// ack-eliciting Initial packet to at least 1200 bytes (RFC 9000 §14.1:
// MUST); its ACK-only Initials may be smaller. Judged at the server's own
// capture.
#include "check/quic/support/initial_padding.hpp"
#include "check/registrar.hpp"

namespace conform::quic_checks {
namespace {

class ServerInitialPadded final : public InitialPadded {
 public:
  ServerInitialPadded() : InitialPadded(Side::server) {}
  std::string name() const override { return "server_initial_padded"; }
};

}  // namespace
}  // namespace conform::quic_checks

CONFORM_REGISTER_CHECK(server_initial_padded, quic_checks::ServerInitialPadded)

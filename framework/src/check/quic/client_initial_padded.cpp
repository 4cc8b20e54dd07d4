// `client_initial_padded`: a client expands every UDP datagram carrying an
// Initial packet to at least 1200 bytes, coalesced packets included (RFC
// 9000 §14.1: MUST). Judged at the client's own captures.
#include "check/quic/support/initial_padding.hpp"
#include "check/registrar.hpp"

namespace conform::quic_checks {
namespace {

class ClientInitialPadded final : public InitialPadded {
 public:
  ClientInitialPadded() : InitialPadded(Side::client) {}
  std::string name() const override { return "client_initial_padded"; }
};

}  // namespace
}  // namespace conform::quic_checks

CONFORM_REGISTER_CHECK(client_initial_padded, quic_checks::ClientInitialPadded)

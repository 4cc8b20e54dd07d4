// `client_buffers_early_packets`: server packets that reach the client
// before it can process them are buffered and acknowledged once processed
// (RFC 9001 §5.7, §4.1.4: MAY). Read at the client's captures.
#include "check/quic/support/early_packets.hpp"
#include "check/registrar.hpp"

namespace conform::quic_checks {
namespace {

class ClientBuffersEarlyPackets final : public EarlyPacketsBuffered {
 public:
  ClientBuffersEarlyPackets() : EarlyPacketsBuffered(Side::client) {}
  std::string name() const override { return "client_buffers_early_packets"; }
};

}  // namespace
}  // namespace conform::quic_checks

CONFORM_REGISTER_CHECK(client_buffers_early_packets, quic_checks::ClientBuffersEarlyPackets)

// `server_buffers_early_packets`: client packets (1-RTT data before the
// client's Finished) that reach the server before it can process them are
// buffered and acknowledged once processed (RFC 9001 §5.7: MAY). Read at
// the server's capture.
#include "check/quic/support/early_packets.hpp"
#include "check/registrar.hpp"

namespace conform::quic_checks {
namespace {

class ServerBuffersEarlyPackets final : public EarlyPacketsBuffered {
 public:
  ServerBuffersEarlyPackets() : EarlyPacketsBuffered(Side::server) {}
  std::string name() const override { return "server_buffers_early_packets"; }
};

}  // namespace
}  // namespace conform::quic_checks

CONFORM_REGISTER_CHECK(server_buffers_early_packets, quic_checks::ServerBuffersEarlyPackets)

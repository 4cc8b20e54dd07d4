// Hand-made QUIC timelines for the check tests: one connection between the
// framework's client (127.0.0.1:40000) and server (127.0.0.2:4433), with
// datagrams built from packets and frames, frame numbers counting from 1.
#pragma once

#include "support/time_units.hpp"

#include "check/quic/support/quic_check.hpp"
#include "support/builtin_check.hpp"

#include <boost/test/unit_test.hpp>

#include <memory>
#include <string>
#include <vector>

namespace conform::test {

using dissect::Frame;
using dissect::Packet;
using dissect::PacketType;
using quic_checks::Side;

inline Packet packet(PacketType type, std::uint64_t pn, std::vector<Frame> frames, std::size_t length = 0) {
  Packet p;
  p.type = type;
  p.space = dissect::space_of(type);
  p.packet_number = pn;
  std::size_t payload = 0;
  for (const auto& f : frames) {
    if (const auto* pad = std::get_if<dissect::PaddingFrame>(&f)) payload += pad->count;
    else if (const auto* c = std::get_if<dissect::CryptoFrame>(&f)) payload += 4 + c->length;
    else if (const auto* s = std::get_if<dissect::StreamFrame>(&f)) payload += 4 + s->length;
    else payload += 4;
  }
  p.payload_length = payload;
  // A long header with 8-byte connection IDs and a 16-byte tag: 40 bytes.
  p.length = length ? length : payload + 40;
  p.frames = std::move(frames);
  return p;
}
inline Packet initial(std::uint64_t pn, std::vector<Frame> f, std::size_t length = 0) {
  return packet(PacketType::initial, pn, std::move(f), length);
}
inline Packet handshake(std::uint64_t pn, std::vector<Frame> f, std::size_t length = 0) {
  return packet(PacketType::handshake, pn, std::move(f), length);
}
inline Packet one_rtt(std::uint64_t pn, std::vector<Frame> f) { return packet(PacketType::one_rtt, pn, std::move(f)); }

inline Frame stream(std::uint64_t id, std::uint64_t offset, std::uint64_t length, bool fin) {
  dissect::StreamFrame s;
  s.stream_id = id;
  s.offset = offset;
  s.length = length;
  s.fin = fin;
  s.has_offset = offset > 0;
  s.has_length = true;
  return s;
}
inline Frame crypto(std::uint64_t offset, std::uint64_t length) { return dissect::CryptoFrame{offset, length, 0}; }
inline Frame ack(std::uint64_t smallest, std::uint64_t largest) {
  dissect::AckFrame a;
  a.largest = largest;
  a.ranges = {{smallest, largest}};
  return a;
}
inline Frame padding(std::uint64_t n) { return dissect::PaddingFrame{n}; }
inline Frame ping() { return dissect::PingFrame{}; }
inline Frame max_streams(bool bidi, std::uint64_t n) { return dissect::MaxStreamsFrame{bidi, n}; }
inline Frame streams_blocked(bool bidi, std::uint64_t n) { return dissect::StreamsBlockedFrame{bidi, n}; }
inline Frame max_data(std::uint64_t n) { return dissect::MaxDataFrame{n}; }
inline Frame data_blocked(std::uint64_t n) { return dissect::DataBlockedFrame{n}; }
inline Frame max_stream_data(std::uint64_t id, std::uint64_t n) { return dissect::MaxStreamDataFrame{id, n}; }
inline Frame stream_data_blocked(std::uint64_t id, std::uint64_t n) { return dissect::StreamDataBlockedFrame{id, n}; }
inline Frame connection_close(std::uint64_t code) { return dissect::ConnectionCloseFrame{false, code, 0, ""}; }

/// One connection being written, datagram by datagram.
class TimelineBuilder {
 public:
  explicit TimelineBuilder(std::uint16_t client_port = 40000) {
    dissect::Connection c;
    c.client = {kClientAddress, client_port};
    c.server = {kServerAddress, 4433};
    c.original_dcid = {1, 2, 3, 4, std::uint8_t(client_port & 0xff)};
    c.client_parameters = dissect::TransportParameters{};
    c.server_parameters = dissect::TransportParameters{};
    timeline_.connections.push_back(std::move(c));
  }
  dissect::TransportParameters& params(Side s) {
    auto& c = timeline_.connections.front();
    return *(s == Side::client ? c.client_parameters : c.server_parameters);
  }
  dissect::Connection& connection() { return timeline_.connections.front(); }
  const dissect::Timeline& timeline() const { return timeline_; }

  /// Adds a datagram `from` at `time_ns`; `size` 0: the packets' lengths.
  /// Returns its frame number.
  std::uint64_t send(Side from, std::int64_t time_ns, std::vector<Packet> packets, std::size_t size = 0) {
    auto& c = timeline_.connections.front();
    dissect::Datagram d;
    d.frame = ++frame_;
    d.time_ns = time_ns;
    d.direction = from == Side::client ? dissect::Direction::client_to_server : dissect::Direction::server_to_client;
    d.from = from == Side::client ? c.client : c.server;
    d.to = from == Side::client ? c.server : c.client;
    std::size_t total = 0;
    for (const auto& p : packets) total += p.length;
    d.size = size ? size : total;
    d.packets = std::move(packets);
    c.datagrams.push_back(std::move(d));
    return frame_;
  }
  std::uint64_t send(Side from, std::int64_t time_ns, std::vector<Frame> frames) {
    return send(from, time_ns, {one_rtt(next_pn_[from == Side::client ? 0 : 1]++, std::move(frames))});
  }

  std::shared_ptr<const quic_checks::CaptureFacts> facts(const std::string& file) const {
    return quic_checks::make_capture_facts(file, timeline_);
  }

 private:
  dissect::Timeline timeline_;
  std::uint64_t frame_ = 0;
  std::uint64_t next_pn_[2] = {0, 0};
};

/// Runs check `name` on `run` with `params` (defaults filled in as the suite
/// loader does), the run's `demand` as its scenario declares it, and its
/// `network` settings.
inline CheckResult judge(const std::string& name, const quic_checks::QuicRun& run, ValueMap params,
                         std::optional<RunDemand> demand = {}, ValueMap network = {}) {
  const Check* check = CheckRegistry::builtin().find(name);
  BOOST_TEST_REQUIRE(check != nullptr);
  const auto* quic = dynamic_cast<const quic_checks::QuicCheck*>(check);
  BOOST_TEST_REQUIRE(quic != nullptr);
  params = with_check_defaults(*check, std::move(params));
  CaseSettings settings;
  settings.demand = std::move(demand);
  settings.network = std::move(network);
  const std::string dir;
  return quic->judge(run, {dir, settings, params});
}

/// A demand of `side`: `value` of `what` (&SideDemand::uni_streams, ...)
/// from `source` ("streams=3").
inline RunDemand demand_of(Side side, std::optional<DemandValue> SideDemand::*what, std::uint64_t value,
                           std::string source) {
  RunDemand d;
  (side == Side::client ? d.client : d.server).*what = DemandValue{value, std::move(source)};
  return d;
}

/// A run with only a client capture, or only a server capture.
inline quic_checks::QuicRun client_run(const TimelineBuilder& b) { return {nullptr, {b.facts("client.pcap")}}; }
inline quic_checks::QuicRun server_run(const TimelineBuilder& b) { return {b.facts("server.pcap"), {}}; }
/// The same runs with their captures taken at `v` (docs/offline.md, "Vantage").
inline quic_checks::QuicRun client_run(const TimelineBuilder& b, Vantage v) {
  auto run = client_run(b);
  run.set_vantage(v);
  return run;
}
inline quic_checks::QuicRun server_run(const TimelineBuilder& b, Vantage v) {
  auto run = server_run(b);
  run.set_vantage(v);
  return run;
}

inline std::vector<std::uint64_t> frames_of(const CheckResult& r) {
  std::vector<std::uint64_t> out;
  for (const auto& e : r.evidence) out.push_back(e.frame);
  return out;
}
using Frames = std::vector<std::uint64_t>;

}  // namespace conform::test

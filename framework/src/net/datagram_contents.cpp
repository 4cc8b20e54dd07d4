// The run's datagrams read with its own keys.
#include "net/datagram_contents.hpp"

#include "dissect/dissector.hpp"

#include <set>

namespace conform {
namespace {

NetEndpoint endpoint(UdpEndpoint e) {
  NetEndpoint out;
  out.address = e.address;
  out.port = e.port;
  return out;
}

std::optional<LongType> long_type(dissect::PacketType t) {
  switch (t) {
    case dissect::PacketType::initial: return LongType::initial;
    case dissect::PacketType::zero_rtt: return LongType::zero_rtt;
    case dissect::PacketType::handshake: return LongType::handshake;
    case dissect::PacketType::retry: return LongType::retry;
    default: return std::nullopt;
  }
}

std::optional<std::uint64_t> data_offset(const dissect::Frame& f) {
  if (const auto* c = std::get_if<dissect::CryptoFrame>(&f)) return c->offset;
  if (const auto* s = std::get_if<dissect::StreamFrame>(&f)) return s->offset;
  return std::nullopt;
}

PacketContents contents_of(const dissect::Packet& p) {
  PacketContents out;
  out.offset = p.offset;
  out.length = p.length;
  out.type = long_type(p.type);
  if (p.decrypted()) out.packet_number = p.packet_number;
  for (const dissect::Frame& f : p.frames) {
    out.frames.push_back({dissect::frame_name(f), data_offset(f)});
    out.ack_eliciting = out.ack_eliciting || dissect::ack_eliciting(f);
  }
  return out;
}

bool carries_handshake_done(const dissect::Datagram& d) {
  for (const dissect::Packet& p : d.packets)
    for (const dissect::Frame& f : p.frames)
      if (std::holds_alternative<dissect::HandshakeDoneFrame>(f)) return true;
  return false;
}

}  // namespace

struct DatagramReader::State {
  dissect::KeyLog keys;
  dissect::Dissector dissector{keys};
  std::uint64_t frame = 0;
  /// The client ports of the paths whose HANDSHAKE_DONE has gone.
  std::set<std::uint16_t> handshake_done;
};

DatagramReader::DatagramReader() : s_(std::make_unique<State>()) {}
DatagramReader::~DatagramReader() = default;

void DatagramReader::key_log(std::string_view line) {
  dissect::KeyLog more = dissect::parse_key_log(line, "key log");
  if (more.connections.empty()) return;
  dissect::merge_key_log(s_->keys, more);
  s_->dissector.secrets_added();
}

DatagramContents DatagramReader::read(Instant at, UdpEndpoint from, UdpEndpoint to,
                                      std::span<const std::uint8_t> payload) {
  CapturedDatagram d;
  d.frame = ++s_->frame;
  d.time_ns = at.ns();
  d.from = endpoint(from);
  d.to = endpoint(to);
  d.payload.assign(payload.begin(), payload.end());
  s_->dissector.add(d);
  DatagramContents out;
  // The path is named by its client's port: the server's is the same on every path.
  const std::uint16_t client_port = from.address == kServerAddress ? to.port : from.port;
  out.after_handshake_done = s_->handshake_done.contains(client_port);
  const dissect::Datagram* read = s_->dissector.last_added();
  if (!read) return out;
  for (const dissect::Packet& p : read->packets) out.packets.push_back(contents_of(p));
  if (carries_handshake_done(*read)) s_->handshake_done.insert(client_port);
  return out;
}

}  // namespace conform

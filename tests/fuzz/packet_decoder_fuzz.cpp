// Fuzzes the dissector with a sequence of datagrams. Input format: records
// of [direction byte][length, 2 bytes big-endian][payload]; direction bit 0
// set means server to client. A fixed key log names the RFC 9001 Appendix A
// client random, so seeds built from those packets reach Handshake and
// 1-RTT decryption too.
#include "dissect/dissector.hpp"
#include "dissect/timeline_format.hpp"

#include <sstream>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace conform;
  static const dissect::KeyLog keys = [] {
    const std::string r = "ebf8fa56f12939b9584a3896472ec40bb863cfd3e86804fe3a47f06a2b69484c";
    const std::string s(64, '1');
    return dissect::parse_key_log("CLIENT_HANDSHAKE_TRAFFIC_SECRET " + r + " " + s +
                                      "\nSERVER_HANDSHAKE_TRAFFIC_SECRET " + r + " " + s +
                                      "\nCLIENT_TRAFFIC_SECRET_0 " + r + " " + s +
                                      "\nSERVER_TRAFFIC_SECRET_0 " + r + " " + s + "\n",
                                  "fuzz.keys");
  }();
  const NetEndpoint client{0x7f000001, 50000}, server{0x7f000002, 4433};
  dissect::Dissector dissector(keys);
  std::size_t at = 0;
  std::uint64_t frame = 0;
  while (at + 3 <= size) {
    const bool from_server = data[at] & 1;
    const std::size_t length = std::min<std::size_t>(data[at + 1] << 8 | data[at + 2], size - at - 3);
    CapturedDatagram d;
    d.frame = ++frame;
    d.time_ns = static_cast<std::int64_t>(frame);
    d.from = from_server ? server : client;
    d.to = from_server ? client : server;
    d.payload.assign(data + at + 3, data + at + 3 + length);
    dissector.add(d);
    at += 3 + length;
  }
  const auto timeline = dissector.finish();
  std::ostringstream text, json;
  dissect::print_timeline(text, timeline);
  dissect::print_timeline_json(json, timeline);
  return 0;
}

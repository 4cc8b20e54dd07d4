// What the packets of a simulated run's datagrams are, read with the run's
// own keys, for the selectors that name packets by content
// (net/selector.hpp): every datagram the links carry goes, in the order it is
// sent and before any impairment, through one dissector (the same one
// `conform check` reads captures with) that learns the TLS secrets from the
// key log lines the endpoints write as they go. A datagram sent before its
// keys were logged stays unread (no packet number, no frames), as it would
// to an observer holding the key log at that moment.
#pragma once

#include "net/selector.hpp"

#include <conform/capture_writer.hpp>

#include <memory>
#include <span>
#include <string_view>

namespace conform {

class DatagramReader {
 public:
  DatagramReader();
  ~DatagramReader();
  DatagramReader(const DatagramReader&) = delete;
  DatagramReader& operator=(const DatagramReader&) = delete;

  /// A key log line ("LABEL <client random> <secret>") an endpoint wrote.
  /// A line that does not parse is ignored: the run's own key log records it.
  void key_log(std::string_view line);

  /// Reads the datagram `from` sends to `to` at `at`.
  DatagramContents read(Instant at, UdpEndpoint from, UdpEndpoint to,
                        std::span<const std::uint8_t> payload);

 private:
  struct State;
  std::unique_ptr<State> s_;
};

}  // namespace conform

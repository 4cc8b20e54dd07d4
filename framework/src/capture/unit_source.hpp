// A connection of a capture made elsewhere, kept by reference instead of
// copied: `conform check` writes into each QUIC connection's folder one
// file holding the capture's path, the frames of the connection, the time
// its unit's times count from (the capture's first datagram), where the
// capture was taken and the connection's key log lines (one file, not
// three: a capture of ten thousand connections makes ten thousand
// folders); whatever shows the connection later (the HTML page,
// report/run_view.cpp) reads its datagrams back from the capture.
#pragma once

#include "capture/pcap_reader.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace conform {

struct UnitSource {
  /// Absolute path of the capture, and its size when it was read: a
  /// capture of another size at that path is another capture.
  std::string capture;
  std::uint64_t bytes = 0;
  /// The connection's records, by frame number, ascending.
  std::vector<std::uint64_t> frames;
  std::int64_t origin_ns = 0;
  /// Where the capture was taken (capture/vantage.hpp's spelling).
  std::string vantage;
  /// The connection's lines of the key log (NSS format).
  std::string key_log;
};

/// The file in a unit folder that holds its UnitSource (JSON).
inline constexpr std::string_view kUnitSourceFile = "source.json";

/// Writes `source` into `folder`. Throws std::runtime_error when it cannot.
void write_unit_source(const std::string& folder, const UnitSource& source);

/// The UnitSource of `folder`, nullopt when it has none. Throws InputError
/// naming the file when it is malformed.
std::optional<UnitSource> read_unit_source(const std::string& folder);

/// Calls `on_datagram` with each datagram of `source`'s frames, read from
/// its capture in file order, times counted from its origin. Throws
/// InputError as for_each_datagram does, and naming the capture when it is
/// not the one read (another size, or damaged before the last frame).
void for_each_unit_datagram(const UnitSource& source, const std::function<void(const CapturedDatagram&)>& on_datagram);

}  // namespace conform

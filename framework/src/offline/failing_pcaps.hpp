// `conform check --write-failing-pcaps`: a QUIC unit's folder refers to its
// capture (capture/unit_source.hpp) and copies nothing; a person who wants
// to open a failing connection in Wireshark asks for its records, and gets
// them (each record's bytes and time, in a nanosecond pcap) as
// `connection.pcap`, with its key log lines as
// `connection.keys`.
#pragma once

#include "offline/capture_units.hpp"

#include <set>
#include <string_view>
#include <vector>

namespace conform {

/// The file each failing QUIC unit's records go to, in its folder.
inline constexpr std::string_view kFailingPcapFile = "connection.pcap";
inline constexpr std::string_view kFailingKeysFile = "connection.keys";

/// The connections a case failed on: unit numbers, by capture.
using FailingUnits = std::vector<std::set<std::size_t>>;

/// Writes the records of every QUIC unit of `captures` that `failing`
/// names, reading each capture once. TCP units already hold theirs.
/// Returns how many were written. Throws InputError naming a capture that
/// cannot be read, std::runtime_error naming a file that cannot be written.
std::size_t write_failing_pcaps(const FailingUnits& failing, const std::vector<SplitCapture>& captures);

}  // namespace conform

// What the HTML report shows of one run of a case, read from its artifact
// folder at report time: the sequence diagram's rows and the plots' series,
// as the JSON the page's script draws from. Shapes are in docs/reports.md.
#pragma once

#include "report/string_table.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>

namespace conform::report {

/// Rows of the sequence diagram embedded per run; the plots use every datagram.
inline constexpr std::size_t kMaxDiagramRows = 20000;

/// The view of the run whose artifacts are in `dir`:
/// - QUIC (client.pcap and/or server.pcap, decrypted with keys.log):
///   {"kind": "quic", "captures", "t0_ns", "rows", "rows_total", "streams",
///    "handshake", "notes"}, the rows by column ("us", "dir", "bytes",
///    "fate", "client_frame", "server_frame", "arrival_us", "packets"),
///    their packets' types, frames and notes as indices into `strings`;
/// - TCP (loopback.pcap): {"kind": "tcp", "capture", "flow", "windows",
///   "transfers", "notes"};
/// - otherwise {"kind": "none", "notes"}.
/// Never throws on bad artifacts: an unreadable capture becomes a note, so
/// one broken folder does not cost the whole report.
nlohmann::json run_view(const std::string& dir, StringTable& strings);

}  // namespace conform::report

// Copying the records of one capture into several files (one per TCP
// connection, say), byte for byte, with the original link type and
// nanosecond timestamps, so each file opens in Wireshark as the original
// would, restricted to those records.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace conform {

/// Writes each record of `path` whose `output_of(frame)` (frame numbers
/// from 1) is an index into `outputs` to that file; records given -1 are
/// skipped. Every output is created, even when it receives no record.
/// Throws InputError naming `path` when it cannot be read, and
/// std::runtime_error naming an output that cannot be written.
void split_records(const std::string& path, const std::function<int(std::uint64_t frame)>& output_of,
                   const std::vector<std::string>& outputs);

}  // namespace conform

// for_each_datagram with the reading on a thread of its own: libpcap's
// reading and the unwrapping of each record run beside whatever the caller
// does with the datagrams (conform check -j 2 and up dissects them), which
// gets them in batches through a bounded queue, so at most a few hundred
// datagrams are held at once.
#pragma once

#include "capture/pcap_reader.hpp"

#include <cstdint>
#include <functional>
#include <string>

namespace conform {

/// As for_each_datagram: `on_datagram` and `on_offset` are called on the
/// calling thread, in file order. What they throw stops the reading and is
/// rethrown, as is what the reading throws.
CaptureSummary for_each_datagram_read_ahead(const std::string& path,
                                            const std::function<void(const CapturedDatagram&)>& on_datagram,
                                            const std::function<void(std::uint64_t offset)>& on_offset = nullptr);

}  // namespace conform

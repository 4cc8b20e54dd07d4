// Whether a file is a capture libpcap can open: the test a plugin's own
// capture passes before the framework adopts it (RunContext::adopt_capture).
#pragma once

#include <string>

namespace conform {

/// Empty when libpcap opens `path` as a pcap or pcapng file; else libpcap's
/// reason, in one line.
std::string capture_file_problem(const std::string& path);

}  // namespace conform

// A capture file opened for reading with libpcap, every record's time in
// nanoseconds. libpcap reads through stdio, whose buffer is one disk block:
// a read(2) every few records. This one gives it a buffer of 1 MiB, so a
// gigabyte capture takes a thousandth of the calls (about a quarter of
// `conform check`'s time on a 2.4 GB capture went to them).
#pragma once

#include <pcap/pcap.h>

#include <memory>
#include <optional>
#include <string>

namespace conform {

/// Why `path` cannot be read as a capture before it is opened: missing, or
/// no regular file (a device, pipe or folder: conform reads a capture more
/// than once). Nothing when it is a file on disk.
std::optional<std::string> not_a_capture_file(const std::string& path);

class PcapFile {
 public:
  /// Throws InputError naming `path` with libpcap's words when it cannot
  /// be opened or is no capture.
  explicit PcapFile(const std::string& path);
  pcap_t* get() const { return pcap_.get(); }

 private:
  std::unique_ptr<char[]> buffer_;  // declared first: it outlives the FILE pcap_close closes
  std::unique_ptr<pcap_t, decltype(&pcap_close)> pcap_{nullptr, &pcap_close};
};

}  // namespace conform

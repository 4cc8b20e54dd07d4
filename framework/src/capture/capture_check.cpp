// Opening a file with libpcap to see that it is a capture.
#include "capture/capture_check.hpp"

#include <pcap/pcap.h>

namespace conform {

std::string capture_file_problem(const std::string& path) {
  char err[PCAP_ERRBUF_SIZE] = {};
  pcap_t* pcap = pcap_open_offline(path.c_str(), err);
  if (!pcap) return err[0] ? err : "not a capture libpcap reads";
  pcap_close(pcap);
  return {};
}

}  // namespace conform

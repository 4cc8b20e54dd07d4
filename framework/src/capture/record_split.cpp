// Splitting a capture's records into files with libpcap.
#include "capture/record_split.hpp"
#include "capture/pcap_open.hpp"

#include "common/input_error.hpp"

#include <pcap/pcap.h>

#include <memory>
#include <stdexcept>

namespace conform {

void split_records(const std::string& path, const std::function<int(std::uint64_t frame)>& output_of,
                   const std::vector<std::string>& outputs) {
  const PcapFile capture(path);
  pcap_t* const pcap = capture.get();
  std::vector<std::unique_ptr<pcap_dumper_t, decltype(&pcap_dump_close)>> dumpers;
  for (const auto& out : outputs) {
    dumpers.emplace_back(pcap_dump_open(pcap, out.c_str()), &pcap_dump_close);
    if (!dumpers.back()) throw std::runtime_error(out + ": cannot write: " + pcap_geterr(pcap));
  }
  pcap_pkthdr* header = nullptr;
  const u_char* data = nullptr;
  std::uint64_t frame = 0;
  while (pcap_next_ex(pcap, &header, &data) == 1) {
    const int k = output_of(++frame);
    if (k >= 0 && static_cast<std::size_t>(k) < dumpers.size())
      pcap_dump(reinterpret_cast<u_char*>(dumpers[k].get()), header, data);
  }
}

}  // namespace conform

// Splitting a capture's records into files with libpcap.
#include "capture/record_split.hpp"

#include "common/input_error.hpp"

#include <pcap/pcap.h>

#include <memory>
#include <stdexcept>

namespace conform {

void split_records(const std::string& path, const std::function<int(std::uint64_t frame)>& output_of,
                   const std::vector<std::string>& outputs) {
  char err[PCAP_ERRBUF_SIZE] = {};
  std::unique_ptr<pcap_t, decltype(&pcap_close)> pcap(
      pcap_open_offline_with_tstamp_precision(path.c_str(), PCAP_TSTAMP_PRECISION_NANO, err), &pcap_close);
  if (!pcap) throw InputError({path}, std::string("cannot read capture: ") + err);
  std::vector<std::unique_ptr<pcap_dumper_t, decltype(&pcap_dump_close)>> dumpers;
  for (const auto& out : outputs) {
    dumpers.emplace_back(pcap_dump_open(pcap.get(), out.c_str()), &pcap_dump_close);
    if (!dumpers.back()) throw std::runtime_error(out + ": cannot write: " + pcap_geterr(pcap.get()));
  }
  pcap_pkthdr* header = nullptr;
  const u_char* data = nullptr;
  std::uint64_t frame = 0;
  while (pcap_next_ex(pcap.get(), &header, &data) == 1) {
    const int k = output_of(++frame);
    if (k >= 0 && static_cast<std::size_t>(k) < dumpers.size())
      pcap_dump(reinterpret_cast<u_char*>(dumpers[k].get()), header, data);
  }
}

}  // namespace conform

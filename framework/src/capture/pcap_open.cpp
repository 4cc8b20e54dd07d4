#include "capture/pcap_open.hpp"

#include "common/input_error.hpp"

#include <cstdio>

namespace conform {

namespace {

constexpr std::size_t kReadBuffer = std::size_t{1} << 20;

}  // namespace

PcapFile::PcapFile(const std::string& path) : buffer_(new char[kReadBuffer]) {
  char err[PCAP_ERRBUF_SIZE] = {};
  if (FILE* file = std::fopen(path.c_str(), "rb")) {
    std::setvbuf(file, buffer_.get(), _IOFBF, kReadBuffer);
    pcap_.reset(pcap_fopen_offline_with_tstamp_precision(file, PCAP_TSTAMP_PRECISION_NANO, err));
    if (!pcap_) std::fclose(file);
  } else {
    // libpcap's own words for a file it cannot open ("-" is its stdin).
    pcap_.reset(pcap_open_offline_with_tstamp_precision(path.c_str(), PCAP_TSTAMP_PRECISION_NANO, err));
  }
  if (!pcap_) throw InputError({path}, std::string("cannot read capture: ") + err);
}

}  // namespace conform

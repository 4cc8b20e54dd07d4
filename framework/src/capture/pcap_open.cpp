#include "capture/pcap_open.hpp"

#include "common/input_error.hpp"

#include <cstdio>
#include <filesystem>

namespace conform {

namespace {

constexpr std::size_t kReadBuffer = std::size_t{1} << 20;

}  // namespace

std::optional<std::string> not_a_capture_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_regular_file(path, ec)) return std::nullopt;
  if (!std::filesystem::exists(path, ec)) return "no such capture file";
  return "not a capture file on disk (a device, pipe or folder): conform reads a capture more than once, so it "
         "needs a regular file";
}

PcapFile::PcapFile(const std::string& path) : buffer_(new char[kReadBuffer]) {
  char err[PCAP_ERRBUF_SIZE] = {};
  if (FILE* file = std::fopen(path.c_str(), "rb")) {
    std::setvbuf(file, buffer_.get(), _IOFBF, kReadBuffer);
    pcap_.reset(pcap_fopen_offline_with_tstamp_precision(file, PCAP_TSTAMP_PRECISION_NANO, err));
    if (!pcap_) std::fclose(file);
  } else {
    // libpcap's own words for a file it cannot open (permission denied),
    // as before this reader had a buffer of its own.
    pcap_.reset(pcap_open_offline_with_tstamp_precision(path.c_str(), PCAP_TSTAMP_PRECISION_NANO, err));
  }
  if (!pcap_) throw InputError({path}, std::string("cannot read capture: ") + err);
}

}  // namespace conform

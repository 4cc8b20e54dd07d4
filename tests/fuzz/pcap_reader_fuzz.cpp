// Fuzzes the capture reader (libpcap plus conform's link-layer, IP and UDP
// unwrapping, pcapng Decryption Secrets Blocks) and the dissector behind it
// with arbitrary capture files.
#include "capture/pcap_reader.hpp"
#include "capture/pcapng_secrets.hpp"
#include "common/input_error.hpp"
#include "dissect/dissector.hpp"
#include "dissect/timeline_format.hpp"

#include <cstdio>
#include <sstream>
#include <string>
#include <unistd.h>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace conform;
  static const std::string path = "/tmp/conform-fuzz-pcap-" + std::to_string(getpid());
  if (FILE* f = std::fopen(path.c_str(), "wb")) {
    std::fwrite(data, 1, size, f);
    std::fclose(f);
  } else {
    return 0;
  }
  try {
    dissect::KeyLog keys;
    for (const auto& block : read_pcapng_secrets(path))
      dissect::merge_key_log(keys, dissect::parse_key_log(block.key_log, path));
    const auto capture = read_capture(path);
    const auto timeline = dissect::dissect(capture.datagrams, keys);
    std::ostringstream text;
    dissect::print_timeline(text, timeline, &capture.summary);
  } catch (const InputError&) {
    // An unreadable capture is an expected outcome.
  }
  return 0;
}

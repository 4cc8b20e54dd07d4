// The HTML report's case folders.
#include "support/report_fixture.hpp"

#include "support/build_paths.hpp"

#include <pcap/pcap.h>

#include <filesystem>
#include <stdexcept>

namespace conform::test {
namespace {

namespace fs = std::filesystem;

const fs::path kNgtcp2 = fs::path(CONFORM_SOURCE_DIR) / "captures" / "ngtcp2";

void copy_file_to(const fs::path& from, const fs::path& to) {
  fs::create_directories(to.parent_path());
  fs::copy_file(from, to, fs::copy_options::overwrite_existing);
}

// The UDP source port of an Ethernet/IPv4 record (what stream-limit.pcap holds).
unsigned source_port(const u_char* bytes, bpf_u_int32 length) {
  constexpr unsigned kEthernet = 14;
  if (length < kEthernet + 20 + 2) return 0;
  const unsigned ip_header = (bytes[kEthernet] & 0x0f) * 4u;
  const u_char* udp = bytes + kEthernet + ip_header;
  return static_cast<unsigned>(udp[0]) << 8 | udp[1];
}

// `from` without the client's datagrams from frame `first_dropped` on.
void drop_client_datagrams(const fs::path& from, const fs::path& to, std::uint64_t first_dropped) {
  char error[PCAP_ERRBUF_SIZE];
  pcap_t* in = pcap_open_offline_with_tstamp_precision(from.c_str(), PCAP_TSTAMP_PRECISION_NANO, error);
  if (!in) throw std::runtime_error(from.string() + ": " + error);
  pcap_dumper_t* out = pcap_dump_open(in, to.c_str());
  if (!out) throw std::runtime_error(to.string() + ": " + pcap_geterr(in));
  constexpr unsigned kServerPort = 4433;
  pcap_pkthdr* header = nullptr;
  const u_char* bytes = nullptr;
  for (std::uint64_t frame = 1; pcap_next_ex(in, &header, &bytes) == 1; ++frame)
    if (frame < first_dropped || source_port(bytes, header->caplen) == kServerPort)
      pcap_dump(reinterpret_cast<u_char*>(out), header, bytes);
  pcap_dump_close(out);
  pcap_close(in);
}

}  // namespace

std::string make_report_fixture(const std::string& dir) {
  const fs::path root(dir);
  for (const char* name : {"healthy", "cliff"}) {
    copy_file_to(kNgtcp2 / "stream-limit.pcap", root / name / "client.pcap");
    copy_file_to(kNgtcp2 / "stream-limit.keys", root / name / "keys.log");
  }
  copy_file_to(kNgtcp2 / "stream-limit.pcap", root / "healthy" / "server.pcap");
  drop_client_datagrams(kNgtcp2 / "stream-limit.pcap", root / "cliff" / "server.pcap", kCliffFrame);
  copy_file_to(kNgtcp2 / "loss.pcap", root / "loss" / "client.pcap");
  copy_file_to(kNgtcp2 / "loss.keys", root / "loss" / "keys.log");
  copy_file_to(fs::path(CONFORM_SOURCE_DIR) / "captures" / "tcp" / "linux-tiny-buffer.pcap",
               root / "tcp" / "loopback.pcap");
  copy_file_to(fs::path(CONFORM_TEST_DATA_DIR) / "report" / "report.json", root / "report.json");
  return (root / "report.json").string();
}

}  // namespace conform::test

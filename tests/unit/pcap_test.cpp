// Captures: the IPv4/UDP packets build_ipv4_udp synthesises (checksums
// verified by recomputing them here), PcapWriter -> read_udp_datagrams round
// trips, hand-made Ethernet captures, and unreadable files.
#include "capture/pcap_reader.hpp"
#include "capture/pcap_writer.hpp"
#include "common/input_error.hpp"
#include "support/support.hpp"

#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

using namespace conform;
namespace fs = std::filesystem;

namespace {

using Bytes = std::vector<std::uint8_t>;

std::uint16_t be16(const Bytes& b, std::size_t at) {
  return static_cast<std::uint16_t>(b.at(at) << 8 | b.at(at + 1));
}
std::uint32_t be32(const Bytes& b, std::size_t at) {
  return std::uint32_t{be16(b, at)} << 16 | be16(b, at + 2);
}

// Our own RFC 1071 sum, kept apart from the framework's: the one's-complement
// sum of 16-bit big-endian words, folded to 16 bits (not inverted).
std::uint16_t folded_sum(const Bytes& bytes) {
  std::uint64_t sum = 0;
  for (std::size_t i = 0; i < bytes.size(); i += 2) {
    std::uint32_t hi = bytes[i];
    std::uint32_t lo = i + 1 < bytes.size() ? bytes[i + 1] : 0;
    sum += hi << 8 | lo;
  }
  while (sum >> 16) sum = (sum & 0xffff) + (sum >> 16);
  return static_cast<std::uint16_t>(sum);
}

// The IPv4 header's sum including its checksum field: 0xffff when correct.
std::uint16_t ip_header_sum(const Bytes& packet) {
  return folded_sum(Bytes(packet.begin(), packet.begin() + 20));
}

// The UDP pseudo-header plus the UDP header and data, checksum included:
// 0xffff when correct.
std::uint16_t udp_sum(const Bytes& packet) {
  const std::size_t udp_len = be16(packet, 24);
  Bytes pseudo(packet.begin() + 12, packet.begin() + 20);  // source, destination
  pseudo.push_back(0);
  pseudo.push_back(17);
  pseudo.push_back(static_cast<std::uint8_t>(udp_len >> 8));
  pseudo.push_back(static_cast<std::uint8_t>(udp_len));
  pseudo.insert(pseudo.end(), packet.begin() + 20, packet.begin() + 20 + udp_len);
  return folded_sum(pseudo);
}

Bytes to_bytes(const std::string& s) { return Bytes(s.begin(), s.end()); }

Bytes read_bytes(const std::string& path) { return to_bytes(conform::test::read_file(path)); }

// Little-endian writers for hand-made classic pcap files.
void le16(Bytes& b, std::uint16_t v) {
  b.push_back(static_cast<std::uint8_t>(v));
  b.push_back(static_cast<std::uint8_t>(v >> 8));
}
void le32(Bytes& b, std::uint32_t v) {
  le16(b, static_cast<std::uint16_t>(v));
  le16(b, static_cast<std::uint16_t>(v >> 16));
}

// A microsecond pcap header (magic a1b2c3d4) with `link_type`.
Bytes pcap_header(std::uint32_t link_type) {
  Bytes b;
  le32(b, 0xa1b2c3d4);
  le16(b, 2);
  le16(b, 4);
  le32(b, 0);
  le32(b, 0);
  le32(b, 65535);
  le32(b, link_type);
  return b;
}

void pcap_record(Bytes& file, std::uint32_t sec, std::uint32_t usec, const Bytes& frame) {
  le32(file, sec);
  le32(file, usec);
  le32(file, static_cast<std::uint32_t>(frame.size()));
  le32(file, static_cast<std::uint32_t>(frame.size()));
  file.insert(file.end(), frame.begin(), frame.end());
}

Bytes ethernet(std::uint16_t ether_type, const Bytes& payload) {
  Bytes f = {0x02, 0, 0, 0, 0, 2, 0x02, 0, 0, 0, 0, 1};
  f.push_back(static_cast<std::uint8_t>(ether_type >> 8));
  f.push_back(static_cast<std::uint8_t>(ether_type));
  f.insert(f.end(), payload.begin(), payload.end());
  return f;
}

void write_bytes(const std::string& path, const Bytes& b) {
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(b.data()),
                                              static_cast<std::streamsize>(b.size()));
}

// The what() of the InputError read_udp_datagrams(path) throws, after
// checking that it names `path` as its file.
std::string read_error(const std::string& path) {
  try {
    read_udp_datagrams(path);
  } catch (const InputError& e) {
    BOOST_REQUIRE_EQUAL(e.diagnostics().size(), 1u);
    BOOST_TEST(e.diagnostics().front().pos.file == path);
    BOOST_TEST(e.diagnostics().front().pos.line == 0u);
    return e.what();
  }
  BOOST_FAIL("reading " << path << " threw nothing");
  return {};
}

const UdpEndpoint kClient{kClientAddress, 40000};
const UdpEndpoint kServer{kServerAddress, 4433};

}  // namespace

BOOST_AUTO_TEST_SUITE(pcap_test)

BOOST_AUTO_TEST_CASE(ipv4_udp_header_fields) {
  const Bytes payload = to_bytes("hello");  // odd length: the sum pads a zero byte
  const Bytes p = build_ipv4_udp(kClient, kServer, payload);
  BOOST_REQUIRE_EQUAL(p.size(), 20u + 8u + 5u);
  BOOST_TEST(p[0] == 0x45);                  // version 4, 5 words of header
  BOOST_TEST(p[1] == 0);                     // DSCP/ECN
  BOOST_TEST(be16(p, 2) == 33);              // total length
  BOOST_TEST(be16(p, 4) == 0);               // identification
  BOOST_TEST(be16(p, 6) == 0x4000);          // DF, offset 0
  BOOST_TEST(p[8] == 64);                    // TTL
  BOOST_TEST(p[9] == 17);                    // UDP
  BOOST_TEST(be32(p, 12) == 0x7f000001u);    // 127.0.0.1
  BOOST_TEST(be32(p, 16) == 0x7f000002u);    // 127.0.0.2
  BOOST_TEST(be16(p, 20) == 40000);
  BOOST_TEST(be16(p, 22) == 4433);
  BOOST_TEST(be16(p, 24) == 13);             // UDP length: header + payload
  BOOST_TEST(Bytes(p.begin() + 28, p.end()) == payload, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(ipv4_and_udp_checksums_verify) {
  const std::vector<Bytes> payloads = {to_bytes("hello"), to_bytes("even"), Bytes{},
                                       Bytes(1200, 0xab), Bytes{0xff, 0xff, 0xff}};
  for (const auto& payload : payloads) {
    for (auto [from, to] : {std::pair{kClient, kServer}, std::pair{kServer, kClient},
                            std::pair{UdpEndpoint{0xc0a80101, 1}, UdpEndpoint{0x08080808, 65535}}}) {
      const Bytes p = build_ipv4_udp(from, to, payload);
      BOOST_TEST_CONTEXT("payload of " << payload.size() << " bytes from " << std::hex
                                        << from.address) {
        BOOST_TEST(be16(p, 10) != 0);
        BOOST_TEST(ip_header_sum(p) == 0xffff);
        BOOST_TEST(be16(p, 26) != 0);  // 0 would mean "no checksum"
        BOOST_TEST(udp_sum(p) == 0xffff);
        BOOST_TEST(be16(p, 2) == 28 + payload.size());
        BOOST_TEST(be16(p, 24) == 8 + payload.size());
        BOOST_TEST(be32(p, 12) == from.address);
        BOOST_TEST(be32(p, 16) == to.address);
        BOOST_TEST(be16(p, 20) == from.port);
        BOOST_TEST(be16(p, 22) == to.port);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(checksum_with_known_value) {
  // Worked by hand: 127.0.0.1:1 -> 127.0.0.2:2, empty payload.
  // IPv4 words: 4500 001c 0000 4000 4011 ---- 7f00 0001 7f00 0002
  //   sum = 0x1c330, folded 0xc331, checksum = ~0xc331 = 0x3cce
  // UDP: pseudo-header 7f00 0001 7f00 0002 0011 0008, header 0001 0002 0008
  //   sum = 0xfe27, checksum = ~0xfe27 = 0x01d8
  const Bytes p = build_ipv4_udp({0x7f000001, 1}, {0x7f000002, 2}, {});
  BOOST_TEST(be16(p, 10) == 0x3cce);
  BOOST_TEST(be16(p, 26) == 0x01d8);
}

BOOST_AUTO_TEST_CASE(udp_checksum_of_zero_is_sent_as_ffff) {
  // Pick a 2-byte payload that makes the computed UDP checksum 0; RFC 768
  // says to transmit it as all ones (0 means "no checksum").
  const UdpEndpoint from{0x7f000001, 1000}, to{0x7f000002, 2000};
  Bytes probe = build_ipv4_udp(from, to, Bytes{0, 0});
  // Sum of everything but the checksum field and the payload (both zero here).
  probe[26] = probe[27] = 0;
  const std::uint16_t rest = udp_sum(probe);
  const std::uint16_t word = static_cast<std::uint16_t>(0xffff - rest);
  const Bytes payload = {static_cast<std::uint8_t>(word >> 8), static_cast<std::uint8_t>(word)};
  const Bytes p = build_ipv4_udp(from, to, payload);
  BOOST_TEST(be16(p, 26) == 0xffff);
  BOOST_TEST(udp_sum(p) == 0xffff);
}

BOOST_AUTO_TEST_CASE(oversized_payload_is_truncated_to_one_packet) {
  const Bytes payload(70000, 0x5a);
  const Bytes p = build_ipv4_udp(kClient, kServer, payload);
  BOOST_TEST(p.size() == 65535u);
  BOOST_TEST(be16(p, 2) == 65535);
  BOOST_TEST(be16(p, 24) == 65535 - 20);
  BOOST_TEST(ip_header_sum(p) == 0xffff);
  BOOST_TEST(udp_sum(p) == 0xffff);
  // Exactly the largest payload fits untouched.
  BOOST_TEST(build_ipv4_udp(kClient, kServer, Bytes(65507, 1)).size() == 65535u);
  BOOST_TEST(build_ipv4_udp(kClient, kServer, Bytes(65506, 1)).size() == 65534u);
}

BOOST_AUTO_TEST_CASE(writer_and_reader_round_trip_with_nanoseconds) {
  const std::string dir = conform::test::scratch_dir("pcap_round_trip");
  const std::string path = dir + "/client.pcap";
  const std::vector<std::int64_t> times = {0, 1, 999'999'999, 1'500'000'123, 7'000'000'999,
                                           86'400'000'000'001};
  {
    PcapWriter w(path);
    for (std::size_t i = 0; i < times.size(); ++i) {
      const Bytes payload(i * 10 + 1, static_cast<std::uint8_t>(i));
      if (i % 2 == 0) w.write_udp(times[i], kClient, kServer, payload);
      else w.write_udp(times[i], kServer, kClient, payload);
    }
    w.flush();
    // flush() puts the records on disk before the writer closes.
    BOOST_TEST(read_udp_datagrams(path).size() == times.size());
  }

  const Bytes file = read_bytes(path);
  BOOST_REQUIRE_GE(file.size(), 24u);
  // Nanosecond-resolution magic, written in host (little-endian) order,
  // and LINKTYPE_RAW (101).
  BOOST_TEST((file[0] == 0x4d && file[1] == 0x3c && file[2] == 0xb2 && file[3] == 0xa1));
  BOOST_TEST((file[20] | file[21] << 8) == 101);

  const auto datagrams = read_udp_datagrams(path);
  BOOST_REQUIRE_EQUAL(datagrams.size(), times.size());
  for (std::size_t i = 0; i < times.size(); ++i) {
    BOOST_TEST_CONTEXT("record " << i) {
      const auto& d = datagrams[i];
      BOOST_TEST(d.frame == i + 1);
      BOOST_TEST(d.time_ns == times[i]);
      const UdpEndpoint from = i % 2 == 0 ? kClient : kServer;
      const UdpEndpoint to = i % 2 == 0 ? kServer : kClient;
      BOOST_TEST(d.from.address == from.address);
      BOOST_TEST(d.from.port == from.port);
      BOOST_TEST(d.to.address == to.address);
      BOOST_TEST(d.to.port == to.port);
      BOOST_TEST(d.payload == Bytes(i * 10 + 1, static_cast<std::uint8_t>(i)),
                 boost::test_tools::per_element());
    }
  }
}

BOOST_AUTO_TEST_CASE(writer_truncates_an_existing_file) {
  const std::string dir = conform::test::scratch_dir("pcap_truncate");
  const std::string path = dir + "/c.pcap";
  {
    PcapWriter w(path);
    w.write_udp(1, kClient, kServer, Bytes{1});
    w.write_udp(2, kClient, kServer, Bytes{2});
  }
  {
    PcapWriter w(path);
    w.write_udp(3, kServer, kClient, Bytes{3});
  }
  const auto d = read_udp_datagrams(path);
  BOOST_REQUIRE_EQUAL(d.size(), 1u);
  BOOST_TEST(d[0].time_ns == 3);
  BOOST_TEST(d[0].payload == Bytes{3}, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(writer_in_missing_folder_throws_naming_the_file) {
  const std::string path = conform::test::scratch_dir("pcap_nofolder") + "/missing/dir/x.pcap";
  try {
    PcapWriter w(path);
    BOOST_FAIL("PcapWriter opened " << path);
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    BOOST_TEST(what.rfind(path + ": cannot write capture: ", 0) == 0u, what);
  }
}

BOOST_AUTO_TEST_CASE(ethernet_captures_skip_other_frames_but_count_them) {
  const std::string dir = conform::test::scratch_dir("pcap_ethernet");
  const std::string path = dir + "/eth.pcap";
  const Bytes ip1 = build_ipv4_udp(kClient, kServer, to_bytes("one"));
  const Bytes ip2 = build_ipv4_udp(kServer, kClient, to_bytes("two!"));
  Bytes tcp = build_ipv4_udp(kClient, kServer, to_bytes("tcp"));
  tcp[9] = 6;  // not UDP
  Bytes file = pcap_header(1);  // LINKTYPE_ETHERNET
  pcap_record(file, 10, 250, ethernet(0x0800, ip1));          // frame 1: UDP
  pcap_record(file, 10, 500, ethernet(0x0806, Bytes(28, 0)));  // frame 2: ARP
  pcap_record(file, 11, 0, ethernet(0x0800, tcp));             // frame 3: TCP
  pcap_record(file, 12, 999'999, ethernet(0x0800, ip2));       // frame 4: UDP
  pcap_record(file, 13, 0, Bytes(6, 0));                        // frame 5: runt
  write_bytes(path, file);

  const auto d = read_udp_datagrams(path);
  BOOST_REQUIRE_EQUAL(d.size(), 2u);
  BOOST_TEST(d[0].frame == 1u);
  // Microsecond timestamps read back in nanoseconds.
  BOOST_TEST(d[0].time_ns == 10'000'250'000);
  BOOST_TEST(d[0].payload == to_bytes("one"), boost::test_tools::per_element());
  BOOST_TEST(d[1].frame == 4u);
  BOOST_TEST(d[1].time_ns == 12'999'999'000);
  BOOST_TEST(d[1].from.address == kServerAddress);
  BOOST_TEST(d[1].to.port == 40000);
  BOOST_TEST(d[1].payload == to_bytes("two!"), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(lengths_in_headers_bound_the_payload) {
  // A frame longer than its IPv4 total length (Ethernet padding) yields only
  // the datagram's own bytes.
  const std::string dir = conform::test::scratch_dir("pcap_padding");
  const std::string path = dir + "/pad.pcap";
  Bytes ip = build_ipv4_udp(kClient, kServer, to_bytes("ab"));
  ip.insert(ip.end(), {0, 0, 0, 0, 0, 0});  // trailer after the packet
  Bytes file = pcap_header(1);
  pcap_record(file, 1, 0, ethernet(0x0800, ip));
  write_bytes(path, file);
  const auto d = read_udp_datagrams(path);
  BOOST_REQUIRE_EQUAL(d.size(), 1u);
  BOOST_TEST(d[0].payload == to_bytes("ab"), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(truncated_record_names_file_and_frame) {
  const std::string dir = conform::test::scratch_dir("pcap_truncated");
  const std::string path = dir + "/cut.pcap";
  {
    PcapWriter w(path);
    for (int i = 0; i < 3; ++i) w.write_udp(i, kClient, kServer, Bytes(100, 7));
  }
  const auto size = fs::file_size(path);
  fs::resize_file(path, size - 40);  // the third record loses its tail
  const std::string what = read_error(path);
  // 24 bytes of file header, then two records of 16 + 128 bytes.
  BOOST_TEST(what.rfind(path + ": frame 3 at byte 312: ", 0) == 0u, what);
  BOOST_TEST(what.find("truncated") != std::string::npos, what);
  BOOST_TEST(what.find('\n') == std::string::npos, what);
}

BOOST_AUTO_TEST_CASE(truncated_file_header_names_the_file) {
  const std::string dir = conform::test::scratch_dir("pcap_short");
  const std::string path = dir + "/short.pcap";
  {
    PcapWriter w(path);
    w.write_udp(0, kClient, kServer, Bytes(10, 1));
  }
  fs::resize_file(path, 10);
  const std::string what = read_error(path);
  BOOST_TEST(what.rfind(path + ": cannot read capture: ", 0) == 0u, what);
}

BOOST_AUTO_TEST_CASE(non_pcap_file_names_the_file) {
  const std::string dir = conform::test::scratch_dir("pcap_text");
  const std::string path =
      conform::test::write_file(dir + "/notes.pcap", "These are notes, not a capture.\n");
  const std::string what = read_error(path);
  BOOST_TEST(what.rfind(path + ": cannot read capture: ", 0) == 0u, what);
  BOOST_TEST(what.find('\n') == std::string::npos, what);
}

BOOST_AUTO_TEST_CASE(missing_file_names_the_file) {
  const std::string path = conform::test::scratch_dir("pcap_missing") + "/absent.pcap";
  const std::string what = read_error(path);
  BOOST_TEST(what.rfind(path + ": cannot read capture: ", 0) == 0u, what);
}

BOOST_AUTO_TEST_CASE(unsupported_link_type_names_it) {
  const std::string dir = conform::test::scratch_dir("pcap_linktype");
  const std::string path = dir + "/wifi.pcap";
  Bytes file = pcap_header(105);  // LINKTYPE_IEEE802_11
  pcap_record(file, 1, 0, Bytes(30, 0));
  write_bytes(path, file);
  BOOST_TEST(read_error(path) == path + ": unsupported link type IEEE802_11");
}

BOOST_AUTO_TEST_CASE(tshark_reads_the_capture_when_installed) {
  if (std::system("command -v tshark >/dev/null 2>&1") != 0) {
    BOOST_TEST_MESSAGE("tshark is not installed; skipping the Wireshark cross-check");
    return;
  }
  const std::string dir = conform::test::scratch_dir("pcap_tshark");
  const std::string path = dir + "/c.pcap";
  {
    PcapWriter w(path);
    w.write_udp(1'000'000, kClient, kServer, to_bytes("hello"));
    w.write_udp(2'000'000, kServer, kClient, to_bytes("world!"));
  }
  const std::string out = dir + "/tshark.txt";
  // Only frames whose IPv4 and UDP checksums Wireshark verified as good
  // (status 1) pass the display filter.
  const std::string cmd = "tshark -r '" + path +
                          "' -o ip.check_checksum:TRUE -o udp.check_checksum:TRUE"
                          " -Y 'ip.checksum.status == 1 && udp.checksum.status == 1'"
                          " -T fields -e frame.number -e udp.srcport -e udp.dstport -e udp.length"
                          " > '" + out + "' 2>/dev/null";
  BOOST_REQUIRE(std::system(cmd.c_str()) == 0);
  BOOST_TEST(conform::test::read_file(out) == "1\t40000\t4433\t13\n2\t4433\t40000\t14\n");
}

BOOST_AUTO_TEST_SUITE_END()

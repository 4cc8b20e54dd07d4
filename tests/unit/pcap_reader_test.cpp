// Reading UDP out of every link type and IP version a QUIC capture comes
// in. The files are written byte by byte here (pcap format: a 24-byte
// global header, then 16-byte record headers), not through libpcap.
#include "capture/pcap_reader.hpp"
#include "capture/pcap_writer.hpp"
#include "common/input_error.hpp"
#include "support/support.hpp"

#include <boost/test/unit_test.hpp>

#include <fstream>

using namespace conform;

namespace {

using Bytes = std::vector<std::uint8_t>;

void le32(Bytes& b, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) b.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}
void be16(Bytes& b, std::uint16_t v) {
  b.push_back(static_cast<std::uint8_t>(v >> 8));
  b.push_back(static_cast<std::uint8_t>(v));
}

std::string write_pcap(const std::string& name, std::uint32_t link_type, const std::vector<Bytes>& records,
                       bool cut_last = false) {
  Bytes f;
  le32(f, 0xa1b2c3d4);  // microsecond pcap, little-endian
  f.insert(f.end(), {2, 0, 4, 0});
  le32(f, 0);
  le32(f, 0);
  le32(f, 65535);
  le32(f, link_type);
  std::uint32_t t = 1;
  for (const auto& r : records) {
    le32(f, t++);
    le32(f, 250);
    le32(f, static_cast<std::uint32_t>(r.size()));
    le32(f, static_cast<std::uint32_t>(r.size()));
    f.insert(f.end(), r.begin(), r.end());
  }
  if (cut_last) f.resize(f.size() - 3);
  const std::string path = test::scratch_dir("pcap_reader") + "/" + name;
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(f.data()), f.size());
  return path;
}

const Bytes kPayload = {'q', 'u', 'i', 'c'};

Bytes ipv4_udp() { return build_ipv4_udp({0x7f000001, 1111}, {0x7f000002, 2222}, kPayload); }

Bytes ipv6_udp() {
  Bytes b = {0x60, 0, 0, 0};
  be16(b, static_cast<std::uint16_t>(8 + kPayload.size()));
  b.push_back(17);
  b.push_back(64);
  for (int i = 0; i < 15; ++i) b.push_back(0);
  b.push_back(1);  // ::1
  b.insert(b.end(), {0x20, 0x01, 0x0d, 0xb8});
  for (int i = 0; i < 11; ++i) b.push_back(0);
  b.push_back(2);  // 2001:db8::2
  be16(b, 1111);
  be16(b, 2222);
  be16(b, static_cast<std::uint16_t>(8 + kPayload.size()));
  be16(b, 0);
  b.insert(b.end(), kPayload.begin(), kPayload.end());
  return b;
}

Bytes with(Bytes prefix, const Bytes& ip) {
  prefix.insert(prefix.end(), ip.begin(), ip.end());
  return prefix;
}

void expect_one(const std::string& path, bool v6) {
  const CaptureContents c = read_capture(path);
  BOOST_REQUIRE_EQUAL(c.datagrams.size(), 1u);
  const CapturedDatagram& d = c.datagrams[0];
  BOOST_TEST(d.frame == 1u);
  BOOST_TEST(d.time_ns == 1'000'250'000);
  BOOST_TEST(d.payload == kPayload);
  BOOST_TEST(d.from.port == 1111);
  BOOST_TEST(d.to.port == 2222);
  BOOST_TEST(d.from.ipv6 == v6);
  BOOST_TEST(d.from.str() == (v6 ? "[::1]:1111" : "127.0.0.1:1111"));
  BOOST_TEST(d.to.str() == (v6 ? "[2001:db8::2]:2222" : "127.0.0.2:2222"));
  BOOST_TEST(d.ttl == 64);  // TTL or Hop Limit
}

}  // namespace

BOOST_AUTO_TEST_SUITE(pcap_reader_test)

BOOST_AUTO_TEST_CASE(every_link_type_and_ip_version) {
  const Bytes eth4 = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x08, 0x00};
  const Bytes eth6 = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x86, 0xdd};
  const Bytes vlan6 = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x81, 0x00, 0, 5, 0x86, 0xdd};
  Bytes sll = {0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0, 0, 0};
  Bytes sll2 = {0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0, 0, 0};
  expect_one(write_pcap("eth4.pcap", 1, {with(eth4, ipv4_udp())}), false);
  expect_one(write_pcap("eth6.pcap", 1, {with(eth6, ipv6_udp())}), true);
  expect_one(write_pcap("vlan6.pcap", 1, {with(vlan6, ipv6_udp())}), true);
  expect_one(write_pcap("raw4.pcap", 101, {ipv4_udp()}), false);
  expect_one(write_pcap("raw6.pcap", 101, {ipv6_udp()}), true);
  be16(sll, 0x0800);
  expect_one(write_pcap("sll.pcap", 113, {with(sll, ipv4_udp())}), false);
  Bytes sll2_6 = sll2;
  sll2_6[0] = 0x86;
  sll2_6[1] = 0xdd;
  expect_one(write_pcap("sll2.pcap", 276, {with(sll2_6, ipv6_udp())}), true);
  expect_one(write_pcap("null4.pcap", 0, {with({2, 0, 0, 0}, ipv4_udp())}), false);    // little-endian host
  expect_one(write_pcap("null6.pcap", 0, {with({0, 0, 0, 30}, ipv6_udp())}), true);    // big-endian macOS
  expect_one(write_pcap("loop6.pcap", 108, {with({0, 0, 0, 24}, ipv6_udp())}), true);
}

// A UDP checksum field holding only the pseudo-header's sum is what a
// sender offloading its checksum leaves for the card: the capture was
// taken on the sender's machine. A full checksum, or none, is not that.
BOOST_AUTO_TEST_CASE(a_checksum_left_for_the_card_is_told_from_a_full_one) {
  auto with_checksum = [](Bytes ip, std::size_t at, std::uint16_t sum) {
    ip[at] = static_cast<std::uint8_t>(sum >> 8);
    ip[at + 1] = static_cast<std::uint8_t>(sum);
    return ip;
  };
  // 127.0.0.1 -> 127.0.0.2, 12 bytes: 7f00+0001+7f00+0002+0011+000c.
  const Bytes offloaded4 = with_checksum(ipv4_udp(), 26, 0xfe20);
  // ::1 -> 2001:db8::2, 12 bytes: 0001+2001+0db8+0002+0011+000c.
  const Bytes offloaded6 = with_checksum(ipv6_udp(), 46, 0x2dd9);
  const auto c = read_capture(write_pcap("offload.pcap", 101,
                                         {ipv4_udp(), offloaded4, offloaded6, ipv6_udp(),
                                          with_checksum(ipv4_udp(), 26, 0), with_checksum(ipv4_udp(), 26, 0xfe21)}));
  std::vector<bool> offloaded;
  for (const auto& d : c.datagrams) offloaded.push_back(d.checksum_offloaded);
  BOOST_TEST(offloaded == (std::vector<bool>{false, true, true, false, false, false}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(what_is_not_udp_is_counted) {
  Bytes tcp = ipv4_udp();
  tcp[9] = 6;
  Bytes fragment = ipv4_udp();
  fragment[6] |= 0x20;  // More Fragments
  const Bytes arp = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x08, 0x06, 1, 2, 3};
  const Bytes eth4 = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x08, 0x00};
  const auto c = read_capture(write_pcap("mixed.pcap", 1, {with(eth4, tcp), arp, with(eth4, fragment),
                                                           with(eth4, ipv4_udp())}));
  BOOST_TEST(c.summary.records == 4u);
  BOOST_TEST(c.summary.not_udp == 2u);
  BOOST_TEST(c.summary.fragments == 1u);
  BOOST_REQUIRE_EQUAL(c.datagrams.size(), 1u);
  BOOST_TEST(c.datagrams[0].frame == 4u);
  BOOST_TEST(c.summary.link_type == "EN10MB");
}

BOOST_AUTO_TEST_CASE(a_cut_file_keeps_what_came_before) {
  const std::string path = write_pcap("cut.pcap", 101, {ipv4_udp(), ipv4_udp()}, true);
  const auto c = read_capture(path);
  BOOST_TEST(c.datagrams.size() == 1u);
  BOOST_REQUIRE(c.summary.damage.has_value());
  // The file header is 24 bytes, a record header 16.
  const std::string at = "frame 2 at byte " + std::to_string(24 + 16 + ipv4_udp().size()) + ": ";
  BOOST_TEST(c.summary.damage->rfind(at, 0) == 0u, *c.summary.damage);
  BOOST_TEST(c.summary.cut_short);
  BOOST_CHECK_THROW(read_udp_datagrams(path), InputError);
  BOOST_CHECK_THROW(read_capture(write_pcap("usb.pcap", 189, {})), InputError);
}

BOOST_AUTO_TEST_CASE(a_corrupt_record_is_not_a_cut_end) {
  // Record 2 claims 16 MB, more than any record of its link type may hold.
  std::string path = write_pcap("corrupt.pcap", 101, {ipv4_udp(), ipv4_udp(), ipv4_udp()});
  std::fstream f(path, std::ios::binary | std::ios::in | std::ios::out);
  f.seekp(static_cast<std::streamoff>(24 + 16 + ipv4_udp().size() + 8));
  f.write("\xff\xff\xff\x00", 4);
  f.close();
  const auto c = read_capture(path);
  BOOST_TEST(c.datagrams.size() == 1u);
  BOOST_REQUIRE(c.summary.damage.has_value());
  BOOST_TEST(c.summary.damage->rfind("frame 2 at byte " + std::to_string(24 + 16 + ipv4_udp().size()) + ": ", 0) ==
                 0u,
             *c.summary.damage);
  BOOST_TEST(!c.summary.cut_short);
}

BOOST_AUTO_TEST_SUITE_END()

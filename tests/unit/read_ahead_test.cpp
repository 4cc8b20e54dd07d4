// for_each_datagram_read_ahead: the same datagrams and summary as
// for_each_datagram, in the same order, on the caller's thread; what the
// caller throws stops the reading.
#include "capture/read_ahead.hpp"
#include "support/build_paths.hpp"

#include <boost/test/unit_test.hpp>

#include <stdexcept>
#include <thread>

using namespace conform;

namespace {

const std::string kReadAheadCapture = std::string(CONFORM_SOURCE_DIR) + "/captures/ngtcp2/large.pcap";

struct ReadSeen {
  std::uint64_t frame;
  std::int64_t time_ns;
  std::size_t bytes;
  std::uint8_t first;
  bool operator==(const ReadSeen&) const = default;
};

std::vector<ReadSeen> read_all(decltype(&for_each_datagram) read, std::vector<std::uint64_t>& offsets, CaptureSummary& summary) {
  std::vector<ReadSeen> out;
  const auto caller = std::this_thread::get_id();
  summary = read(
      kReadAheadCapture,
      [&](const CapturedDatagram& d) {
        BOOST_TEST((std::this_thread::get_id() == caller));
        out.push_back({d.frame, d.time_ns, d.payload.size(), d.payload.empty() ? std::uint8_t{0} : d.payload[0]});
      },
      [&](std::uint64_t offset) { offsets.push_back(offset); });
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(read_ahead_test)

BOOST_AUTO_TEST_CASE(the_same_datagrams_in_the_same_order) {
  std::vector<std::uint64_t> offsets, ahead_offsets;
  CaptureSummary summary, ahead_summary;
  const auto plain = read_all(&for_each_datagram, offsets, summary);
  const auto ahead = read_all(&for_each_datagram_read_ahead, ahead_offsets, ahead_summary);
  BOOST_TEST_REQUIRE(plain.size() > 2u * 256u);  // several batches
  BOOST_TEST((ahead == plain));
  BOOST_TEST(ahead_summary.records == summary.records);
  BOOST_TEST(ahead_summary.not_udp == summary.not_udp);
  BOOST_TEST(ahead_offsets == offsets);
}

BOOST_AUTO_TEST_CASE(what_the_caller_throws_stops_the_reading) {
  std::size_t calls = 0;
  BOOST_CHECK_THROW(for_each_datagram_read_ahead(kReadAheadCapture,
                                                 [&](const CapturedDatagram&) {
                                                   if (++calls == 300) throw std::runtime_error("enough");
                                                 }),
                    std::runtime_error);
  BOOST_TEST(calls == 300u);
  // And what the reading throws reaches the caller.
  BOOST_CHECK_THROW(for_each_datagram_read_ahead("/nonexistent.pcap", [](const CapturedDatagram&) {}), std::exception);
}

BOOST_AUTO_TEST_SUITE_END()

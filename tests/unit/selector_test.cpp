// Datagram selectors: parsing every form of net/selector.hpp, the errors a
// suite author gets, and which datagrams (or packets) of which direction a
// list of them picks, count by count.
#include "net/selector.hpp"

#include <boost/test/unit_test.hpp>

using namespace conform;

namespace {

// Named here: a unity batch may also hold conform::quic's.
using conform::Duration;
using conform::Instant;

DatagramSelector parsed(const char* text) {
  std::string error;
  auto s = parse_selector(text, error);
  BOOST_TEST_REQUIRE(s.has_value(), text << ": " << error);
  return *s;
}

std::string error_of(const char* text) {
  std::string error;
  BOOST_TEST(!parse_selector(text, error).has_value(), text);
  return error;
}

PacketContents packet(std::optional<LongType> type, std::uint64_t pn, std::size_t offset, std::size_t length,
                      std::vector<PacketContents::Frame> frames, bool eliciting) {
  PacketContents p;
  p.type = type;
  p.packet_number = pn;
  p.offset = offset;
  p.length = length;
  p.frames = std::move(frames);
  p.ack_eliciting = eliciting;
  return p;
}

// A server's first flight: Initial pn 0 (ACK, CRYPTO 0) and Handshake pn 0
// (CRYPTO 0), coalesced.
DatagramContents first_flight() {
  return {{packet(LongType::initial, 0, 0, 150, {{"ACK", {}}, {"CRYPTO", 0}}, true),
           packet(LongType::handshake, 0, 150, 1050, {{"CRYPTO", 0}}, true)},
          false};
}

// Picks of `list` over `positions`, one line each: "d" (the datagram), the
// packet indices, or "-".
std::vector<std::string> picks(const std::vector<DatagramSelector>& list,
                               const std::vector<DatagramPosition>& positions) {
  SelectorList selectors(list);
  std::vector<std::string> out;
  for (const auto& pos : positions) {
    auto p = selectors.pick(pos);
    std::string s = p.datagram ? "d" : "";
    for (auto i : p.packets) s += std::to_string(i);
    out.push_back(s.empty() ? "-" : s);
  }
  return out;
}

DatagramPosition by(std::string_view group, std::string_view name, std::uint8_t types = 0,
                    const DatagramContents* contents = nullptr, double ms = 0) {
  DatagramPosition pos;
  pos.group = group;
  pos.name = name;
  pos.at = Instant() + Duration::from_ms(ms);
  pos.types = types;
  pos.contents = contents;
  return pos;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(selector_test)

BOOST_AUTO_TEST_CASE(parses_the_count_forms) {
  auto a = parsed("client-12:7");
  BOOST_TEST(a.sender == "client-12");
  BOOST_TEST(!a.type.has_value());
  BOOST_TEST(a.nth == 7);
  BOOST_TEST(!a.reads_contents());
  auto b = parsed("server:0rtt:2");
  BOOST_TEST((b.type == LongType::zero_rtt));
  BOOST_TEST(parsed("server:initial:3rd").nth == 3);
  BOOST_TEST(parsed("server:1rtt:all").nth == 0);
  BOOST_TEST(parsed("server:1rtt").one_rtt);
  for (const char* bad : {"", "client", "client:", "client:x", "client:1:2:3", "client:-1", "server:initial:1x",
                          "client-:1", "client-01:1", "Client:1", "client:0", "client:2:initial"})
    error_of(bad);
}

BOOST_AUTO_TEST_CASE(parses_the_content_forms) {
  auto pn = parsed("server:handshake:pn=2");
  BOOST_TEST((pn.type == LongType::handshake));
  BOOST_TEST(*pn.packet_number == 2u);
  BOOST_TEST(pn.nth == 0);
  BOOST_TEST(pn.names_packet());
  BOOST_TEST(pn.content_part() == "pn=<n>");
  auto frame = parsed("server:frame=CRYPTO:offset>=1200:2nd");
  BOOST_TEST(frame.frame == "CRYPTO");
  BOOST_TEST(*frame.min_offset == 1200u);
  BOOST_TEST(frame.nth == 2);
  BOOST_TEST(!frame.names_packet());
  BOOST_TEST(*parsed("server:initial:ack_only").ack_eliciting == false);
  BOOST_TEST(*parsed("client:ack_eliciting").ack_eliciting == true);
  auto window = parsed("client:from_ms=100:to_ms=300.5");
  BOOST_TEST(window.from->ms() == 100.0);
  BOOST_TEST(window.to->ms() == 300.5);
  BOOST_TEST(!window.reads_contents());
  BOOST_TEST((parsed("server:after=handshake_done:1").after == SelectorEvent::handshake_done));
}

BOOST_AUTO_TEST_CASE(errors_name_the_part_at_fault) {
  BOOST_TEST(error_of("server:frame=MAX_STREAM:1").find("unknown frame type 'MAX_STREAM'; frame types: PADDING, PING, ACK") !=
             std::string::npos);
  BOOST_TEST(error_of("server:retry:pn=0") == "'server:retry:pn=0': a Retry packet has no packet number (RFC 9000 §17.2.5)");
  BOOST_TEST(error_of("server:pn=0").find("pn= needs the packet type") != std::string::npos);
  BOOST_TEST(error_of("client:from_ms=300:to_ms=300") ==
             "'client:from_ms=300:to_ms=300': the window from_ms..to_ms is empty: to_ms must be later than from_ms");
  BOOST_TEST(error_of("client:offset>=5").find("offset>= goes with frame=CRYPTO or frame=STREAM") != std::string::npos);
  BOOST_TEST(error_of("client:bogus:1").find("unknown part 'bogus'; accepted parts: <sender>, <n>, initial") !=
             std::string::npos);
  BOOST_TEST(error_of("client:initial:handshake").find("names two packet types") != std::string::npos);
  BOOST_TEST(error_of("client:after=close").find("after= takes handshake_done") != std::string::npos);
  BOOST_TEST(error_of("client:after=handshake_done:after=handshake_done").find("gives after= twice") !=
             std::string::npos);
  // from_chars reads "nan": a window of no time at all.
  for (const char* bad : {"server:from_ms=nan", "server:to_ms=NaN", "server:to_ms=0", "server:from_ms=-1",
                          "server:to_ms=inf"})
    BOOST_TEST(error_of(bad).find("must be milliseconds from 0") != std::string::npos, bad);
  BOOST_TEST(error_of("server:frame=CRYPTO:ack_only").find("ack_only cannot hold with frame=CRYPTO") !=
             std::string::npos);
  for (const char* bad : {"client:2st", "client:11st", "client:1th", "client:22th"}) error_of(bad);
  for (const char* good : {"client:11th", "client:12th", "client:21st", "client:22nd", "client:113th"})
    BOOST_TEST(parsed(good).nth > 0, good);
}

BOOST_AUTO_TEST_CASE(count_selectors_count_their_own_direction) {
  std::vector<DatagramPosition> client2(3, by("client", "client-2"));
  BOOST_TEST(picks({parsed("client:2")}, client2) == (std::vector<std::string>{"-", "d", "-"}));
  BOOST_TEST(picks({parsed("client-2:3")}, client2) == (std::vector<std::string>{"-", "-", "d"}));
  BOOST_TEST(picks({parsed("client-1:1")}, client2) == (std::vector<std::string>{"-", "-", "-"}));
  BOOST_TEST(picks({parsed("server:1")}, client2) == (std::vector<std::string>{"-", "-", "-"}));
}

BOOST_AUTO_TEST_CASE(typed_selectors_count_datagrams_carrying_the_type) {
  // Initial+Handshake, Handshake, Initial: the 2nd with an Initial is the 3rd.
  std::vector<DatagramPosition> server{by("server", "server", 0b0101), by("server", "server", 0b0100),
                                       by("server", "server", 0b0001)};
  BOOST_TEST(picks({parsed("server:initial:2")}, server) == (std::vector<std::string>{"-", "-", "d"}));
  BOOST_TEST(picks({parsed("server:handshake")}, server) == (std::vector<std::string>{"d", "d", "-"}));
}

BOOST_AUTO_TEST_CASE(a_packet_number_picks_that_packet_alone) {
  const DatagramContents flight = first_flight();
  const DatagramPosition pos = by("server", "server", 0b0101, &flight);
  BOOST_TEST(picks({parsed("server:handshake:pn=0")}, {pos}) == (std::vector<std::string>{"1"}));
  BOOST_TEST(picks({parsed("server:initial:pn=0")}, {pos}) == (std::vector<std::string>{"0"}));
  BOOST_TEST(picks({parsed("server:initial:pn=1")}, {pos}) == (std::vector<std::string>{"-"}));
  // A packet the keys could not read is picked by nothing it carries.
  DatagramContents unread = flight;
  unread.packets[1].packet_number.reset();
  unread.packets[1].frames.clear();
  unread.packets[1].ack_eliciting = false;
  const DatagramPosition early = by("server", "server", 0b0101, &unread);
  BOOST_TEST(picks({parsed("server:handshake:ack_only")}, {early}) == (std::vector<std::string>{"-"}));
  BOOST_TEST(picks({parsed("server:ack_only")}, {early}) == (std::vector<std::string>{"-"}));
  BOOST_TEST(picks({parsed("server:handshake:pn=0")}, {early}) == (std::vector<std::string>{"-"}));
  BOOST_TEST(picks({parsed("server:initial:pn=0")}, {early}) == (std::vector<std::string>{"0"}));
  // Without the contents (no keys), nothing is picked.
  BOOST_TEST(picks({parsed("server:initial:pn=0")}, {by("server", "server", 0b0101)}) ==
             (std::vector<std::string>{"-"}));
}

BOOST_AUTO_TEST_CASE(content_selectors_pick_by_frame_ack_elicitation_window_and_event) {
  const DatagramContents flight = first_flight();
  DatagramContents ack_only{{packet(LongType::initial, 1, 0, 60, {{"ACK", {}}, {"PADDING", {}}}, false)}, false};
  DatagramContents later_crypto{{packet(LongType::handshake, 1, 0, 1200, {{"CRYPTO", 1050}}, true)}, false};
  DatagramContents done{{packet({}, 0, 0, 40, {{"HANDSHAKE_DONE", {}}}, true)}, false};
  DatagramContents after{{packet({}, 1, 0, 40, {{"ACK", {}}}, false)}, true};
  auto at = [](double ms, const DatagramContents& c) {
    return by("server", "server", 0, &c, ms);
  };
  const std::vector<DatagramPosition> run{at(10, flight), at(20, ack_only), at(30, later_crypto), at(40, done),
                                          at(50, after)};
  BOOST_TEST(picks({parsed("server:frame=CRYPTO:2nd")}, run) ==
             (std::vector<std::string>{"-", "-", "d", "-", "-"}));
  BOOST_TEST(picks({parsed("server:frame=CRYPTO:offset>=1000")}, run) ==
             (std::vector<std::string>{"-", "-", "d", "-", "-"}));
  BOOST_TEST(picks({parsed("server:initial:ack_only")}, run) == (std::vector<std::string>{"-", "d", "-", "-", "-"}));
  BOOST_TEST(picks({parsed("server:ack_only")}, run) == (std::vector<std::string>{"-", "d", "-", "-", "d"}));
  BOOST_TEST(picks({parsed("server:from_ms=20:to_ms=40")}, run) == (std::vector<std::string>{"-", "d", "d", "-", "-"}));
  BOOST_TEST(picks({parsed("server:after=handshake_done:1")}, run) ==
             (std::vector<std::string>{"-", "-", "-", "-", "d"}));
  BOOST_TEST(picks({parsed("server:frame=HANDSHAKE_DONE"), parsed("server:frame=ACK:1")}, run) ==
             (std::vector<std::string>{"d", "-", "-", "d", "-"}));
}

BOOST_AUTO_TEST_SUITE_END()

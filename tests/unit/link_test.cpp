// Each impairment of a link, with the exact datagrams that arrive and when
// (nanoseconds of virtual time), driven through the simulator by scripted
// endpoints. Unless a test says otherwise: rtt 20 ms (10 ms each way), no
// bandwidth limit, seed 1, and the client sends 100-byte datagrams tagged
// 1, 2, 3, ... in their first byte, 1 ms apart from time 0.
#include "support/sim_support.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <bit>
#include <set>


using namespace conform;
using namespace conform::test;
using Strings = std::vector<std::string>;
using Times = std::vector<std::int64_t>;
using Tags = std::vector<int>;

namespace {

ValueMap net(ValueMap extra) {
  extra.emplace("rtt_ms", 20.0);
  return extra;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(link_test)

BOOST_AUTO_TEST_CASE(propagation_delay_is_half_the_rtt_each_way) {
  Pair p(net({}));
  p.client_sends(3, kMs);
  p.server.echo = true;
  BOOST_TEST(p.sim.run().reason == SimulationEnd::Reason::quiescent);
  BOOST_TEST(p.server.arrival_times() == (Times{10 * kMs, 11 * kMs, 12 * kMs}));
  BOOST_TEST(p.client.arrival_times() == (Times{20 * kMs, 21 * kMs, 22 * kMs}));
  BOOST_TEST(p.sim.now().ns() == 22 * kMs);
}

BOOST_AUTO_TEST_CASE(bandwidth_serialises_ip_packets_one_after_another) {
  // 97 bytes of payload + 28 of IP/UDP = 1000 bits: 1 ms at 1 Mbit/s.
  Pair p(net({{"bandwidth_mbps", 1.0}}));
  p.client_sends(3, 0, 97);
  p.sim.run();
  BOOST_TEST(p.server.arrival_times() == (Times{11 * kMs, 12 * kMs, 13 * kMs}));
  // The sender's tap shows all three leaving its socket at 0.
  for (const auto& r : p.captures["client"].records) BOOST_TEST(r.time_ns == 0);
}

BOOST_AUTO_TEST_CASE(serialisation_rounds_up_to_the_nanosecond) {
  // 1200-byte IP packets at 100 Mbit/s: 96 us each.
  Pair p(net({{"bandwidth_mbps", 100.0}}));
  p.client_sends(2, 0, 1172);
  p.sim.run();
  BOOST_TEST(p.server.arrival_times() == (Times{10 * kMs + 96'000, 10 * kMs + 192'000}));
  // 3 bits over: 125 bytes at 3 Mbit/s is 333333.33 ns, delivered at ...334.
  Pair q(net({{"bandwidth_mbps", 3.0}}));
  q.client_sends(1, 0, 97);
  q.sim.run();
  BOOST_TEST(q.server.arrival_times() == (Times{10 * kMs + 333'334}));
}

BOOST_AUTO_TEST_CASE(drop_tail_queue_loses_what_does_not_fit) {
  // 125-byte IP packets, 1 ms each at 1 Mbit/s; the queue holds 300 bytes
  // not yet serialised: two fit at time 0, the third does not.
  Pair p(net({{"bandwidth_mbps", 1.0}, {"queue_bytes", std::int64_t{300}}}));
  for (int k = 1; k <= 4; ++k) p.client.send_at(0, datagram(97, static_cast<std::uint8_t>(k)));
  // At 1 ms the first has left the queue: 125 bytes wait, so the fifth fits.
  p.client.send_at(kMs, datagram(97, 5));
  p.sim.run();
  BOOST_TEST(p.server.arrival_tags() == (Tags{1, 2, 5}));
  BOOST_TEST(p.server.arrival_times() == (Times{11 * kMs, 12 * kMs, 13 * kMs}));
  int queue_losses = 0;
  for (const auto& e : p.events)
    if (e.kind == NetEvent::Kind::lost && std::string(e.reason) == "queue full") ++queue_losses;
  BOOST_TEST(queue_losses == 2);
}

BOOST_AUTO_TEST_CASE(drop_list_loses_the_nth_datagram_of_a_direction) {
  Pair p(net({{"drop", Strings{"client:2", "client:4", "server:1"}}}));
  p.client_sends(5, kMs);
  p.server.echo = true;
  p.sim.run();
  BOOST_TEST(p.server.arrival_tags() == (Tags{1, 3, 5}));
  BOOST_TEST(p.server.arrival_times() == (Times{10 * kMs, 12 * kMs, 14 * kMs}));
  // The server's first datagram (the echo of 1) is lost; 3 and 5 come back.
  BOOST_TEST(p.client.arrival_tags() == (Tags{3, 5}));
}

BOOST_AUTO_TEST_CASE(drop_list_counts_datagrams_carrying_a_long_header_type) {
  // The server sends: Initial; Initial + Handshake coalesced; Handshake;
  // a short-header datagram. Tagged by send order in the client's view.
  auto run_with = [](Strings drop) {
    Pair p(net({{"drop", drop}}));
    p.server.send_at(0, long_packet(0, 40));
    p.server.send_at(kMs, concat(long_packet(0, 40), long_packet(2, 30)));
    p.server.send_at(2 * kMs, long_packet(2, 30));
    p.server.send_at(3 * kMs, datagram(50, 0x41));
    p.sim.run();
    return p.client.arrival_times();
  };
  const Times all{10 * kMs, 11 * kMs, 12 * kMs, 13 * kMs};
  BOOST_TEST(run_with({}) == all);
  BOOST_TEST(run_with({"server:initial:1"}) == (Times{11 * kMs, 12 * kMs, 13 * kMs}));
  BOOST_TEST(run_with({"server:initial:2"}) == (Times{10 * kMs, 12 * kMs, 13 * kMs}));
  BOOST_TEST(run_with({"server:handshake:1"}) == (Times{10 * kMs, 12 * kMs, 13 * kMs}));
  BOOST_TEST(run_with({"server:handshake:2"}) == (Times{10 * kMs, 11 * kMs, 13 * kMs}));
  BOOST_TEST(run_with({"server:initial:3"}) == all);
  BOOST_TEST(run_with({"client:initial:1"}) == all);  // another direction
}

BOOST_AUTO_TEST_CASE(bernoulli_loss_follows_the_seed) {
  auto lost_tags = [](std::uint64_t seed, double rate) {
    Pair p(net({{"loss_rate", rate}}), seed);
    p.client_sends(20, kMs);
    p.sim.run();
    Tags arrived = p.server.arrival_tags(), lost;
    for (int k = 1; k <= 20; ++k)
      if (std::find(arrived.begin(), arrived.end(), k) == arrived.end()) lost.push_back(k);
    return lost;
  };
  BOOST_TEST(lost_tags(1, 0.0).empty());
  BOOST_TEST(lost_tags(1, 1.0).size() == 20u);
  // Pinned: this seed gives this pattern on every platform (our own PRNG).
  const Tags seed1 = lost_tags(1, 0.3);
  BOOST_TEST(seed1 == lost_tags(1, 0.3));
  BOOST_TEST(seed1 == (Tags{4, 7, 17}));
  BOOST_TEST(seed1 != lost_tags(2, 0.3));
}

BOOST_AUTO_TEST_CASE(bernoulli_loss_rate_holds_over_many_datagrams) {
  Pair p(net({{"loss_rate", 0.25}}), 42);
  p.client_sends(10000, 1000);
  p.sim.run();
  const auto arrived = static_cast<double>(p.server.received.size());
  BOOST_TEST(arrived > 7300);
  BOOST_TEST(arrived < 7700);
  BOOST_TEST(arrived == 7454);  // pinned for seed 42
}

BOOST_AUTO_TEST_CASE(gilbert_elliott_loses_in_bursts) {
  // Certain transitions make the pattern exact: good, bad, good, bad, ...
  // (decide in the current state, then move).
  Pair alternating(net({{"ge_enter_bad", 1.0}, {"ge_leave_bad", 1.0}}));
  alternating.client_sends(6, kMs);
  alternating.sim.run();
  BOOST_TEST(alternating.server.arrival_tags() == (Tags{1, 3, 5}));
  // Never leaving the bad state: everything after the first is lost.
  Pair stuck(net({{"ge_enter_bad", 1.0}, {"ge_leave_bad", 0.0}}));
  stuck.client_sends(6, kMs);
  stuck.sim.run();
  BOOST_TEST(stuck.server.arrival_tags() == (Tags{1}));
  // Random transitions: losses come in runs longer than Bernoulli's.
  Pair bursty(net({{"ge_enter_bad", 0.02}, {"ge_leave_bad", 0.2}}), 9);
  bursty.client_sends(5000, 1000);
  bursty.sim.run();
  const auto lost = 5000 - static_cast<long>(bursty.server.received.size());
  // Stationary loss = enter / (enter + leave) = 0.02 / 0.22, about 9 %.
  BOOST_TEST(lost > 300);
  BOOST_TEST(lost < 650);
  // Fates in send order: a `lost` event follows its `sent` event at once.
  std::vector<bool> fate_lost;
  for (const auto& e : bursty.events) {
    if (e.kind == NetEvent::Kind::sent) fate_lost.push_back(false);
    if (e.kind == NetEvent::Kind::lost) fate_lost.back() = true;
  }
  long runs = 0;
  for (std::size_t i = 0; i < fate_lost.size(); ++i)
    if (fate_lost[i] && (i == 0 || !fate_lost[i - 1])) ++runs;
  // Mean burst length 1 / leave = 5: far fewer runs than losses.
  BOOST_TEST(runs * 3 < lost);
  // Pinned for seed 9: 475 losses in 92 bursts (mean 5.2).
  BOOST_TEST(lost == 475);
  BOOST_TEST(runs == 92);
}

BOOST_AUTO_TEST_CASE(reorder_holds_a_chosen_datagram_back) {
  Pair p(net({{"reorder", Strings{"client:2"}}, {"reorder_delay_ms", 2.5}}));
  p.client_sends(4, kMs);
  p.sim.run();
  BOOST_TEST(p.server.arrival_tags() == (Tags{1, 3, 4, 2}));
  BOOST_TEST(p.server.arrival_times() == (Times{10 * kMs, 12 * kMs, 13 * kMs, 13'500'000}));
  // The receiver's capture shows the order it saw; the sender's the order sent.
  const auto& at_server = p.captures["server"].records;
  BOOST_TEST(at_server.size() == 4u);
  BOOST_TEST(at_server[3].payload[0] == 2);
  BOOST_TEST(at_server[3].time_ns == 13'500'000);
  BOOST_TEST(p.captures["client"].records[1].payload[0] == 2);
}

BOOST_AUTO_TEST_CASE(reorder_rate_holds_back_a_seeded_share_of_datagrams) {
  // 1 ms apart with a 2.5 ms hold: a held datagram lands after the next two.
  const ValueMap config = net({{"reorder_rate", 0.25}, {"reorder_delay_ms", 2.5}});
  Pair p(config);
  p.client_sends(200, kMs);
  p.sim.run();
  const auto tags = p.server.arrival_tags();
  const auto times = p.server.arrival_times();
  BOOST_TEST(tags.size() == 200u);
  int held = 0;
  for (std::size_t k = 0; k < tags.size(); ++k) {
    const std::int64_t sent = (tags[k] - 1) * kMs;
    const bool on_time = times[k] == sent + 10 * kMs;
    BOOST_TEST((on_time || times[k] == sent + 12 * kMs + kMs / 2), "datagram " << tags[k]);
    held += !on_time;
  }
  BOOST_TEST(held > 30);
  BOOST_TEST(held < 70);
  BOOST_TEST(!std::is_sorted(tags.begin(), tags.end()));
  // The same seed holds the same datagrams back.
  Pair q(config);
  q.client_sends(200, kMs);
  q.sim.run();
  BOOST_TEST(q.server.arrival_times() == times);
}

BOOST_AUTO_TEST_CASE(duplicate_delivers_a_chosen_datagram_twice) {
  Pair p(net({{"duplicate", Strings{"client:2"}}}));
  p.client_sends(3, kMs);
  p.sim.run();
  BOOST_TEST(p.server.arrival_tags() == (Tags{1, 2, 2, 3}));
  BOOST_TEST(p.server.arrival_times() == (Times{10 * kMs, 11 * kMs, 11 * kMs, 12 * kMs}));
  BOOST_TEST(p.captures["server"].records.size() == 4u);
  BOOST_TEST(p.captures["client"].records.size() == 3u);
  BOOST_TEST(p.sim.stats().duplicated == 1);
}

BOOST_AUTO_TEST_CASE(a_duplicate_arrives_duplicate_delay_ms_after_its_original) {
  // The copy of datagram 1 lands 2.5 ms later, after datagram 2: a late
  // duplicate, as a retransmitted Initial that crossed the original.
  Pair p(net({{"duplicate", Strings{"client:1"}}, {"duplicate_delay_ms", 2.5}}));
  p.client_sends(2, kMs);
  p.sim.run();
  BOOST_TEST(p.server.arrival_tags() == (Tags{1, 2, 1}));
  BOOST_TEST(p.server.arrival_times() == (Times{10 * kMs, 11 * kMs, 12 * kMs + kMs / 2}));
  BOOST_TEST(p.sim.stats().duplicated == 1);
}

BOOST_AUTO_TEST_CASE(duplicate_rate_one_doubles_everything) {
  Pair p(net({{"duplicate_rate", 1.0}}));
  p.client_sends(3, kMs);
  p.sim.run();
  BOOST_TEST(p.server.arrival_tags() == (Tags{1, 1, 2, 2, 3, 3}));
}

BOOST_AUTO_TEST_CASE(corrupt_flips_exactly_the_asked_number_of_bits) {
  Pair p(net({{"corrupt", Strings{"client:2"}}, {"corrupt_bits", std::int64_t{3}}}));
  p.client_sends(3, kMs);
  p.sim.run();
  BOOST_REQUIRE(p.server.received.size() == 3u);
  BOOST_TEST(p.server.arrival_times() == (Times{10 * kMs, 11 * kMs, 12 * kMs}));
  auto flipped_bits = [](const std::vector<std::uint8_t>& got, std::uint8_t tag) {
    auto want = datagram(100, tag);
    int n = 0;
    for (std::size_t i = 0; i < got.size(); ++i) n += std::popcount(static_cast<unsigned>(got[i] ^ want[i]));
    return n;
  };
  BOOST_TEST(flipped_bits(p.server.received[0].payload, 1) == 0);
  // The corrupted datagram: which bits flip depends only on the seed.
  const auto& bad = p.server.received[1].payload;
  BOOST_TEST(flipped_bits(bad, 2) == 3);
  BOOST_TEST(flipped_bits(p.server.received[2].payload, 3) == 0);
  // The receiver's capture holds the corrupted bytes; the sender's the originals.
  BOOST_TEST(p.captures["server"].records[1].payload == bad);
  BOOST_TEST(p.captures["client"].records[1].payload == datagram(100, 2));
  Pair again(net({{"corrupt", Strings{"client:2"}}, {"corrupt_bits", std::int64_t{3}}}));
  again.client_sends(3, kMs);
  again.sim.run();
  BOOST_TEST(again.server.received[1].payload == bad);
}

BOOST_AUTO_TEST_CASE(jitter_adds_a_seeded_delay_within_its_bound) {
  auto times = [](std::uint64_t seed) {
    Pair p(net({{"jitter_ms", 1.0}}), seed);
    p.client_sends(50, 10 * kMs);
    p.sim.run();
    Times extra;
    for (const auto& r : p.server.received) extra.push_back(r.at.ns() - 10 * kMs - (r.payload[0] - 1) * 10 * kMs);
    return extra;
  };
  const Times a = times(3);
  BOOST_TEST(a.size() == 50u);
  for (auto e : a) {
    BOOST_TEST(e >= 0);
    BOOST_TEST(e <= kMs);
  }
  BOOST_TEST(std::set<std::int64_t>(a.begin(), a.end()).size() > 40u);
  BOOST_TEST(a == times(3));
  BOOST_TEST(a != times(4));
  BOOST_TEST(a[0] == 290'340);  // pinned for seed 3
}

BOOST_AUTO_TEST_CASE(jitter_may_reorder_close_datagrams) {
  // 50 datagrams 10 us apart with up to 1 ms of jitter: some overtake others.
  Pair p(net({{"jitter_ms", 1.0}}), 3);
  p.client_sends(50, 10'000);
  p.sim.run();
  const Tags tags = p.server.arrival_tags();
  BOOST_TEST(tags.size() == 50u);
  BOOST_TEST(!std::is_sorted(tags.begin(), tags.end()));
}

BOOST_AUTO_TEST_SUITE_END()

// The loopback relay in real time: datagrams through it with a drop list,
// checked at the sockets and in both captures (what each side sent and what
// reached it, with the path's one-way delay between the two).
#include "capture/pcap_reader.hpp"
#include "capture/pcap_writer.hpp"
#include "net/key_log_follower.hpp"
#include "net/udp_relay.hpp"
#include "support/loopback_socket.hpp"
#include "support/sim_support.hpp"
#include "support/support.hpp"

#include <boost/test/unit_test.hpp>


#include <sys/stat.h>

#include <cstdio>
#include <fstream>
#include <map>

using namespace conform;
using namespace conform::test;

namespace {

using Socket = LoopbackSocket;

std::vector<int> tags_from(const std::vector<CapturedDatagram>& ds, std::uint32_t address) {
  std::vector<int> out;
  for (const auto& d : ds)
    if (d.from.address == address) out.push_back(d.payload[0]);
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(udp_relay_test)

BOOST_AUTO_TEST_CASE(drop_list_and_delay_in_real_time_with_both_captures) {
  const std::string dir = scratch_dir("udp_relay");
  Socket server, client;
  FileCaptures files{dir, {}};
  NetConfig config;
  std::string error;
  config.one_way_delay = Duration::milliseconds(10);
  config.drop = {*parse_selector("client:2", error), *parse_selector("server:1", error)};
  {
    UdpRelay relay(config, 1, server.port, std::ref(files));
    BOOST_REQUIRE_MESSAGE(relay.error().empty(), relay.error());
    relay.start();
    for (int k = 1; k <= 5; ++k) client.send_to(relay.port(), std::vector<std::uint8_t>(100, static_cast<std::uint8_t>(k)));

    auto at_server = server.receive(4);
    BOOST_REQUIRE(at_server.size() == 4u);
    std::vector<int> tags;
    for (auto& [payload, from] : at_server) {
      tags.push_back(payload[0]);
      BOOST_TEST(from != client.port);  // the relay's socket for this client
      server.send_to(from, payload);    // echo
    }
    BOOST_TEST(tags == (std::vector<int>{1, 3, 4, 5}));
    auto at_client = client.receive(3);
    tags.clear();
    for (auto& [payload, from] : at_client) {
      tags.push_back(payload[0]);
      BOOST_TEST(from == relay.port());
    }
    BOOST_TEST(tags == (std::vector<int>{3, 4, 5}));  // the server's first answer was dropped
    BOOST_TEST(client.receive(1, 100).empty());
    relay.stop();
    BOOST_TEST(relay.stats().sent == 9);
    BOOST_TEST(relay.stats().lost == 2);
    BOOST_TEST(relay.stats().arrived == 7);
  }
  files.writers.clear();

  const auto cap_client = read_udp_datagrams(dir + "/client.pcap");
  const auto cap_server = read_udp_datagrams(dir + "/server.pcap");
  BOOST_TEST(tags_from(cap_client, kClientAddress) == (std::vector<int>{1, 2, 3, 4, 5}));
  BOOST_TEST(tags_from(cap_client, kServerAddress) == (std::vector<int>{3, 4, 5}));
  BOOST_TEST(tags_from(cap_server, kClientAddress) == (std::vector<int>{1, 3, 4, 5}));
  BOOST_TEST(tags_from(cap_server, kServerAddress) == (std::vector<int>{1, 3, 4, 5}));
  // Canonical addresses: the client by its real port, the server as 127.0.0.2.
  BOOST_TEST(cap_client.front().from.port == client.port);
  BOOST_TEST(cap_client.front().to.address == kServerAddress);
  BOOST_TEST(cap_client.front().to.port == server.port);
  // Each datagram reached the server at least one way's delay after the
  // client sent it (and not absurdly later on an idle loopback).
  std::map<int, std::int64_t> sent_at;
  for (const auto& d : cap_client)
    if (d.from.address == kClientAddress) sent_at[d.payload[0]] = d.time_ns;
  for (const auto& d : cap_server) {
    if (d.from.address != kClientAddress) continue;
    const std::int64_t took = d.time_ns - sent_at[d.payload[0]];
    BOOST_TEST(took >= 10 * kMs);
    BOOST_TEST(took < 500 * kMs);
  }
}

BOOST_AUTO_TEST_CASE(reorder_holds_a_datagram_back_in_real_time) {
  // Sent back to back, the first is held 50 ms: far more than the
  // scheduling noise of a loaded machine, so the order is certain.
  Socket server, client;
  UdpRelay relay(net_config(ValueMap{{"rtt_ms", 0.0}, {"reorder", std::vector<std::string>{"client:1"}},
                          {"reorder_delay_ms", 50.0}}),
                 1, server.port, nullptr);
  BOOST_REQUIRE_MESSAGE(relay.error().empty(), relay.error());
  relay.start();
  for (int k = 1; k <= 3; ++k) client.send_to(relay.port(), std::vector<std::uint8_t>(20, static_cast<std::uint8_t>(k)));
  std::vector<int> tags;
  for (auto& [payload, from] : server.receive(3)) tags.push_back(payload[0]);
  BOOST_TEST(tags == (std::vector<int>{2, 3, 1}));
}

// Once the programs ended, drain() then stop() loses nothing they sent:
// drain returns when the links hold nothing (here after their 200 ms
// delay), and gives up after its bound, when stop() loses what is held.
BOOST_AUTO_TEST_CASE(drain_waits_for_what_the_links_hold_and_no_longer_than_asked) {
  for (const auto& [at_most_ms, arrived] : std::vector<std::pair<std::uint32_t, std::uint64_t>>{{5000, 3}, {20, 0}}) {
    Socket server, client;
    NetConfig config;
    config.one_way_delay = Duration::milliseconds(200);
    UdpRelay relay(config, 1, server.port, nullptr);
    BOOST_REQUIRE_MESSAGE(relay.error().empty(), relay.error());
    relay.start();
    for (int k = 1; k <= 3; ++k)
      client.send_to(relay.port(), std::vector<std::uint8_t>(20, static_cast<std::uint8_t>(k)));
    relay.drain(at_most_ms);
    relay.stop();
    BOOST_TEST(relay.stats().sent == 3u);
    BOOST_TEST(relay.stats().arrived == arrived, "drain(" << at_most_ms << ")");
    BOOST_TEST(server.receive(3, 0).size() == arrived);
  }
}

BOOST_AUTO_TEST_CASE(each_client_gets_a_socket_a_path_and_a_capture) {
  const std::string dir = scratch_dir("udp_relay_clients");
  Socket server, first, second;
  FileCaptures files{dir, {}};
  {
    UdpRelay relay(net_config(ValueMap{{"rtt_ms", 2.0}, {"drop", std::vector<std::string>{"client-2:1"}}}), 1,
                   server.port, std::ref(files));
    BOOST_REQUIRE_MESSAGE(relay.error().empty(), relay.error());
    relay.start();
    first.send_to(relay.port(), std::vector<std::uint8_t>(10, 1));
    BOOST_REQUIRE(server.receive(1).size() == 1u);  // so the first is client 1
    second.send_to(relay.port(), std::vector<std::uint8_t>(10, 2));
    second.send_to(relay.port(), std::vector<std::uint8_t>(10, 3));
    auto got = server.receive(1);
    BOOST_REQUIRE(got.size() == 1u);
    BOOST_TEST(got[0].first[0] == 3);  // client-2's first was dropped on its path only
    server.send_to(got[0].second, got[0].first);
    auto back = second.receive(1);
    BOOST_REQUIRE(back.size() == 1u);
    BOOST_TEST(back[0].first[0] == 3);
    relay.stop();
  }
  files.writers.clear();
  BOOST_TEST(tags_from(read_udp_datagrams(dir + "/client.pcap"), kClientAddress) == (std::vector<int>{1}));
  const auto second_view = read_udp_datagrams(dir + "/client-2.pcap");
  BOOST_TEST(tags_from(second_view, kClientAddress) == (std::vector<int>{2, 3}));
  BOOST_TEST(tags_from(second_view, kServerAddress) == (std::vector<int>{3}));
  BOOST_TEST(second_view.front().from.port == second.port);
}

BOOST_AUTO_TEST_CASE(each_direction_takes_its_own_settings_and_1rtt_counts) {
  // The server's direction loses everything; the client's, only the 2nd
  // datagram carrying a short-header packet (tags 0x41.. have the Fixed Bit).
  Socket server, client;
  UdpRelay relay(net_config(ValueMap{{"rtt_ms", 0.0},
                                     {"server_loss_rate", 1.0},
                                     {"drop", std::vector<std::string>{"client:1rtt:2nd"}}}),
                 1, server.port, nullptr);
  BOOST_REQUIRE_MESSAGE(relay.error().empty(), relay.error());
  BOOST_TEST(relay.unsupported().empty());
  relay.start();
  for (std::uint8_t tag : {0x41, 0x42, 0x43}) client.send_to(relay.port(), std::vector<std::uint8_t>(20, tag));
  std::vector<int> tags;
  for (auto& [payload, from] : server.receive(2)) {
    tags.push_back(payload[0]);
    server.send_to(from, payload);
  }
  BOOST_TEST(tags == (std::vector<int>{0x41, 0x43}));
  BOOST_TEST(client.receive(1, 200).empty());
}

BOOST_AUTO_TEST_CASE(a_selector_that_reads_packets_is_unsupported_naming_its_form) {
  Socket server;
  UdpRelay relay(net_config(ValueMap{{"reorder", std::vector<std::string>{"client:3", "server:initial:ack_only"}}}), 1,
                 server.port, nullptr);
  BOOST_TEST(relay.unsupported() ==
             "the relay cannot select packets by content without a key log to read (none was given it to follow): "
             "network.reorder 'server:initial:ack_only' "
             "uses ack_only");
  // A key log to follow, even one not written yet, makes it supported.
  relay.follow_key_log(scratch_dir("udp_relay_keys") + "/client.keys");
  BOOST_TEST(relay.unsupported().empty());
}

BOOST_AUTO_TEST_CASE(a_followed_key_log_gives_whole_lines_as_they_are_written) {
  const std::string path = scratch_dir("key_log_follower") + "/server.keys";
  KeyLogFollower keys;
  keys.follow(path);
  BOOST_TEST(keys.new_lines().empty());  // not there yet
  std::ofstream out(path);
  out << "CLIENT_HANDSHAKE_TRAFFIC_SECRET 01 aa\nSERVER_HANDSHAKE_TRAFFIC_SECRET 01 b" << std::flush;
  BOOST_TEST(keys.new_lines() == (std::vector<std::string>{"CLIENT_HANDSHAKE_TRAFFIC_SECRET 01 aa"}));
  out << "b\n" << std::flush;
  BOOST_TEST(keys.new_lines() == (std::vector<std::string>{"SERVER_HANDSHAKE_TRAFFIC_SECRET 01 bb"}));
  BOOST_TEST(keys.new_lines().empty());
}

BOOST_AUTO_TEST_CASE(a_followed_key_log_that_is_no_regular_file_or_has_no_newline_is_left_alone) {
  const std::string dir = scratch_dir("key_log_follower_bad");
  // A FIFO nobody writes: opening or reading it must not block.
  const std::string fifo = dir + "/fifo.keys";
  std::remove(fifo.c_str());
  BOOST_REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  KeyLogFollower from_fifo;
  from_fifo.follow(fifo);
  BOOST_TEST(from_fifo.new_lines().empty());
  // A "line" longer than any key log line is dropped up to its newline.
  const std::string path = dir + "/long.keys";
  std::ofstream out(path);
  out << std::string(KeyLogFollower::kMaxLine + 10, 'x') << std::flush;
  KeyLogFollower keys;
  keys.follow(path);
  BOOST_TEST(keys.new_lines().empty());
  out << "yyy\nCLIENT_RANDOM 01 aa\n" << std::flush;
  BOOST_TEST(keys.new_lines() == (std::vector<std::string>{"CLIENT_RANDOM 01 aa"}));
}

BOOST_AUTO_TEST_CASE(a_busy_port_is_an_error_value) {
  Socket taken;
  UdpRelay relay(NetConfig{}, 1, 9, nullptr, taken.port);
  BOOST_TEST(relay.error().find("bind 127.0.0.1:" + std::to_string(taken.port)) == 0u, relay.error());
  relay.start();  // does nothing
  relay.stop();
}

BOOST_AUTO_TEST_SUITE_END()

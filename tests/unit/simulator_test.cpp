// The event loop: virtual time, the end of a run (quiescent, deadline,
// budget, stall, misconfigured), routing between one server and several
// clients, the taps' pcap files, the path MTU and determinism by seed.
#include "capture/pcap_reader.hpp"
#include "capture/pcap_writer.hpp"
#include "support/sim_support.hpp"
#include "support/support.hpp"

#include <boost/test/unit_test.hpp>

using namespace conform;
using namespace conform::test;
using Reason = SimulationEnd::Reason;
using Times = std::vector<std::int64_t>;
using Strings = std::vector<std::string>;

namespace {

/// Arms a timer every `period` forever: a run that never ends by itself.
class Ticker final : public Endpoint {
 public:
  Duration period = Duration::milliseconds(1);
  Instant next = Instant::from_ns(0);
  int ticks = 0;
  void handle_datagram(Instant, std::span<const std::uint8_t>, UdpEndpoint) override {}
  std::optional<Transmit> poll_transmit(Instant) override { return std::nullopt; }
  Instant next_timeout() const override { return next; }
  void handle_timeout(Instant now) override {
    ++ticks;
    next = now + period;
  }
};

/// A timer that never moves on: always due at time 0.
class Spinner final : public Endpoint {
 public:
  void handle_datagram(Instant, std::span<const std::uint8_t>, UdpEndpoint) override {}
  std::optional<Transmit> poll_transmit(Instant) override { return std::nullopt; }
  Instant next_timeout() const override { return Instant::from_ns(0); }
  void handle_timeout(Instant) override {}
};

}  // namespace

BOOST_AUTO_TEST_SUITE(simulator_test)

BOOST_AUTO_TEST_CASE(time_types_are_nanoseconds_and_never_saturates) {
  BOOST_TEST(Duration::milliseconds(3).ns() == 3'000'000);
  BOOST_TEST(Duration::from_ms(2.5).ns() == 2'500'000);
  BOOST_TEST(Duration::from_ms(1e-7).ns() == 0);
  BOOST_TEST((Instant::from_ns(5) + Duration::microseconds(1)).ns() == 1005);
  BOOST_TEST((Instant::from_ns(9) - Instant::from_ns(4)).ns() == 5);
  BOOST_TEST((Instant::never() + Duration::seconds(1)).is_never());
  BOOST_TEST((Instant::from_ns(INT64_MAX - 1) + Duration::seconds(1)).is_never());
  BOOST_TEST(Instant::from_ns(0) < Instant::never());
}

BOOST_AUTO_TEST_CASE(addresses_and_capture_names_follow_the_documentation) {
  std::vector<std::string> asked;
  MemoryCapture sink;
  Simulator sim(net_config(ValueMap{}), 1, [&](std::string_view v) {
    asked.emplace_back(v);
    return &sink;
  });
  ScriptedEndpoint s, a, b, c;
  auto server = sim.attach_server(s);
  BOOST_TEST(server->address == kServerAddress);
  BOOST_TEST(server->port == 4433);
  BOOST_TEST(!sim.attach_server(s).has_value());
  BOOST_TEST(sim.attach_client(a)->port == 40000);
  BOOST_TEST(sim.attach_client(b)->port == 40001);
  BOOST_TEST(sim.attach_client(c)->address == kClientAddress);
  BOOST_TEST(asked == (Strings{"server", "client", "client-2", "client-3"}));
}

BOOST_AUTO_TEST_CASE(clients_each_have_their_own_path_and_capture) {
  std::map<std::string, MemoryCapture> caps;
  Simulator sim(net_config(ValueMap{{"rtt_ms", 20.0}, {"drop", Strings{"client-2:1"}}}), 1,
                [&](std::string_view v) { return &caps[std::string(v)]; });
  ScriptedEndpoint server, c1, c2;
  server.echo = true;
  const UdpEndpoint s = *sim.attach_server(server);
  c1.peer = c2.peer = s;
  sim.attach_client(c1);
  sim.attach_client(c2);
  c1.send_at(0, datagram(10, 1));
  c1.send_at(kMs, datagram(10, 2));
  c2.send_at(0, datagram(10, 3));
  c2.send_at(kMs, datagram(10, 4));
  BOOST_TEST(sim.run().reason == Reason::quiescent);
  // client-2's first datagram is dropped; client-1's is not.
  BOOST_TEST(server.arrival_tags() == (std::vector<int>{1, 2, 4}));
  BOOST_TEST(c1.arrival_tags() == (std::vector<int>{1, 2}));
  BOOST_TEST(c2.arrival_tags() == (std::vector<int>{4}));
  BOOST_TEST(c2.received[0].from.port == 4433);
  BOOST_TEST(caps["client"].records.size() == 4u);    // 2 sent, 2 received
  BOOST_TEST(caps["client-2"].records.size() == 3u);  // 2 sent, 1 received
  BOOST_TEST(caps["server"].records.size() == 6u);    // 3 received, 3 echoed
}

BOOST_AUTO_TEST_CASE(many_clients_and_endpoints_poked_between_runs) {
  Simulator sim(net_config(ValueMap{{"rtt_ms", 2.0}}), 1, nullptr);
  ScriptedEndpoint server;
  server.echo = true;
  const UdpEndpoint s = *sim.attach_server(server);
  std::vector<std::unique_ptr<ScriptedEndpoint>> clients;
  for (int i = 0; i < 200; ++i) {
    clients.push_back(std::make_unique<ScriptedEndpoint>());
    clients.back()->peer = s;
    clients.back()->send_at(i * 1000, datagram(50, static_cast<std::uint8_t>(i)));
    BOOST_REQUIRE(sim.attach_client(*clients.back()).has_value());
  }
  BOOST_TEST(sim.run().reason == Reason::quiescent);
  BOOST_TEST(server.received.size() == 200u);
  for (int i = 0; i < 200; ++i) BOOST_TEST(clients[i]->arrival_times() == (Times{2 * kMs + i * 1000}));
  // A client given more to send after a run sends it when the next run starts.
  clients[7]->send_at(0, datagram(50, 99));
  BOOST_TEST(sim.run().reason == Reason::quiescent);
  BOOST_TEST(clients[7]->received.size() == 2u);
  BOOST_TEST(clients[7]->received[1].at.ns() == 2 * kMs + 199'000 + 2 * kMs);
}

BOOST_AUTO_TEST_CASE(server_selectors_count_per_client_path) {
  // "server:1" is the server's first datagram to each client: both are lost.
  Simulator sim(net_config(ValueMap{{"rtt_ms", 20.0}, {"drop", Strings{"server:1"}}}), 1, nullptr);
  ScriptedEndpoint server, c1, c2;
  server.echo = true;
  c1.peer = c2.peer = *sim.attach_server(server);
  sim.attach_client(c1);
  sim.attach_client(c2);
  c1.send_at(0, datagram(10, 1));
  c2.send_at(kMs, datagram(10, 2));
  c1.send_at(2 * kMs, datagram(10, 3));
  c2.send_at(3 * kMs, datagram(10, 4));
  sim.run();
  BOOST_TEST(server.arrival_tags() == (std::vector<int>{1, 2, 3, 4}));
  BOOST_TEST(c1.arrival_tags() == (std::vector<int>{3}));
  BOOST_TEST(c1.arrival_times() == (Times{22 * kMs}));
  BOOST_TEST(c2.arrival_tags() == (std::vector<int>{4}));
  BOOST_TEST(c2.arrival_times() == (Times{23 * kMs}));
}

namespace {

// A client that sends two datagrams (tags 1 and 2, 1 ms apart, of the given
// sizes) to a server that echoes each, on a simulator shaped by `network`.
struct EchoPath {
  Simulator sim;
  ScriptedEndpoint server, client;
  EchoPath(const ValueMap& network, std::size_t first, std::size_t second) : sim(net_config(network), 1, nullptr) {
    server.echo = true;
    client.peer = *sim.attach_server(server);
    sim.attach_client(client);
    client.send_at(0, datagram(first, 1));
    client.send_at(kMs, datagram(second, 2));
  }
};

}  // namespace

BOOST_AUTO_TEST_CASE(each_direction_takes_the_settings_set_apart_for_it) {
  // What the server sends crosses a 1280-byte path 30 ms long; what the
  // client sends, the table's 1500 bytes and 10 ms (rtt_ms 20).
  EchoPath p(ValueMap{{"rtt_ms", 20.0}, {"server_mtu", std::int64_t{1280}}, {"server_delay_ms", 30.0}}, 1300, 1200);
  p.sim.run();
  BOOST_TEST(p.server.arrival_tags() == (std::vector<int>{1, 2}));
  BOOST_TEST(p.server.arrival_times() == (Times{10 * kMs, 11 * kMs}));
  // The 1300-byte echo (1328 with its headers) does not fit the server's path.
  BOOST_TEST(p.client.arrival_tags() == (std::vector<int>{2}));
  BOOST_TEST(p.client.arrival_times() == (Times{41 * kMs}));
}

BOOST_AUTO_TEST_CASE(what_the_lists_picked_and_what_they_never_did) {
  EchoPath p(ValueMap{{"rtt_ms", 20.0},
                      {"drop", Strings{"client:1", "server:5", "client-2:1"}},
                      {"reorder", Strings{"server:1"}}},
             10, 10);
  std::vector<std::string> trace;
  p.sim.set_trace([&](const NetEvent& e) {
    if (e.kind == NetEvent::Kind::picked || e.kind == NetEvent::Kind::lost) trace.push_back(to_string(e));
  });
  p.sim.run();
  BOOST_TEST(trace == (std::vector<std::string>{"0 lost client->server #1 10 B (drop list)",
                                                "11000000 picked server->client #1 10 B (reorder)"}));
  // Two echoes at most, one client: neither of these ever had anything to take.
  BOOST_TEST(p.sim.idle_selectors() == (std::vector<std::string>{"drop 'server:5'", "drop 'client-2:1'"}));
}

BOOST_AUTO_TEST_CASE(datagrams_to_unknown_addresses_are_lost) {
  Pair p(ValueMap{});
  p.client.peer = {kClientAddress, 40000};  // itself: clients reach only the server
  p.client_sends(1, 0);
  p.sim.run();
  BOOST_TEST(p.server.received.empty());
  BOOST_REQUIRE(p.events.size() == 2u);
  BOOST_TEST(std::string(p.events[1].reason) == "unroutable");
  BOOST_TEST(p.captures["client"].records.size() == 1u);  // it did send it
}

BOOST_AUTO_TEST_CASE(run_until_stops_at_the_deadline_and_continues) {
  Pair p(ValueMap{{"rtt_ms", 20.0}});
  p.client_sends(3, 5 * kMs);
  auto end = p.sim.run_until(at_ns(12 * kMs));
  BOOST_TEST(end.reason == Reason::deadline);
  BOOST_TEST(end.at.ns() == 12 * kMs);
  BOOST_TEST(p.server.arrival_times() == (Times{10 * kMs}));
  end = p.sim.run();
  BOOST_TEST(end.reason == Reason::quiescent);
  BOOST_TEST(p.server.arrival_times() == (Times{10 * kMs, 15 * kMs, 20 * kMs}));
}

BOOST_AUTO_TEST_CASE(virtual_time_budget_ends_a_run_that_never_ends) {
  Simulator sim(net_config(ValueMap{{"budget_ms", 50.0}}), 1, nullptr);
  Ticker server;
  sim.attach_server(server);
  const SimulationEnd end = sim.run();
  BOOST_TEST(end.reason == Reason::budget_exhausted);
  BOOST_TEST(end.at.ns() == 50 * kMs);
  BOOST_TEST(end.detail.find("virtual-time budget of 50") != std::string::npos, end.detail);
  BOOST_TEST(server.ticks == 51);  // at 0, 1, ..., 50 ms
  // The budget is absolute: running again does nothing.
  BOOST_TEST(sim.run().reason == Reason::budget_exhausted);
  BOOST_TEST(server.ticks == 51);
}

BOOST_AUTO_TEST_CASE(a_timer_that_never_moves_on_is_reported_stalled) {
  Simulator sim(net_config(ValueMap{}), 1, nullptr);
  Spinner server;
  sim.attach_server(server);
  const SimulationEnd end = sim.run();
  BOOST_TEST(end.reason == Reason::stalled);
  BOOST_TEST(end.detail.find("server keeps its timer") != std::string::npos, end.detail);
  BOOST_TEST(sim.run().detail == end.detail);
}

BOOST_AUTO_TEST_CASE(endless_sending_at_one_instant_is_reported_stalled) {
  // Two echoers over a zero-delay path answer each other forever at time 0.
  // No taps and no trace: a million records would only cost memory here.
  Simulator sim(net_config(ValueMap{{"rtt_ms", 0.0}}), 1, nullptr);
  ScriptedEndpoint server, client;
  client.echo = server.echo = true;
  client.peer = *sim.attach_server(server);
  sim.attach_client(client);
  client.send_at(0, datagram(10));
  const SimulationEnd end = sim.run();
  BOOST_TEST(end.reason == Reason::stalled);
  BOOST_TEST(end.at.ns() == 0);
  BOOST_TEST(end.detail.find("keeps sending at 0 ns") != std::string::npos, end.detail);
  // Stalled stays stalled.
  BOOST_TEST(sim.run().reason == Reason::stalled);
}

BOOST_AUTO_TEST_CASE(no_server_is_misconfigured) {
  Simulator lonely(NetConfig{}, 1, nullptr);
  const SimulationEnd end = lonely.run();
  BOOST_TEST(end.reason == Reason::misconfigured);
  BOOST_TEST(end.detail == "no server attached");
}

BOOST_AUTO_TEST_CASE(path_mtu_counts_ip_bytes_and_the_receiver_sees_only_what_arrived) {
  // MTU 1500: a 1472-byte payload makes a 1500-byte IP packet and fits; a
  // 1473-byte payload makes 1501 bytes and is lost.
  const std::string dir = scratch_dir("path_mtu");
  FileCaptures files{dir, {}};
  {
    Simulator sim(net_config(ValueMap{{"mtu", std::int64_t{1500}}, {"rtt_ms", 20.0}}), 1, std::ref(files));
    ScriptedEndpoint server, client;
    client.peer = *sim.attach_server(server);
    sim.attach_client(client);
    client.send_at(0, datagram(1472, 1));
    client.send_at(kMs, datagram(1473, 2));
    client.send_at(2 * kMs, datagram(1200, 3));
    BOOST_TEST(sim.run().reason == Reason::quiescent);
    BOOST_TEST(server.arrival_tags() == (std::vector<int>{1, 3}));
    BOOST_TEST(sim.stats().lost == 1);
  }
  files.writers.clear();  // flush and close
  const auto at_server = read_udp_datagrams(dir + "/server.pcap");
  BOOST_REQUIRE(at_server.size() == 2u);
  BOOST_TEST(at_server[0].payload.size() == 1472u);
  BOOST_TEST(at_server[0].time_ns == 10 * kMs);
  BOOST_TEST(at_server[1].payload.size() == 1200u);
  BOOST_TEST(at_server[1].time_ns == 12 * kMs);
  BOOST_TEST(at_server[0].from.address == kClientAddress);
  BOOST_TEST(at_server[0].to.address == kServerAddress);
  const auto at_client = read_udp_datagrams(dir + "/client.pcap");
  BOOST_REQUIRE(at_client.size() == 3u);  // the sender's tap shows all it sent
  BOOST_TEST(at_client[1].payload.size() == 1473u);
  BOOST_TEST(at_client[1].time_ns == kMs);
}

namespace {

/// An echo exchange over a lossy, jittery, duplicating, corrupting path;
/// returns the event trace and leaves its pcaps in `dir`.
std::vector<std::string> impaired_echo(std::uint64_t seed, const std::string& dir) {
  std::vector<std::string> trace;
  FileCaptures files{dir, {}};
  Simulator sim(net_config(ValueMap{{"rtt_ms", 30.0}, {"bandwidth_mbps", 50.0}, {"loss_rate", 0.1},
                         {"jitter_ms", 2.0}, {"duplicate_rate", 0.05}, {"corrupt_rate", 0.05},
                         {"ge_enter_bad", 0.05}, {"ge_leave_bad", 0.5}}),
                seed, std::ref(files));
  sim.set_trace([&](const NetEvent& e) { trace.push_back(to_string(e)); });
  ScriptedEndpoint server, client;
  server.echo = true;
  client.peer = *sim.attach_server(server);
  sim.attach_client(client);
  for (int k = 0; k < 200; ++k) client.send_at(k * 100'000, datagram(1200, static_cast<std::uint8_t>(k)));
  sim.run();
  return trace;
}

std::vector<std::string> lost_lines(const std::vector<std::string>& trace) {
  std::vector<std::string> out;
  for (const auto& l : trace)
    if (l.find(" lost ") != std::string::npos) out.push_back(l);
  return out;
}

}  // namespace

BOOST_AUTO_TEST_CASE(same_seed_same_events_and_capture_bytes_other_seed_other_losses) {
  const std::string a = scratch_dir("determinism_a"), b = scratch_dir("determinism_b"),
                    c = scratch_dir("determinism_c");
  const auto first = impaired_echo(7, a), second = impaired_echo(7, b), other = impaired_echo(8, c);
  BOOST_TEST(first.size() > 400u);
  BOOST_TEST(first == second);
  for (const char* v : {"/client.pcap", "/server.pcap"}) {
    const std::string bytes = read_file(a + v);
    BOOST_TEST(bytes.size() > 200'000u);
    BOOST_TEST((bytes == read_file(b + v)), v);
    BOOST_TEST((bytes != read_file(c + v)), v);
  }
  BOOST_TEST(!lost_lines(first).empty());
  BOOST_TEST(lost_lines(first) != lost_lines(other));
  BOOST_TEST(first[0] == "0 sent client->server #1 1200 B");
}

BOOST_AUTO_TEST_SUITE_END()

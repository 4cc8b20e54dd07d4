// The QUIC checks' cost on the largest stream-limit case of issue 7: a
// 6000-frame uni-fanout (one server-initiated uni stream per 80-byte frame
// at a 20 ms cadence, 120 s simulated), as a synthetic timeline of what the
// dissector would give for client.pcap and server.pcap: each stream one
// STREAM frame with FIN in its own 1-RTT datagram, an ACK from the client
// every second datagram, MAX_STREAMS every 50 streams and MAX_DATA every
// 100. It times building the timeline queries of both captures (what the
// capture cache does once per capture) and then every QUIC check of the
// catalogue on them. Target: the whole judging well under a second. The
// timeline has no handshake, so the handshake checks fail on it; what is
// measured is their cost over 9000 datagrams.
//
//   build/bench/bench_quic_checks [--streams N]
#include "check/quic/support/quic_check.hpp"
#include "check/registry.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cstdlib>
#include <string>

namespace {

using namespace conform;
using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) { return std::chrono::duration<double, std::milli>(Clock::now() - start).count(); }

dissect::Timeline fanout(std::uint64_t streams) {
  dissect::Connection c;
  c.client = {kClientAddress, 40000};
  c.server = {kServerAddress, 4433};
  c.original_dcid = {1, 2, 3, 4};
  c.client_parameters = dissect::TransportParameters{};
  c.client_parameters->initial_max_streams_uni = 100;
  c.client_parameters->initial_max_data = 1 << 20;
  c.client_parameters->initial_max_stream_data_uni = 1 << 16;
  c.server_parameters = dissect::TransportParameters{};
  std::uint64_t frame = 0, server_pn = 0, client_pn = 0;
  auto add = [&](dissect::Direction dir, std::int64_t t, std::vector<dissect::Frame> frames) {
    dissect::Packet p;
    p.type = dissect::PacketType::one_rtt;
    p.space = dissect::PacketSpace::application;
    p.packet_number = dir == dissect::Direction::server_to_client ? server_pn++ : client_pn++;
    p.length = 120;
    p.payload_length = 100;
    p.frames = std::move(frames);
    dissect::Datagram d;
    d.frame = ++frame;
    d.time_ns = t;
    d.direction = dir;
    d.size = 120;
    d.packets.push_back(std::move(p));
    c.datagrams.push_back(std::move(d));
  };
  for (std::uint64_t i = 0; i < streams; ++i) {
    const std::int64_t t = std::int64_t(i) * 20'000'000;
    dissect::StreamFrame s;
    s.stream_id = i * 4 + 3;
    s.length = 80;
    s.fin = true;
    s.has_length = true;
    add(dissect::Direction::server_to_client, t, {s});
    std::vector<dissect::Frame> reply;
    if (i % 2) reply.push_back(dissect::AckFrame{server_pn - 1, 0, {{0, server_pn - 1}}, std::nullopt});
    if (i % 50 == 0) reply.push_back(dissect::MaxStreamsFrame{false, i + 150});
    if (i % 100 == 0) reply.push_back(dissect::MaxDataFrame{(1 << 20) + i * 80});
    if (!reply.empty()) add(dissect::Direction::client_to_server, t + 1'000'000, std::move(reply));
  }
  dissect::Timeline timeline;
  timeline.connections.push_back(std::move(c));
  return timeline;
}

}  // namespace

int main(int argc, char** argv) {
  std::uint64_t streams = 6000;
  for (int i = 1; i + 1 < argc; ++i)
    if (std::string(argv[i]) == "--streams") streams = std::strtoull(argv[i + 1], nullptr, 10);
  const auto timeline = fanout(streams);

  auto start = Clock::now();
  auto client = quic_checks::make_capture_facts("client.pcap", timeline);
  auto server = quic_checks::make_capture_facts("server.pcap", timeline);
  const double queries_ms = ms_since(start);
  const quic_checks::QuicRun run(server, {client});

  CaseSettings settings;
  // What uni-fanout declares for one frame a stream.
  settings.demand = RunDemand{};
  settings.demand->server.uni_streams = DemandValue{std::uint64_t(streams), fmt::format("frames={} frames_per_group=1", streams)};
  settings.demand->server.bytes = DemandValue{std::uint64_t(streams) * 80, fmt::format("frames={} × payload_bytes=80", streams)};
  const std::string dir;
  const auto& registry = CheckRegistry::builtin();
  double checks_ms = 0;
  bool all_passed = true;
  for (const auto& name : registry.names()) {
    const auto* check = dynamic_cast<const quic_checks::QuicCheck*>(registry.find(name));
    if (!check) continue;
    ValueMap params;
    for (const auto& spec : check->params())
      if (spec.default_value) params[spec.name] = *spec.default_value;
    for (const char* side : {"by", "from"})
      if (!params.count(side) || std::get<std::string>(params[side]) == "any")
        for (const auto& spec : check->params())
          if (spec.name == side) params[side] = std::string(std::string(side) == "from" ? "server" : "client");
    for (const auto& spec : check->params())
      if (spec.name == "dir") params["dir"] = std::string("uni");
    // The server sends the streams: it is the one that could be blocked.
    if (name.find("blocked") != std::string::npos) params["by"] = std::string("server");
    if (name == "connection_closed_with") params["error"] = std::string("NO_ERROR");
    start = Clock::now();
    const auto r = check->judge(run, {dir, settings, params});
    const double took = ms_since(start);
    checks_ms += took;
    fmt::print("{:<30} {:8.3f} ms  {}  {}\n", name, took, to_string(r.verdict), r.summary.substr(0, 100));
    if (name == "streams_delivered" || name == "max_streams_extended") all_passed = all_passed && r.verdict == Verdict::pass;
  }
  fmt::print("{} streams, {} datagrams: timeline queries of 2 captures {:.1f} ms, every QUIC check {:.1f} ms, "
             "total {:.1f} ms\n",
             streams, timeline.connections.front().datagrams.size(), queries_ms, checks_ms, queries_ms + checks_ms);
  return all_passed ? 0 : 1;
}

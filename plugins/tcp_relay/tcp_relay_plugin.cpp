// The loopback TCP relay plugin: the spike "large bodies stalling on
// loopback" as repeatable cases. An upstream server, an optional relay and a
// timing client run as threads of one process on 127.0.0.1, with receive and
// send buffers per role left to the kernel's autotuning or fixed, optionally
// starved of CPU; libpcap captures every segment on `lo` for the checks, and
// TCP_INFO is sampled during slow transfers into tcp_info.json.
#include "acceptor.hpp"
#include "client.hpp"
#include "forwarding.hpp"
#include "live_capture.hpp"
#include "relay.hpp"
#include "settings.hpp"
#include "starvation.hpp"
#include "tcp_info_sampler.hpp"
#include "upstream_server.hpp"

#include <conform/plugin_export.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <optional>
#include <thread>

namespace tcp_relay {
namespace {

using namespace conform;

// Segments still in flight when the client closes (FIN, last ACKs) reach the
// capture within microseconds on loopback, and libpcap gets them 10 ms later
// at most (LiveCapture::finish); this leaves room for a starved CPU.
constexpr auto kCaptureTail = std::chrono::milliseconds(100);

std::string fmt_ms(double ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", ms);
  return buf;
}

std::string summarize(const std::vector<TimedTransfer>& transfers, std::int64_t slow_ms) {
  std::vector<double> ms;
  for (const auto& t : transfers) ms.push_back(t.ms);
  if (ms.empty()) return "no transfer ran";
  std::sort(ms.begin(), ms.end());
  const auto slow = std::count_if(ms.begin(), ms.end(), [&](double v) { return v > slow_ms; });
  return std::to_string(ms.size()) + " transfers: median " + fmt_ms(ms[ms.size() / 2]) +
         " ms, max " + fmt_ms(ms.back()) + " ms, " + std::to_string(slow) + " over " +
         std::to_string(slow_ms) + " ms (client's clock)";
}

class TcpRelayPlugin final : public Plugin {
 public:
  TcpRelayPlugin() {
    info_.name = "tcp_relay";
    info_.version = "0.1.0";
    info_.time_model = TimeModel::real;
    info_.roles = {"client", "relay", "server"};
    info_.scenarios = {{"transfers",
                        "the client sends request_bytes and reads response_bytes, `transfers` "
                        "times, over the chosen leg; every segment is captured on lo",
                        scenario_params()}};
    info_.knobs = role_knobs();
  }

  const PluginInfo& info() const override { return info_; }

  RunOutcome run(RunContext& ctx) override {
    try {
      return play(ctx);
    } catch (const std::exception& e) {
      return {RunOutcome::Status::error, std::string("tcp_relay: ") + e.what()};
    }
  }

 private:
  static RunOutcome play(RunContext& ctx) {
    auto parsed = parse_settings(ctx.settings());
    if (!parsed.settings) return {RunOutcome::Status::error, parsed.problem};
    const RunSettings& s = *parsed.settings;
    if (auto p = pin_to_cpus(s.cpus); !p.empty()) return {RunOutcome::Status::error, p};
    CpuHogs hogs(s.cpu_hogs);

    SocketRegistry sockets;
    auto server_listener = listen_loopback(s.server);
    if (!server_listener.fd) return {RunOutcome::Status::error, "server: " + server_listener.problem};
    const ServerShape shape{s.request_bytes, s.response_bytes,
                            s.leg == Leg::direct_pieces ? s.piece_bytes : 0};
    Acceptor server(std::move(server_listener.fd),
                    [&](Fd conn) { serve_connection(std::move(conn), shape, sockets); });
    std::optional<Acceptor> relay;
    RelayShape relay_shape{server.port(), s.piece_bytes, s.forwarding, s.relay};
    if (s.leg == Leg::relay) {
      if (auto p = forwarding_problem(s.piece_bytes, s.forwarding); !p.empty())
        return {RunOutcome::Status::error, "relay: " + p};
      auto relay_listener = listen_loopback(s.relay);
      if (!relay_listener.fd) return {RunOutcome::Status::error, "relay: " + relay_listener.problem};
      relay.emplace(std::move(relay_listener.fd),
                    [&](Fd conn) { relay_connection(std::move(conn), relay_shape, sockets); });
    }
    std::vector<std::uint16_t> ports{server.port()};
    if (relay) ports.push_back(relay->port());

    const std::string part = ctx.artifact_dir() + "/loopback.pcap.part";
    LiveCapture capture;
    switch (capture.open(part, ports)) {
      case LiveCapture::Opened::ok: break;
      case LiveCapture::Opened::no_privilege:
        ctx.log("tcp_relay: " + capture.problem() + "; the capture checks are not run");
        return {RunOutcome::Status::unsupported,
                "no privilege to capture on lo (run as root or grant CAP_NET_RAW): " +
                    capture.problem()};
      case LiveCapture::Opened::failed: return {RunOutcome::Status::error, capture.problem()};
    }
    server.start();
    if (relay) relay->start();
    TcpInfoSampler sampler(sockets, s.slow_transfer_ms);
    sampler.start();

    ClientResult client = run_client(s, relay ? relay->port() : server.port(), sockets, sampler);
    // The client's sockets are closed: the relay and server see end of
    // stream and return. After a failure they may be blocked mid-answer.
    if (!client.problem.empty()) sockets.shutdown_all();
    if (relay) relay->stop();
    server.stop();
    sampler.stop();
    std::this_thread::sleep_for(kCaptureTail);
    const std::uint64_t dropped = capture.finish();

    ctx.log("tcp_relay: ports " + std::to_string(server.port()) +
            (relay ? " (server), " + std::to_string(relay->port()) + " (relay)" : " (server)") +
            "; " + std::to_string(capture.packets()) + " segments captured");
    ctx.log("tcp_relay: " + summarize(client.transfers, s.slow_transfer_ms));
    if (!client.problem.empty()) ctx.log("tcp_relay: the client stopped: " + client.problem);
    if (!sampler.write_json(ctx.artifact_dir() + "/tcp_info.json", client.transfers))
      ctx.log("tcp_relay: cannot write tcp_info.json");
    ctx.log("tcp_relay: " + std::to_string(sampler.sample_count()) + " TCP_INFO samples in tcp_info.json");
    if (dropped > 0)
      return {RunOutcome::Status::error,
              "the capture lost " + std::to_string(dropped) +
                  " packets in the kernel: judging it would judge a partial wire"};
    if (auto why = ctx.adopt_capture("loopback", part); !why.empty())
      return {RunOutcome::Status::error, why};
    return {};
  }

  PluginInfo info_;
};

}  // namespace
}  // namespace tcp_relay

CONFORM_PLUGIN(tcp_relay::TcpRelayPlugin)

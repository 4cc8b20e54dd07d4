// How fast the simulator pushes datagrams: one million 1200-byte datagrams
// from a client to a server over a 40 ms RTT, 100 Mbit/s path, paced at the
// link rate, three ways: taps writing pcap files, taps to a writer that
// discards, and no taps. Prints datagrams per second of wall time, the ratio
// of simulated to wall-clock time, and the cost per datagram; the difference
// between "no-op taps" and "no taps" is the taps' own cost beyond writing.
// The pcap files (about 2.5 GB for a million) are deleted after the run.
//
//   build/bench/bench_sim_link [--datagrams N] [--out DIR]
#include "capture/pcap_writer.hpp"
#include "net/simulator.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <string>

using namespace conform;

namespace {

constexpr std::size_t kPayload = 1200;

// Sends `count` datagrams, one per `interval`, from time 0.
class Pacer final : public Endpoint {
 public:
  Pacer(UdpEndpoint to, std::int64_t count, Duration interval) : to_(to), left_(count), interval_(interval) {}
  void handle_datagram(Instant, std::span<const std::uint8_t>, UdpEndpoint) override {}
  std::optional<Transmit> poll_transmit(Instant now) override {
    if (left_ == 0 || now < next_) return std::nullopt;
    --left_;
    next_ = now + interval_;
    return Transmit{to_, std::vector<std::uint8_t>(kPayload, 0x5a)};
  }
  Instant next_timeout() const override { return left_ == 0 ? Instant::never() : next_; }
  void handle_timeout(Instant) override {}

 private:
  UdpEndpoint to_;
  std::int64_t left_;
  Duration interval_;
  Instant next_;
};

class Sink final : public Endpoint {
 public:
  std::int64_t received = 0;
  void handle_datagram(Instant, std::span<const std::uint8_t>, UdpEndpoint) override { ++received; }
  std::optional<Transmit> poll_transmit(Instant) override { return std::nullopt; }
  Instant next_timeout() const override { return Instant::never(); }
  void handle_timeout(Instant) override {}
};

class Discard final : public CaptureWriter {
 public:
  void write_udp(std::int64_t, UdpEndpoint, UdpEndpoint, std::span<const std::uint8_t>) override {}
};

enum class Taps { pcap, discard, none };

struct Result {
  double wall_s = 0, simulated_s = 0;
  std::int64_t received = 0;
};

Result run(Taps taps, std::int64_t count, const std::string& out_dir) {
  std::map<std::string, std::unique_ptr<CaptureWriter>> writers;
  CaptureSource source;
  if (taps != Taps::none)
    source = [&](std::string_view v) {
      auto& w = writers[std::string(v)];
      if (!w) {
        if (taps == Taps::pcap) w = std::make_unique<PcapWriter>(out_dir + "/" + std::string(v) + ".pcap");
        else w = std::make_unique<Discard>();
      }
      return w.get();
    };
  NetConfig net;
  net.one_way_delay = Duration::milliseconds(20);
  net.bandwidth_bps = 100e6;
  net.budget = Duration::seconds(1'000'000);
  Simulator sim(net, 1, source);
  Sink server;
  const UdpEndpoint server_address = *sim.attach_server(server);
  // One IP packet (1228 bytes) takes 98.24 us at 100 Mbit/s: send at that pace.
  Pacer client(server_address, count, Duration::nanoseconds(98'240));
  sim.attach_client(client);
  const auto start = std::chrono::steady_clock::now();
  const SimulationEnd end = sim.run();
  writers.clear();  // the pcap files are flushed inside the measured time
  const auto wall = std::chrono::steady_clock::now() - start;
  Result r;
  r.wall_s = std::chrono::duration<double>(wall).count();
  r.simulated_s = static_cast<double>(end.at.ns()) / 1e9;
  r.received = server.received;
  // Two copies of every datagram: 2.5 GB for a million; not worth keeping.
  for (const char* v : {"/client.pcap", "/server.pcap"}) std::filesystem::remove(out_dir + v);
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  std::int64_t count = 1'000'000;
  std::string out = (std::filesystem::temp_directory_path() / "conform-bench-sim").string();
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--datagrams") == 0) count = std::atoll(argv[i + 1]);
    else if (std::strcmp(argv[i], "--out") == 0) out = argv[i + 1];
  }
  std::filesystem::create_directories(out);
  std::printf("%lld datagrams of %zu bytes, 40 ms RTT, 100 Mbit/s, paced at the link rate\n",
              static_cast<long long>(count), kPayload);
  std::printf("%-14s %10s %12s %14s %12s %12s\n", "taps", "wall s", "datagrams/s", "sim/wall", "ns/datagram",
              "delivered");
  double none_ns = 0, discard_ns = 0;
  for (auto [taps, name] : {std::pair{Taps::none, "none"}, std::pair{Taps::discard, "no-op writer"},
                            std::pair{Taps::pcap, "pcap files"}}) {
    const Result r = run(taps, count, out);
    const double per = r.wall_s * 1e9 / static_cast<double>(count);
    if (taps == Taps::none) none_ns = per;
    if (taps == Taps::discard) discard_ns = per;
    std::printf("%-14s %10.3f %12.0f %14.1f %12.1f %12lld\n", name, r.wall_s,
                static_cast<double>(count) / r.wall_s, r.simulated_s / r.wall_s, per,
                static_cast<long long>(r.received));
    if (r.received != count) {
      std::fprintf(stderr, "expected %lld datagrams delivered\n", static_cast<long long>(count));
      return 1;
    }
  }
  std::printf("event loop + link: %.1f ns/datagram; taps beyond writing: %.1f ns/datagram\n", none_ns,
              discard_ns - none_ns);
  return 0;
}

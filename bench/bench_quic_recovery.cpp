// The in-house QUIC's loss recovery, in simulated time on the in-memory path
// of tests/unit/quic_sim_path.hpp (both ends in this process):
//
//  1. the post-quantum handshake table of
//     ../shared/background/client-packet-buffering-and-pq-handshake.md
//     (1 ms RTT, path MTU 1500, base_mtu 1450, initial_mtu 8940), with the
//     measured stack's two faults and without them;
//  2. bulk transfer over a 100 Mbit/s bottleneck at 40 ms RTT (drop-tail
//     queue of one BDP) at 0 % and 1 % random loss, with each congestion
//     controller (NewReno, BBR; docs/congestion.md): goodput as a fraction
//     of the link rate, and the wall-clock cost of simulating it.
//
//   bench_quic_recovery [--bytes N] [--cc newreno|bbr] [--loss-reduction F] [--table-only]
//
// Issue 6's targets: >= 90 % of the link without loss, >= 60 % at 1 %.
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "unit/quic_pq_cases.hpp"

using namespace conform::quic;
using namespace conform::quic::test;

namespace {

void print_pq_table() {
  std::printf("PQ handshake, 1 ms RTT, path MTU 1500, base_mtu 1450, initial_mtu 8940 (ms, HANDSHAKE_DONE)\n");
  std::printf("%-55s %10s %10s %12s\n", "case", "faults", "no faults", "background");
  const double background[] = {10, 191, 9, 5};
  for (size_t i = 0; i < kPqCases.size(); ++i) {
    const PqResult with = run_pq_case(kPqCases[i], true);
    const PqResult without = run_pq_case(kPqCases[i], false);
    auto ms = [](const PqResult& r) { return r.handshake ? static_cast<double>(r.handshake->ns) / 1e6 : -1.0; };
    std::printf("%-55s %10.3f %10.3f %12.0f\n", kPqCases[i].name, ms(with), ms(without), background[i]);
  }
}

struct BulkResult {
  double goodput_fraction = 0;
  double simulated_s = 0;
  double wall_s = 0;
  double cpu_s = 0;  ///< this process's CPU time: the cost without waiting for a core
  uint64_t lost = 0, sent = 0;
  bool complete = false;
};

BulkResult run_bulk(size_t bytes, double loss, CongestionControl cc, double loss_reduction) {
  Config c, s;
  s.is_server = true;
  c.seed = s.seed = 5;
  s.certificate = TestCertificate::generate("localhost", 5);
  for (Config* k : {&c, &s}) {
    k->initial_mtu = k->base_mtu = 1452;
    k->max_udp_payload_size = 1452;
    k->initial_max_data = 64u << 20;
    k->initial_max_stream_data_uni = 64u << 20;
    k->initial_max_stream_data_bidi_local = k->initial_max_stream_data_bidi_remote = 64u << 20;
    k->cc_loss_reduction_factor = loss_reduction;
    k->congestion_controller = cc;
    k->max_idle_timeout_ms = 600'000;
  }
  LinkSpec link;
  link.one_way_delay = Duration::millis(20);
  link.rate_bps = 100'000'000;
  link.queue_bytes = 500'000;  // one BDP: 100 Mbit/s * 40 ms
  link.loss = loss;
  SimPath p(c, s, link, link, 9);
  BulkResult r;
  const auto wall0 = std::chrono::steady_clock::now();
  const std::clock_t cpu0 = std::clock();
  if (!p.handshake_time()) return r;
  Bytes payload(bytes, 0x5a);
  auto id = p.server().open_stream(Dir::uni);
  if (!id.ok() || !p.server().write(id.value(), payload).ok() || !p.server().finish(id.value()).ok()) return r;
  const Instant start = p.now;
  uint64_t got = 0;
  bool fin = false;
  static uint8_t buf[1 << 16];
  p.step = [&] {
    while (!fin) {
      auto rd = p.client().read(id.value(), buf);
      if (!rd.ok() || (rd.value().bytes == 0 && !rd.value().fin)) break;
      got += rd.value().bytes;
      fin = rd.value().fin;
    }
  };
  r.complete = p.run(start + Duration::seconds(3600), [&] { return fin; });
  r.simulated_s = static_cast<double>((p.now - start).ns) / 1e9;
  r.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  r.cpu_s = static_cast<double>(std::clock() - cpu0) / CLOCKS_PER_SEC;
  r.goodput_fraction = static_cast<double>(got) * 8 / r.simulated_s / static_cast<double>(link.rate_bps);
  r.lost = p.server().stats().packets_lost;
  r.sent = p.server().stats().packets_sent;
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  size_t bytes = 50u << 20;
  double loss_reduction = 0.5;
  bool table_only = false;
  std::vector<CongestionControl> controllers = {CongestionControl::newreno, CongestionControl::bbr};
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--bytes") && i + 1 < argc) bytes = std::strtoull(argv[++i], nullptr, 10);
    else if (!std::strcmp(argv[i], "--loss-reduction") && i + 1 < argc) loss_reduction = std::atof(argv[++i]);
    else if (!std::strcmp(argv[i], "--table-only")) table_only = true;
    else if (!std::strcmp(argv[i], "--cc") && i + 1 < argc && !std::strcmp(argv[i + 1], "newreno") && ++i)
      controllers = {CongestionControl::newreno};
    else if (!std::strcmp(argv[i], "--cc") && i + 1 < argc && !std::strcmp(argv[i + 1], "bbr") && ++i)
      controllers = {CongestionControl::bbr};
    else {
      std::fprintf(stderr, "usage: %s [--bytes N] [--cc newreno|bbr] [--loss-reduction F] [--table-only]\n", argv[0]);
      return 2;
    }
  }
  print_pq_table();
  if (table_only) return 0;
  std::printf("\nBulk, 100 Mbit/s bottleneck, 40 ms RTT, queue 500 KB, %zu bytes, NewReno kLossReductionFactor %.2f\n",
              bytes, loss_reduction);
  std::printf("%-8s %6s %10s %12s %12s %12s %10s %10s\n", "cc", "loss", "goodput", "simulated s", "wall s",
              "cpu s", "lost", "sent");
  for (CongestionControl cc : controllers)
    for (double loss : {0.0, 0.01}) {
      const BulkResult r = run_bulk(bytes, loss, cc, loss_reduction);
      std::printf("%-8s %5.1f%% %9.1f%% %12.3f %12.3f %12.3f %10llu %10llu%s\n",
                  cc == CongestionControl::bbr ? "bbr" : "newreno", loss * 100, r.goodput_fraction * 100,
                  r.simulated_s, r.wall_s, r.cpu_s, static_cast<unsigned long long>(r.lost),
                  static_cast<unsigned long long>(r.sent), r.complete ? "" : "  (incomplete)");
    }
  return 0;
}

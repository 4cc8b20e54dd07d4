// How fast the QUIC plugin plays the stream-cliff fan-out in virtual time:
// `uni-fanout` with 6000 frames at 20 ms (120 s of broadcast, one new
// unidirectional stream per frame, 80 bytes each) to one subscriber, played
// in this process exactly as `conform run` plays it (quic::play on the
// framework's case context, captures and key log written). Prints the wall
// time, the simulated time and simulated seconds per wall second. Issue 7's
// target: at most 2 s of wall time for this case.
//
//   build/bench/bench_quic_fanout [--frames N] [--subscribers N] [--cadence-ms N] [--out DIR]
#include "run/case_context.hpp"
#include "scenarios/run.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>

using namespace conform;

int main(int argc, char** argv) {
  std::int64_t frames = 6000, subscribers = 1, cadence_ms = 20;
  std::string out = std::filesystem::temp_directory_path() / "bench_quic_fanout";
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--frames")) frames = std::atoll(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--subscribers")) subscribers = std::atoll(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--cadence-ms")) cadence_ms = std::atoll(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--out")) out = argv[i + 1];
    else {
      std::fprintf(stderr, "usage: %s [--frames N] [--subscribers N] [--cadence-ms N] [--out DIR]\n", argv[0]);
      return 2;
    }
  }
  std::filesystem::remove_all(out);

  CaseSettings s;
  s.id = "bench/uni-fanout";
  s.scenario = "uni-fanout";
  s.params = {{"frames", Value{frames}}, {"subscribers", Value{subscribers}},
              {"cadence_ms", Value{cadence_ms}}};
  s.network = {{"rtt_ms", Value{10.0}}, {"budget_ms", Value{1e9}}};
  s.seed = 1;
  NetConfig net;
  if (!read_net_config(s.network, net).empty()) return 2;

  const auto start = std::chrono::steady_clock::now();
  RunOutcome outcome;
  Instant simulated;
  {
    CaseContext ctx(s, net, out);
    outcome = quic::play(ctx);
    simulated = ctx.network().now();
    ctx.close_captures();
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double sim = static_cast<double>(simulated.ns()) / 1e9;
  std::uintmax_t bytes = 0;
  for (const auto& f : std::filesystem::directory_iterator(out))
    if (f.path().extension() == ".pcap") bytes += f.file_size();
  std::printf("uni-fanout: %lld frames at %lld ms to %lld subscriber(s): %s\n", static_cast<long long>(frames),
              static_cast<long long>(cadence_ms), static_cast<long long>(subscribers),
              outcome.status == RunOutcome::Status::completed ? "completed" : outcome.reason.c_str());
  std::printf("  wall %.3f s, simulated %.3f s: %.0f simulated s per wall s; captures %.1f MB\n", wall, sim,
              sim / wall, static_cast<double>(bytes) / 1e6);
  std::filesystem::remove_all(out);
  return outcome.status == RunOutcome::Status::completed ? 0 : 1;
}

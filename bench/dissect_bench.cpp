// The dissector's throughput on a capture, side by side with tshark's on the
// same capture in the same run (issue 3's targets: at least 20x tshark and
// 300 MB/s per core; memory not above 2x the capture).
//
//   build/bench/bench_dissect [CAPTURE KEYLOG] [--iterations N] [--no-tshark]
//
// Defaults to captures/ngtcp2/large.{pcap,keys}. Single-threaded: the
// MB/s figure is per core.
#include "capture/pcap_reader.hpp"
#include "dissect/dissector.hpp"

#include <fmt/format.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

long peak_rss_kib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

}  // namespace

int main(int argc, char** argv) {
  std::string capture = std::string(CONFORM_SOURCE_DIR) + "/captures/ngtcp2/large.pcap";
  std::string keylog = std::string(CONFORM_SOURCE_DIR) + "/captures/ngtcp2/large.keys";
  int iterations = 10;
  bool tshark = true;
  std::vector<std::string> positional;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--iterations" && i + 1 < argc) iterations = std::max(1, std::atoi(argv[++i]));
    else if (a == "--no-tshark") tshark = false;
    else positional.push_back(a);
  }
  if (positional.size() == 2) {
    capture = positional[0];
    keylog = positional[1];
  }
  const double file_mb = static_cast<double>(std::filesystem::file_size(capture)) / 1e6;
  const long rss_before = peak_rss_kib();

  // Best of N: reading the file and dissecting it, as `conform dissect` does.
  double best = 1e9;
  std::size_t datagrams = 0, packets = 0, undecryptable = 0;
  const auto keys = conform::dissect::read_key_log(keylog);
  for (int i = 0; i < iterations; ++i) {
    const auto start = Clock::now();
    conform::dissect::Dissector dissector(keys);
    conform::for_each_datagram(capture, [&](const conform::CapturedDatagram& d) { dissector.add(d); });
    const auto timeline = dissector.finish();
    best = std::min(best, seconds_since(start));
    datagrams = packets = undecryptable = 0;
    for (const auto& c : timeline.connections)
      for (const auto& d : c.datagrams) {
        ++datagrams;
        for (const auto& p : d.packets) {
          ++packets;
          undecryptable += p.undecryptable.has_value();
        }
      }
  }
  const double extra_mb = static_cast<double>(peak_rss_kib() - rss_before) * 1024 / 1e6;
  fmt::print("capture      {} ({:.1f} MB, {} datagrams, {} packets, {} undecryptable)\n", capture, file_mb,
             datagrams, packets, undecryptable);
  fmt::print("conform      {:8.2f} ms  {:10.0f} datagrams/s  {:8.1f} MB/s  (best of {})\n", best * 1e3,
             datagrams / best, file_mb / best, iterations);
  fmt::print("memory       {:.1f} MB above start = {:.2f}x the capture\n", extra_mb, extra_mb / file_mb);

  if (tshark) {
    const std::string cmd = fmt::format(
        "tshark -r '{}' -o 'tls.keylog_file:{}' -T fields -e frame.number -e quic.packet_number "
        "-e quic.frame_type -e quic.stream.stream_id >/dev/null 2>&1",
        capture, keylog);
    const auto start = Clock::now();
    const int rc = std::system(cmd.c_str());
    const double t = seconds_since(start);
    if (rc != 0) {
      fmt::print("tshark       did not run (exit {}): install tshark to compare\n", rc);
      return 0;
    }
    fmt::print("tshark       {:8.2f} ms  {:10.0f} datagrams/s  {:8.1f} MB/s\n", t * 1e3, datagrams / t,
               file_mb / t);
    fmt::print("ratio        conform is {:.1f}x tshark (target 20x); {:.0f} MB/s (target 300)\n", t / best,
               file_mb / best);
  }
  return 0;
}

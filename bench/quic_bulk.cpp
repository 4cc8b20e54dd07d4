// Bulk transfer through the in-house QUIC: one stream, client to server,
// both connections in this process joined in memory (no loss, no simulator,
// no congestion control: flow control is the only brake). Prints the stream
// payload rate per core (payload bits / process CPU seconds), the wall-clock
// rate, packets per second, and the memory high-water mark (ru_maxrss).
// Issue 5's target: at least 2 Gbit/s per core for 1 GB.
//
//   build/bench/bench_quic_bulk [--bytes N] [--mtu BYTES]
// Defaults: 1 GB (10^9 bytes), 1200-byte datagrams.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>

#include "connection/connection.hpp"

using namespace conform::quic;

namespace {

constexpr size_t kChunk = 64 * 1024;              // bytes per write()
constexpr uint64_t kWindow = 16 << 20;            // flow-control windows, bytes
constexpr uint64_t kUnreadLimit = 8 << 20;        // written but not yet read, bytes

double cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

Config base_config(size_t mtu) {
  Config c;
  c.alpn = {"bench"};
  c.initial_max_data = kWindow;
  c.initial_max_stream_data_bidi_local = kWindow;
  c.initial_max_stream_data_bidi_remote = kWindow;
  c.initial_max_stream_data_uni = kWindow;
  c.max_udp_payload_size = mtu;
  c.initial_mtu = mtu;
  return c;
}

// Moves every datagram `from` has to `to`; true if any moved.
bool move(Connection& from, Connection& to, Instant now, uint64_t& datagrams) {
  bool any = false;
  while (auto d = from.poll_transmit(now)) {
    to.handle_datagram(now, *d);
    ++datagrams;
    any = true;
  }
  return any;
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t total = 1'000'000'000;
  size_t mtu = 1200;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--bytes")) total = std::strtoull(argv[i + 1], nullptr, 10);
    else if (!std::strcmp(argv[i], "--mtu")) mtu = std::strtoul(argv[i + 1], nullptr, 10);
  }
  if (total == 0 || mtu < 1200 || mtu > 65527) {
    std::fprintf(stderr, "usage: bench_quic_bulk [--bytes N>0] [--mtu 1200..65527]\n");
    return 2;
  }
  Instant now = Instant::from_nanos(1'000'000'000);
  Config cc = base_config(mtu);
  Config sc = base_config(mtu);
  sc.is_server = true;
  sc.certificate = TestCertificate::generate("localhost", 1);
  auto client = Connection::connect(cc, now);
  auto server = Connection::accept(sc, now);
  if (!client || !server) {
    std::fprintf(stderr, "cannot create the connections\n");
    return 1;
  }
  Connection& c = *client.value();
  Connection& s = *server.value();
  uint64_t datagrams = 0;
  for (int i = 0; i < 20 && (move(c, s, now, datagrams) | move(s, c, now, datagrams)); ++i)
    now = now + Duration::millis(1);
  auto stream = c.open_stream(Dir::bidi);
  if (!c.handshake_confirmed() || !stream) {
    std::fprintf(stderr, "handshake failed\n");
    return 1;
  }
  static uint8_t chunk[kChunk];
  for (size_t i = 0; i < kChunk; ++i) chunk[i] = static_cast<uint8_t>(i * 31);
  static uint8_t sink[kChunk];

  const double cpu0 = cpu_seconds();
  const auto wall0 = std::chrono::steady_clock::now();
  uint64_t written = 0, received = 0;
  bool fin = false;
  datagrams = 0;
  while (!fin) {
    while (written < total && written - received < kUnreadLimit) {
      const size_t n = static_cast<size_t>(std::min<uint64_t>(kChunk, total - written));
      (void)c.write(stream.value(), ByteView(chunk, n));
      written += n;
      if (written == total) (void)c.finish(stream.value());
    }
    now = now + Duration::micros(50);
    move(c, s, now, datagrams);
    while (auto e = s.poll_event()) {}
    while (true) {
      auto r = s.read(stream.value(), sink);
      if (!r) break;
      received += r.value().bytes;
      if (r.value().fin) fin = true;
      if (r.value().bytes == 0 || r.value().fin) break;
    }
    move(s, c, now, datagrams);
    while (auto e = c.poll_event()) {}
    if (c.is_closed() || s.is_closed()) {
      std::fprintf(stderr, "connection closed after %llu bytes\n", static_cast<unsigned long long>(received));
      return 1;
    }
  }
  const double cpu = cpu_seconds() - cpu0;
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  std::printf("bytes=%llu mtu=%zu datagrams=%llu\n", static_cast<unsigned long long>(received), mtu,
              static_cast<unsigned long long>(datagrams));
  std::printf("cpu=%.3fs wall=%.3fs\n", cpu, wall);
  std::printf("throughput_per_core=%.3f Gbit/s (wall %.3f Gbit/s), %.0f datagrams/s per core\n",
              static_cast<double>(received) * 8 / cpu / 1e9, static_cast<double>(received) * 8 / wall / 1e9,
              static_cast<double>(datagrams) / cpu);
  std::printf("max_rss=%ld KiB\n", ru.ru_maxrss);
  return received == total ? 0 : 1;
}

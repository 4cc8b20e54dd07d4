// A dissected capture with the queries of each of its connections, and the
// per-process cache that dissects each capture of a run once however many
// checks read it. Checks of one run are evaluated one after the other in
// that run's forked child (run/execute.cpp), so the cache lives as long as
// the run's judging; `conform check` over stored captures reuses it across
// cases. Entries are keyed by file identity (path, size, modification
// time), so a rewritten capture is dissected again.
#pragma once

#include "check/quic/support/timeline_queries.hpp"
#include "dissect/timeline.hpp"

#include <memory>
#include <string>
#include <vector>

namespace conform::quic_checks {

/// A dissected timeline and the queries of each of its connections. The
/// facts point into the timeline, hence it is never copied or moved once
/// built; several CaptureFacts share one (renamed()).
struct DissectedCapture {
  dissect::Timeline timeline;
  /// One per timeline connection, same order.
  std::vector<ConnectionFacts> connections;

  DissectedCapture() = default;
  DissectedCapture(const DissectedCapture&) = delete;
  DissectedCapture& operator=(const DissectedCapture&) = delete;
};

struct CaptureFacts {
  /// File name in the case folder ("client-2.pcap"): evidence names it.
  std::string file;
  std::shared_ptr<const DissectedCapture> dissected;
  const dissect::Timeline& timeline;
  const std::vector<ConnectionFacts>& connections;

  CaptureFacts(std::string name, std::shared_ptr<const DissectedCapture> d)
      : file(std::move(name)), dissected(std::move(d)), timeline(dissected->timeline),
        connections(dissected->connections) {}
  CaptureFacts(const CaptureFacts&) = delete;
  CaptureFacts& operator=(const CaptureFacts&) = delete;
};

/// Builds the facts of `timeline` (hand-made in tests, dissected otherwise).
std::shared_ptr<const CaptureFacts> make_capture_facts(std::string file, dissect::Timeline timeline);

/// The same facts under another file name: one capture that a case folder
/// holds under two names (`conform check`'s client.pcap and server.pcap) is
/// dissected once.
std::shared_ptr<const CaptureFacts> renamed(const CaptureFacts& facts, std::string file);

/// The facts of the capture at `capture_path` decrypted with the NSS key log
/// at `keys_path` (may be missing: then only Initial packets decrypt; a
/// pcapng's Decryption Secrets Blocks are used too), from the process-wide
/// cache when the same files were dissected before. Times of a capture with
/// wall-clock timestamps (not conform's, which count from the case's start)
/// count from its first datagram. Thread-safe. Throws
/// InputError naming the file when the capture cannot be read. At most
/// kCachedCaptures captures are kept; the oldest goes first.
std::shared_ptr<const CaptureFacts> cached_capture(const std::string& capture_path, const std::string& keys_path);
inline constexpr std::size_t kCachedCaptures = 16;

/// How many captures this process has dissected through cached_capture
/// (cache misses); tests and benchmarks read it to see the cache work.
std::size_t captures_dissected();

}  // namespace conform::quic_checks

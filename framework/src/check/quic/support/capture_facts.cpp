// Dissecting a capture once per process and keeping its facts.
#include "check/quic/support/capture_facts.hpp"

#include "capture/pcap_reader.hpp"
#include "capture/pcapng_secrets.hpp"
#include "dissect/dissector.hpp"
#include "dissect/key_log.hpp"

#include <algorithm>
#include <atomic>
#include <climits>
#include <deque>
#include <filesystem>
#include <mutex>
#include <tuple>

namespace conform::quic_checks {
namespace {

namespace fs = std::filesystem;

// What identifies the contents of a file without reading it.
struct FileIdentity {
  std::string path;
  std::uintmax_t size = 0;
  fs::file_time_type modified{};
  bool exists = false;

  explicit FileIdentity(const std::string& p) : path(p) {
    std::error_code ec;
    size = fs::file_size(p, ec);
    if (ec) return;
    modified = fs::last_write_time(p, ec);
    exists = !ec;
  }
  bool operator==(const FileIdentity& o) const {
    return std::tie(path, size, modified, exists) == std::tie(o.path, o.size, o.modified, o.exists);
  }
};

struct Entry {
  FileIdentity capture;
  FileIdentity keys;
  std::shared_ptr<const CaptureFacts> facts;
};

std::mutex cache_mutex;
std::deque<Entry> cache;
std::atomic<std::size_t> dissected{0};

// conform's own captures count time from the start of the case, so times
// of several vantage points compare; a capture made elsewhere carries wall
// clock times (ns since 1970), which evidence shows from its first datagram.
void count_from_capture_start(dissect::Timeline& t) {
  constexpr std::int64_t kWallClock = std::int64_t{1} << 50;  // ~13 days in ns
  std::int64_t first = INT64_MAX;
  for (const auto& c : t.connections)
    if (!c.datagrams.empty()) first = std::min(first, c.datagrams.front().time_ns);
  for (const auto& u : t.unattributed) first = std::min(first, u.time_ns);
  if (first == INT64_MAX || first < kWallClock) return;
  for (auto& c : t.connections)
    for (auto& d : c.datagrams) d.time_ns -= first;
  for (auto& u : t.unattributed) u.time_ns -= first;
}

std::shared_ptr<const CaptureFacts> dissect_file(const std::string& capture_path, const std::string& keys_path,
                                                 bool keys_exist) {
  dissect::KeyLog keys;
  for (const auto& block : read_pcapng_secrets(capture_path))
    dissect::merge_key_log(keys, dissect::parse_key_log(block.key_log, capture_path));
  if (keys_exist) dissect::merge_key_log(keys, dissect::read_key_log(keys_path));
  dissect::Dissector dissector(keys);
  for_each_datagram(capture_path, [&](const CapturedDatagram& d) { dissector.add(d); });
  ++dissected;
  dissect::Timeline timeline = dissector.finish();
  count_from_capture_start(timeline);
  return make_capture_facts(fs::path(capture_path).filename().string(), std::move(timeline));
}

}  // namespace

std::shared_ptr<const CaptureFacts> make_capture_facts(std::string file, dissect::Timeline timeline) {
  auto dissected = std::make_shared<DissectedCapture>();
  dissected->timeline = std::move(timeline);
  dissected->connections.reserve(dissected->timeline.connections.size());
  for (const auto& c : dissected->timeline.connections) dissected->connections.push_back(analyze_connection(c));
  return std::make_shared<const CaptureFacts>(std::move(file), std::move(dissected));
}

std::shared_ptr<const CaptureFacts> renamed(const CaptureFacts& facts, std::string file) {
  return std::make_shared<const CaptureFacts>(std::move(file), facts.dissected);
}

std::shared_ptr<const CaptureFacts> cached_capture(const std::string& capture_path, const std::string& keys_path) {
  FileIdentity capture(capture_path), keys(keys_path);
  {
    std::lock_guard lock(cache_mutex);
    for (const auto& e : cache)
      if (e.capture == capture && e.keys == keys) return e.facts;
  }
  // Dissect outside the lock: another thread may do the same capture, and
  // the second result simply replaces nothing.
  auto facts = dissect_file(capture_path, keys_path, keys.exists);
  std::lock_guard lock(cache_mutex);
  if (cache.size() >= kCachedCaptures) cache.pop_front();
  cache.push_back({capture, keys, facts});
  return facts;
}

std::size_t captures_dissected() { return dissected.load(); }

}  // namespace conform::quic_checks

// What a run of the external plugin prepares in its case folder and reads
// back: the file it serves, a free UDP port, the
// moment the server has bound it, and the programs' key logs.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace external {

/// Writes `path` with `bytes` bytes of a fixed pattern.
bool write_body(const std::string& path, std::int64_t bytes);

/// Writes `htdocs`/page.html, a page of `count` images /r1.bin ... each a
/// hard link to `htdocs`/response.bin (distinct URLs, so a browser fetches
/// every one). False when a file cannot be made.
bool write_page(const std::string& htdocs, std::int64_t count);

/// A UDP port on 127.0.0.1 that was free a moment ago (0 if none).
std::uint16_t free_udp_port();

/// Whether some socket is bound to UDP `port` (any address), from the
/// calling thread's network namespace's /proc/thread-self/net/udp: no
/// probe bind that could race the server's own.
bool udp_port_bound(std::uint16_t port);

/// Folders removed (with what is in them) when this goes, however the run
/// ends: the throwaway {profile_dir}s, browser profiles of megabytes each.
/// Declare it before the programs that write there, so they stop first.
struct ThrowawayDirs {
  std::vector<std::string> paths;
  ThrowawayDirs() = default;
  ThrowawayDirs(const ThrowawayDirs&) = delete;
  ThrowawayDirs& operator=(const ThrowawayDirs&) = delete;
  ~ThrowawayDirs() { remove(); }
  void remove();
};

/// The NSS key log lines of `files` in order, each line once; files that do
/// not exist or are not regular files (a FIFO, a device) add nothing.
std::vector<std::string> key_log_lines(const std::vector<std::string>& files);

}  // namespace external

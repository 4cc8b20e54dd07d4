// A connection of a capture made elsewhere, kept by reference instead of
// copied: `conform check` writes, for each capture, one file holding a line
// per QUIC connection (the capture's path, the frames of the connection,
// the time its unit's times count from (the capture's first datagram),
// where the capture was taken and the connection's key log lines);
// whatever shows the connection later (the HTML page, report/run_view.cpp)
// reads its datagrams back from the capture. One file, not a folder per
// connection: on ext4 the ten thousand folders of a 10 000-connection
// capture cost seconds of kernel time, more on each run into the same
// --out (the inodes of the last run's folders were deleted minutes before).
// A connection's folder, `connection-N` beside that file, is made only for
// what is written into it (--write-failing-pcaps).
#pragma once

#include "capture/pcap_reader.hpp"

#include <cstdint>
#include <fstream>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace conform {

struct UnitSource {
  /// Absolute path of the capture, and its size when it was read: a
  /// capture of another size at that path is another capture.
  std::string capture;
  std::uint64_t bytes = 0;
  /// The connection's records, by frame number, ascending.
  std::vector<std::uint64_t> frames;
  std::int64_t origin_ns = 0;
  /// Where the capture was taken (capture/vantage.hpp's spelling).
  std::string vantage;
  /// The connection's lines of the key log (NSS format).
  std::string key_log;
  /// Where read_unit_source read it ("file:line"), for what it says of it.
  std::string from;
};

/// A QUIC unit's folder in a capture's folder `root`: `root/connection-N`.
std::string unit_folder_path(const std::string& root, std::size_t number);

/// The file in a capture's folder that holds its QUIC units' UnitSources:
/// `connections.jsonl`, or for the `job`-th of `jobs` jobs of a sharded
/// check (which share the folder), `connections.<job>-of-<jobs>.jsonl`.
std::string unit_sources_file(std::size_t job = 0, std::size_t jobs = 0);

/// Removes the sources files in `root` that a check writing `keep` there
/// would leave behind: an unsplit check's, or those of jobs of a sharding
/// into another number of jobs, whose lines may be of another capture.
void remove_other_sources_files(const std::string& root, const std::string& keep);

/// Writes a capture's UnitSources to one file, a JSON line each
/// (`{"connection":N,...}`, N the unit's number).
class UnitSourceWriter {
 public:
  /// Throws std::runtime_error when `path` cannot be written.
  explicit UnitSourceWriter(const std::string& path);
  void write(std::size_t number, const UnitSource& source);
  /// Throws std::runtime_error when what was written did not reach the file.
  void close();

 private:
  std::string path_;
  std::ofstream out_;
};

/// The UnitSource of the unit whose folder is `folder` (`root/connection-N`):
/// its line in one of `root`'s `connections*.jsonl`, else the `source.json`
/// inside the folder (conform check before that file); nullopt when neither
/// holds it. Throws InputError naming the file when it is malformed.
std::optional<UnitSource> read_unit_source(const std::string& folder);

/// Calls `on_datagram` with each datagram of `source`'s frames, read from
/// its capture in file order, times counted from its origin. Throws
/// InputError as for_each_datagram does, and naming the capture when it is
/// not the one read (another size, or damaged before the last frame).
void for_each_unit_datagram(const UnitSource& source, const std::function<void(const CapturedDatagram&)>& on_datagram);

}  // namespace conform

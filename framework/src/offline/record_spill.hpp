// Records of judged connections kept on disk, not in memory, until the
// reports take them: `conform check` judges each QUIC connection as it
// ends while it reads a capture, before it can begin the reports (they
// begin with every connection of every capture), and a capture of ten
// thousand connections would hold tens of thousands of records.
#pragma once

#include "capture/vantage.hpp"
#include "run/result.hpp"

#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <tuple>

namespace conform {

class RecordSpill {
 public:
  /// A case's record on one connection: the capture's place among those
  /// read, the connection's index there (dissect::Connection::index), the
  /// case's index among the cases judged.
  struct Key {
    std::size_t capture = 0, connection = 0, case_index = 0;
    auto operator<=>(const Key&) const = default;
  };
  /// What a connection was judged under: the vantage, and whether a
  /// verdict rested on where the capture ended at the time
  /// (quic_checks::QuicCaptures::rested_on_capture_end) with that end.
  struct Judged {
    Vantage vantage = Vantage::path;
    bool rested_on_end = false;
    std::int64_t observed_until_ns = 0;
  };

  /// An unnamed temporary file in $TMPDIR (else /tmp), gone with the
  /// process; records in it as bytes no other program reads. Throws
  /// InputError naming the folder when none can be made, and so do the
  /// calls below when it cannot be written or read.
  RecordSpill();
  RecordSpill(const RecordSpill&) = delete;
  RecordSpill& operator=(const RecordSpill&) = delete;

  /// Keeps `record` under `key` (any thread).
  void put(const Key& key, const RunRecord& record);
  /// Notes what connection `connection` of capture `capture` was judged
  /// under, once all its records are put (any thread).
  void judged(std::size_t capture, std::size_t connection, const Judged& how);
  /// What it was judged under, if it was.
  std::optional<Judged> how(std::size_t capture, std::size_t connection) const;
  /// The record under `key`, read back; nullopt when none was put.
  std::optional<RunRecord> take(const Key& key);
  /// Records kept.
  std::size_t size() const;
  /// Writes what the stream still holds: a full disk is told now, not
  /// when a record is taken.
  void flush();

 private:
  struct Closer {
    void operator()(std::FILE* f) const { std::fclose(f); }
  };
  std::string folder_;
  std::unique_ptr<std::FILE, Closer> file_;
  mutable std::mutex mutex_;
  std::uint64_t end_ = 0;
  bool appending_ = false;  // the stream's position is end_, its buffer maybe unwritten
  std::map<Key, std::pair<std::uint64_t, std::uint64_t>> at_;  // offset, size
  std::map<std::pair<std::size_t, std::size_t>, Judged> judged_;
};

}  // namespace conform

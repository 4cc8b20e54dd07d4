// A capture someone else made, cut into the units `conform check` judges:
// each QUIC connection (told apart by connection IDs, so a migrated client
// stays one connection) and each TCP connection, in a folder of its own
// (`keys.log`, `vantage`, and a reference to the capture or, for TCP, a copy
// of the connection's records). Which side is the client
// comes from the handshake: the sender of the QUIC client Initial (RFC 9000
// §17.2.2), the sender of the TCP SYN (RFC 9293 §3.5).
#pragma once

#include "capture/pcap_reader.hpp"
#include "capture/unit_source.hpp"
#include "capture/vantage.hpp"
#include "offline/check_progress.hpp"
#include "offline/frame_numbers.hpp"
#include "offline/survey_turns.hpp"
#include "offline/vantage_inference.hpp"
#include "dissect/key_log.hpp"
#include "dissect/timeline.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace conform {

/// One connection of a capture, ready for the checks.
struct CaptureUnit {
  /// "handshake.pcap#1": the name of the capture's root folder (its file
  /// name, "handshake.pcap~2" for a second capture of that name) and the
  /// connection's number in it (QUIC connections first, then TCP ones,
  /// each in order of first appearance).
  std::string label;
  /// Its number in the capture (the N of the label), from 1.
  std::size_t number = 0;
  /// "QUIC" or "TCP".
  std::string transport;
  /// Absolute folder holding a TCP unit's vantage files and key log; a
  /// QUIC unit's is made only for what is written into it (its source is a
  /// line of the capture's connections.jsonl).
  std::string folder;
  /// A QUIC unit's reference to its capture: the file whose line it is
  /// (`ROOT/connections.jsonl`); empty for a TCP unit.
  std::string source;
  /// The client's and server's addresses in the original capture.
  std::string client, server;
  /// What told client from server.
  std::string roles_from;
  /// A QUIC connection's client random (hex), when its ClientHello was seen:
  /// its keys.log holds only that connection's lines of the key log.
  std::string client_random;
  /// Its records in the capture (a GSO record once).
  std::size_t records = 0;
  /// A TCP unit's records: `frames[i]` is the capture's frame number of its
  /// client.pcap's frame i + 1, to translate evidence back. A QUIC unit's
  /// are in its line of the capture's connections.jsonl, and in its
  /// connection while it is judged: not kept, so memory does not grow with
  /// the capture.
  std::vector<std::uint64_t> frames;
  /// A QUIC unit's connection: its index in SplitCapture::timeline.
  std::size_t connection = 0;
};

/// A capture and its units.
struct SplitCapture {
  std::string path;
  std::vector<CaptureUnit> units;
  /// Connections in the capture: `units` holds those a shard judges.
  std::size_t units_total = 0;
  /// What the split left out or noticed, one line each (datagrams of no
  /// connection, a damaged end, missing secrets).
  std::vector<std::string> notes;
  /// What a user must see even with -q, one line each: a capture cut
  /// inside its last record (judged up to it).
  std::vector<std::string> warnings;
  /// A corrupt record (ReadCapture::corrupt): the connections before it
  /// are judged and reported, then `conform check` exits 2 with this.
  std::optional<std::string> corrupt;
  /// Where the unit's keys came from, for a verdict that could not see
  /// without them ("key logs: a.keys" or "no key log ...").
  std::string key_sources;
  /// Where the capture was taken: given with --vantage, else inferred
  /// (offline/vantage_inference.hpp), and why.
  Vantage vantage = Vantage::path;
  std::string vantage_from;
  /// Inferred, and the capture could not tell (vantage is then `path`).
  bool vantage_ambiguous = false;
  /// The keys its QUIC connections decrypt with, for judging (which reads
  /// the capture again, one connection at a time: judge_offline), and the
  /// time of its first datagram, from which a unit's times count.
  std::shared_ptr<const dissect::KeyLog> keys;
  std::int64_t origin_ns = 0;
  /// The time of its last datagram: as far as it shows anything (a
  /// capture file does not record when recording stopped).
  std::int64_t end_ns = 0;
  /// The names a unit's checks know its capture by (client.pcap,
  /// server.pcap, one per other vantage the checks name): evidence and
  /// summaries that name one are pointed back at the capture.
  std::vector<std::string> unit_files;
};

/// The records of `c` by frame number, once each (a GSO record's segments
/// share its frame).
std::vector<std::uint64_t> records_of(const dissect::Connection& c);

/// A QUIC unit's connection `c` (dissected from its capture) as its checks
/// see it: times since the capture's first datagram (at `origin_ns`), frame
/// numbers and addresses the capture's, so that summaries name what
/// Wireshark shows.
dissect::Connection unit_connection(dissect::Connection c, std::int64_t origin_ns);

/// The size of the file at `path`, 0 when it cannot be told.
std::uint64_t file_bytes(const std::string& path);

/// What the split keeps of a QUIC connection once the dissector has let it
/// go: enough for its unit, not its packets.
struct ConnectionSketch {
  std::size_t index = 0;
  NetEndpoint client{}, server{};
  std::optional<dissect::ClientRandom> client_random;
  bool secrets_found = false;
  /// Its records, by frame number, once each (a GSO record's segments share one).
  FrameNumbers frames;
};

/// Dissects `path` one datagram at a time, keeping none: calls
/// `on_datagram` with each UDP datagram and `on_ended` with each QUIC
/// connection as it ends (dissect::Dissector::take_ended), the rest at the
/// capture's end (after `on_read`, when given), and `progress` (when
/// given) with how far it is; with `read_ahead`, the capture is read on a
/// thread of its own (capture/read_ahead.hpp). Returns the datagrams of no
/// connection (counted, the first kept) and the summary. Throws as
/// for_each_datagram does.
struct StreamedCapture {
  CaptureSummary summary;
  /// Datagrams of no connection, and the first of them.
  std::uint64_t unattributed = 0;
  std::optional<dissect::UnattributedDatagram> first_unattributed;
};
StreamedCapture stream_connections(const std::string& path, const dissect::KeyLog& keys,
                                   const std::function<void(const CapturedDatagram&)>& on_datagram,
                                   const std::function<void(dissect::Connection&&)>& on_ended,
                                   CheckProgress* progress = nullptr,
                                   const std::function<void()>& on_read = nullptr, bool read_ahead = false);

/// A capture read through, one datagram at a time, and its QUIC
/// connections dissected, each let go once it has ended, before anything
/// is written: `conform check` reads every input first, so a bad
/// one stops it with the earlier results in `--out` untouched.
struct ReadCapture {
  CaptureSummary summary;
  /// UDP datagrams in the capture, the time of the first (units count
  /// their times from it), and the frames of those the snap length cut.
  std::uint64_t datagrams = 0;
  std::int64_t origin_ns = 0;
  std::int64_t end_ns = 0;  // the latest datagram's time
  std::vector<std::uint64_t> cut_frames;
  /// Its QUIC connections in order of first appearance, and its datagrams
  /// of none (the first with why).
  std::vector<ConnectionSketch> connections;
  std::uint64_t unattributed = 0;
  std::optional<dissect::UnattributedDatagram> first_unattributed;
  /// The signs of where it was taken, of its QUIC connections
  /// (split_capture adds its TCP segments' and infers).
  VantageSurvey survey;
  std::shared_ptr<const dissect::KeyLog> keys;
  /// A file cut inside its last record: judged up to it (see damage_warning).
  std::string warning;
  /// A corrupt record: what follows it cannot be trusted, so only the
  /// connections that ended before it are kept (`connections`), and this
  /// says so, naming its frame and byte, with how many were left out.
  std::optional<std::string> corrupt;
};

/// What the reading has seen of a capture when one of its QUIC connections
/// ends.
struct ReadSoFar {
  /// The time of the capture's first datagram, and of its latest so far.
  std::int64_t origin_ns = 0, latest_ns = 0;
  /// The connection's turn to add its signs of where the capture was taken
  /// (survey_turns.hpp): taken exactly once, on any thread.
  SurveyTurn turn;
};
/// Takes each QUIC connection as it ends, after the reading has kept its
/// sketch (conform check judges it then), and takes its turn.
using EndedConnection = std::function<void(dissect::Connection&&, const ReadSoFar&)>;

/// Reads and dissects `path`, handing each QUIC connection to `ended`
/// (when given) as it ends, reading on a thread of its own with
/// `read_ahead`. Throws InputError naming the file when it
/// cannot be read, has a corrupt record (frame and byte offset), or when the
/// snap length cut a datagram of a QUIC connection: its packets cannot be
/// decrypted (the AEAD tag covers the whole packet, RFC 9001 §5.3), so a
/// check would judge a connection it cannot see whole and could pass it.
ReadCapture read_for_check(const std::string& path, std::shared_ptr<const dissect::KeyLog> keys,
                           CheckProgress* progress = nullptr, const EndedConnection& ended = nullptr,
                           bool read_ahead = false);

/// The key log text a capture's connections take their lines from: the
/// secrets its pcapng Decryption Secrets Blocks hold, then each --keylog
/// file's text, seen, not copied (a key log of ten thousand connections
/// given with as many captures is held once).
struct CaptureKeyText {
  std::string embedded;
  std::vector<std::string_view> files;
  bool empty() const;
  /// All of it, as one NSS key log.
  std::string whole() const;
};

/// Which connections of a capture (by number, from 1) a job judges.
using UnitFilter = std::function<bool(std::size_t number)>;

/// Cuts `path` (read by read_for_check) into units, each with a folder
/// `root/connection-N/` (`root` exists), labelled after `root`'s name.
/// A QUIC unit refers to the capture by a line of `root/sources_file`
/// (capture/unit_source.hpp; its folder is not made), and its checks get
/// its connection from `capture`'s dissection (unit_connection()); a TCP
/// unit's folder holds its records as
/// `client.pcap`, `server.pcap` and `<v>.pcap` for each name in `vantages`
/// (one vantage point: all the same file). Every unit has `keys.log` (its
/// connection's lines of `key_log_text`) and the `vantage` file naming
/// `given`, or else where the capture's signs say it was taken. Throws
/// InputError naming the file when it holds no connection; a file that
/// merely ends inside its last record is judged up to it, with a warning.
/// Only the connections `keep` takes become units (and folders); the others
/// are counted, and their notes kept, so every job says the same of a
/// capture.
SplitCapture split_capture(const std::string& path, const ReadCapture& capture, const CaptureKeyText& key_log_text,
                           const std::string& root, const std::vector<std::string>& vantages,
                           std::optional<Vantage> given, const UnitFilter& keep = [](std::size_t) { return true; },
                           const std::string& sources_file = unit_sources_file());

}  // namespace conform

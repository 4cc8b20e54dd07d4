// Cutting a capture into per-connection folders for `conform check`.
#include "offline/capture_units.hpp"

#include "offline/vantage_inference.hpp"

#include "capture/pcap_reader.hpp"
#include "capture/read_ahead.hpp"
#include "capture/record_split.hpp"
#include "capture/tcp_segment_reader.hpp"
#include "capture/unit_source.hpp"
#include "common/input_error.hpp"
#include "dissect/bytes.hpp"
#include "dissect/dissector.hpp"
#include "dissect/tcp/flow.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <unordered_map>
#include <unordered_set>

namespace conform {
namespace fs = std::filesystem;

namespace {

// The lines of an NSS key log (`LABEL CLIENT_RANDOM SECRET`) by client
// random (lower-case hex), read once per capture: a unit's key log holds its
// own connection's secrets, not the whole capture's, so --out (and the time
// to write it) grows with the capture, not with its square.
// Views into the text: a key log of ten thousand connections is read once,
// not copied line by line.
using KeyLines = std::unordered_map<std::string, std::vector<std::string_view>>;
void add_key_lines(std::string_view key_log_text, KeyLines& by_random) {
  while (!key_log_text.empty()) {
    const auto end = key_log_text.find('\n');
    const std::string_view line = key_log_text.substr(0, end);
    key_log_text.remove_prefix(end == std::string_view::npos ? key_log_text.size() : end + 1);
    // LABEL RANDOM ...: fields apart by spaces or tabs.
    const auto label_start = line.find_first_not_of(" \t");
    if (label_start == std::string_view::npos || line[label_start] == '#') continue;
    const auto label_end = line.find_first_of(" \t", label_start);
    if (label_end == std::string_view::npos) continue;
    const auto random_start = line.find_first_not_of(" \t", label_end);
    if (random_start == std::string_view::npos) continue;
    const auto random_end = line.find_first_of(" \t\r", random_start);
    std::string random(line.substr(random_start, random_end - random_start));
    for (char& c : random) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    // Key logs given twice, or holding the same lines, give each line once.
    auto& lines = by_random[random];
    if (std::find(lines.begin(), lines.end(), line) == lines.end()) lines.push_back(line);
  }
}

KeyLines key_lines_by_random(const CaptureKeyText& text) {
  KeyLines by_random;
  add_key_lines(text.embedded, by_random);
  for (const auto file : text.files) add_key_lines(file, by_random);
  return by_random;
}

std::string joined_lines(const std::vector<std::string_view>& lines) {
  std::string out;
  for (const auto& line : lines) (out += line) += '\n';
  return out;
}

// A TCP unit's capture under every vantage name a check may open, and the
// unit's key log.
void add_vantages(const fs::path& folder, const std::vector<std::string>& vantages,
                  const std::string& key_log_text) {
  const fs::path capture = folder / "client.pcap";
  std::vector<std::string> names{"server"};
  names.insert(names.end(), vantages.begin(), vantages.end());
  for (const auto& v : names) {
    const fs::path to = folder / (v + ".pcap");
    std::error_code ec;
    if (fs::exists(to, ec)) continue;
    fs::create_hard_link(capture, to, ec);
    if (ec) fs::copy_file(capture, to, ec);
    if (ec) throw std::runtime_error(to.string() + ": cannot write: " + ec.message());
  }
  std::ofstream(folder / "keys.log", std::ios::binary) << key_log_text;
}

// A fresh folder: a sharded check shares its capture's root with other
// jobs, so each clears only the folders of the connections it judges.
fs::path unit_folder(const fs::path& root, std::size_t number) {
  const fs::path folder = unit_folder_path(root.string(), number);
  fs::remove_all(folder);
  fs::create_directories(folder);
  return folder;
}

// QUIC: each connection, by reference to the capture (capture/unit_source.hpp).
// `keyed`: a key log was given (or the capture holds one).
void quic_units(const ReadCapture& capture, const fs::path& root, bool keyed,
                const UnitFilter& keep, const std::string& sources_file, SplitCapture& out) {
  const std::string name = root.filename().string();
  for (const auto& conn : capture.connections) {
    CaptureUnit unit;
    unit.number = ++out.units_total;
    unit.label = fmt::format("{}#{}", name, unit.number);
    if (conn.client_random && !conn.secrets_found)
      out.notes.push_back(fmt::format("{}: {}: only its Initial packets decrypt", unit.label,
                                      keyed ? "the key log has no secrets for this connection"
                                            : "no key log given (--keylog, or a Decryption Secrets Block in the "
                                              "capture)"));
    if (!keep(unit.number)) continue;
    unit.transport = "QUIC";
    unit.connection = conn.index;
    unit.folder = unit_folder_path(root.string(), unit.number);
    unit.source = (root / sources_file).string();
    // What an earlier check wrote into it (a job of a sharded check
    // shares the capture's folder, which is not cleared for it).
    std::error_code ec;
    fs::remove_all(unit.folder, ec);
    unit.client = conn.client.str();
    unit.server = conn.server.str();
    if (conn.client_random) unit.client_random = dissect::to_hex(*conn.client_random);
    unit.records = conn.frames.size();
    unit.roles_from = conn.frames.empty() ? "the client's Initial"
                                          : fmt::format("the client's Initial (frame {})", conn.frames.front());
    out.units.push_back(std::move(unit));
  }
  if (const auto& first = capture.first_unattributed)
    out.notes.push_back(fmt::format("{}: {} UDP datagram{} of no QUIC connection (first: frame {}, {})", name,
                                    capture.unattributed, capture.unattributed == 1 ? "" : "s", first->frame,
                                    first->reason));
}

}  // namespace

std::vector<std::uint64_t> records_of(const dissect::Connection& c) {
  std::vector<std::uint64_t> frames;
  for (const auto& d : c.datagrams)
    if (frames.empty() || frames.back() != d.frame) frames.push_back(d.frame);
  return frames;
}

std::uint64_t file_bytes(const std::string& path) {
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  return ec ? 0 : size;
}

namespace {

struct TcpConnection {
  tcp::Endpoint client, server;
  bool syn_seen = false, ended = false;
  std::uint32_t isn = 0;
  std::uint64_t first_frame = 0;
  std::vector<std::uint64_t> frames;
};

// TCP connections: by 4-tuple, a new one when a SYN reuses the tuple of a
// connection that ended or started with another initial sequence number.
std::vector<TcpConnection> tcp_connections(const std::vector<TcpSegment>& segments) {
  std::vector<TcpConnection> out;
  std::map<std::pair<std::uint64_t, std::uint64_t>, std::size_t> by_tuple;
  for (const auto& s : segments) {
    const std::uint64_t a = std::uint64_t{s.src_address} << 16 | s.src_port;
    const std::uint64_t b = std::uint64_t{s.dst_address} << 16 | s.dst_port;
    const std::pair<std::uint64_t, std::uint64_t> key = std::minmax(a, b);
    const bool syn = s.has(tcp_flag::syn) && !s.has(tcp_flag::ack);
    auto it = by_tuple.find(key);
    if (it != by_tuple.end() && syn) {
      const TcpConnection& c = out[it->second];
      if (c.ended || (c.syn_seen && c.isn != s.seq)) it = by_tuple.end();
    }
    if (it == by_tuple.end()) {
      it = by_tuple.insert_or_assign(key, out.size()).first;
      out.push_back({{s.src_address, s.src_port}, {s.dst_address, s.dst_port}, false, false, 0, s.frame, {}});
    }
    TcpConnection& c = out[it->second];
    if (syn && !c.syn_seen) {
      c.client = {s.src_address, s.src_port};
      c.server = {s.dst_address, s.dst_port};
      c.syn_seen = true;
      c.isn = s.seq;
      c.first_frame = s.frame;
    }
    if (s.has(tcp_flag::fin) || s.has(tcp_flag::rst)) c.ended = true;
    c.frames.push_back(s.frame);
  }
  return out;
}

void tcp_units(const std::string& path, const fs::path& root, const UnitFilter& keep, SplitCapture& out,
               VantageSurvey& survey) {
  std::vector<TcpSegment> segments;
  try {
    segments = read_tcp_segments(path, true);
  } catch (const InputError& e) {
    out.notes.push_back("TCP not read: " + e.diagnostics().front().message);
    return;
  }
  for (const auto& s : segments) survey.add_tcp_segment(s.src_address, s.dst_address);
  const auto connections = tcp_connections(segments);
  if (connections.empty()) return;
  const std::string name = root.filename().string();
  std::unordered_map<std::uint64_t, int> output_of;
  std::vector<std::string> outputs;
  for (const auto& c : connections) {
    CaptureUnit unit;
    unit.number = ++out.units_total;
    if (!keep(unit.number)) continue;
    unit.label = fmt::format("{}#{}", name, unit.number);
    unit.transport = "TCP";
    unit.folder = unit_folder(root, unit.number).string();
    unit.client = tcp::to_string(c.client);
    unit.server = tcp::to_string(c.server);
    unit.roles_from = c.syn_seen ? fmt::format("the SYN (frame {})", c.first_frame)
                                 : "the first segment: no SYN in the capture";
    unit.frames = c.frames;
    unit.records = c.frames.size();
    for (auto f : c.frames) output_of[f] = static_cast<int>(outputs.size());
    outputs.push_back((fs::path(unit.folder) / "client.pcap").string());
    out.units.push_back(std::move(unit));
  }
  split_records(path, [&](std::uint64_t frame) {
    auto it = output_of.find(frame);
    return it == output_of.end() ? -1 : it->second;
  }, outputs);
}

}  // namespace

dissect::Connection unit_connection(dissect::Connection c, std::int64_t origin_ns) {
  c.index = 0;
  for (auto& d : c.datagrams) d.time_ns -= origin_ns;
  return c;
}

StreamedCapture stream_connections(const std::string& path, const dissect::KeyLog& keys,
                                   const std::function<void(const CapturedDatagram&)>& on_datagram,
                                   const std::function<void(dissect::Connection&&)>& on_ended,
                                   CheckProgress* progress, const std::function<void()>& on_read,
                                   bool read_ahead) {
  StreamedCapture out;
  dissect::Dissector dissector(keys, dissect::Dissector::Ends::when_silent);
  std::function<void(std::uint64_t)> on_offset;
  if (progress) on_offset = [&](std::uint64_t offset) { progress->at(offset, dissector.open()); };
  out.summary = (read_ahead ? for_each_datagram_read_ahead : for_each_datagram)(
      path,
      [&](const CapturedDatagram& d) {
        on_datagram(d);
        dissector.add(d);
        for (auto& c : dissector.take_ended()) on_ended(std::move(c));
      },
      on_offset);
  if (on_read) on_read();
  auto rest = dissector.finish();
  for (auto& c : rest.connections) on_ended(std::move(c));
  out.unattributed = dissector.unattributed();
  if (!rest.unattributed.empty()) out.first_unattributed = rest.unattributed.front();
  return out;
}

ReadCapture read_for_check(const std::string& path, std::shared_ptr<const dissect::KeyLog> keys,
                           CheckProgress* progress, const EndedConnection& ended, bool read_ahead) {
  ReadCapture read;
  read.keys = std::move(keys);
  std::unordered_set<std::uint64_t> cut;
  auto on_datagram = [&](const CapturedDatagram& d) {
    if (read.datagrams++ == 0) read.origin_ns = read.end_ns = d.time_ns;
    read.end_ns = std::max(read.end_ns, d.time_ns);
    if (d.truncated) {
      read.cut_frames.push_back(d.frame);
      cut.insert(d.frame);
    }
  };
  std::optional<std::pair<std::size_t, std::string>> cut_connection;  // the first connection the snap length cut
  SurveyTurns turns;
  auto on_ended = [&](dissect::Connection&& c) {
    const SurveyTurn turn = turns.next();
    std::size_t count = 0;
    std::uint64_t first = 0;
    for (const auto& d : c.datagrams)
      if (cut.count(d.frame) && count++ == 0) first = d.frame;
    if (count && (!cut_connection || c.index < cut_connection->first))
      cut_connection.emplace(c.index, fmt::format("frame {}: the snap length cut {} datagram{} of QUIC connection {} "
                                   "short, and a packet cut short cannot be decrypted (its AEAD tag "
                                   "covers all of it), so no check could see that connection whole; "
                                   "capture with a snap length of at least the path MTU (tcpdump -s 0)",
                                   first, count, count == 1 ? "" : "s", c.index + 1));
    read.connections.push_back(
        {c.index, c.client, c.server, c.client_random, c.secrets_found, FrameNumbers(records_of(c))});
    if (ended) ended(std::move(c), {read.origin_ns, read.end_ns, turn});
    else turn.take(c);
  };
  if (progress)
    progress->start((ended ? "judging " : "splitting ") + fs::path(path).filename().string(), file_bytes(path));
  // Connections still open when the reading stopped come last, from the
  // dissector's finish(): after a corrupt record those are incomplete.
  std::optional<std::size_t> ended_while_reading;
  auto streamed = stream_connections(path, *read.keys, on_datagram, on_ended, progress,
                                     [&] { ended_while_reading = read.connections.size(); }, read_ahead);
  if (progress) progress->finish_capture();
  read.survey = turns.finish();
  read.summary = streamed.summary;
  if (read.summary.damage && !read.summary.cut_short) {
    const std::size_t open = read.connections.size() - ended_while_reading.value_or(read.connections.size());
    read.connections.resize(read.connections.size() - open);
    read.corrupt = fmt::format("{} (a corrupt record: {}{})", *read.summary.damage,
                               read.connections.empty()
                                   ? "nothing was judged"
                                   : fmt::format("the {} connection{} that ended before it {} judged",
                                                 read.connections.size(), read.connections.size() == 1 ? "" : "s",
                                                 read.connections.size() == 1 ? "is" : "are"),
                               open && !read.connections.empty()
                                   ? fmt::format(", the {} still open there {} not", open, open == 1 ? "is" : "are")
                                   : "");
    // Nothing to judge: stop before anything is written, as a corrupt
    // record always did.
    if (read.connections.empty()) throw InputError({path}, *read.corrupt);
  } else {
    read.warning = damage_warning(path, read.summary, "judged");
  }
  if (cut_connection) throw InputError({path}, cut_connection->second);
  std::sort(read.connections.begin(), read.connections.end(),
            [](const ConnectionSketch& a, const ConnectionSketch& b) { return a.index < b.index; });
  read.unattributed = streamed.unattributed;
  read.first_unattributed = streamed.first_unattributed;
  return read;
}

bool CaptureKeyText::empty() const {
  return embedded.empty() && std::all_of(files.begin(), files.end(), [](std::string_view f) { return f.empty(); });
}

std::string CaptureKeyText::whole() const {
  std::string out = embedded;
  for (const auto file : files) {
    out += file;
    if (!out.empty() && out.back() != '\n') out += '\n';
  }
  return out;
}

SplitCapture split_capture(const std::string& path, const ReadCapture& capture, const CaptureKeyText& key_log_text,
                           const std::string& root, const std::vector<std::string>& vantages,
                           std::optional<Vantage> given, const UnitFilter& keep, const std::string& sources_file) {
  SplitCapture out;
  out.path = path;
  out.corrupt = capture.corrupt;
  out.keys = capture.keys;
  out.unit_files = {"client.pcap", "server.pcap"};
  for (const auto& v : vantages) out.unit_files.push_back(v + ".pcap");
  out.origin_ns = capture.origin_ns;
  out.end_ns = capture.end_ns;
  if (!capture.warning.empty()) out.warnings.push_back(capture.warning);
  quic_units(capture, root, !key_log_text.empty(), keep, sources_file, out);
  // Every record UDP (or a fragment): no TCP connection, and no third
  // reading of the capture to look for one.
  VantageSurvey survey = capture.survey;
  if (capture.summary.not_udp) tcp_units(path, root, keep, out, survey);
  if (out.units_total == 0 && capture.corrupt) throw InputError({path}, *capture.corrupt);
  if (out.units_total == 0) {
    const auto cut = capture.cut_frames.size();
    // A client Initial is at least 1200 bytes: a short snap length hides it.
    std::string why_none =
        cut ? fmt::format("; the snap length cut {} of them short, and an Initial cut short cannot be read: capture "
                          "with a snap length of at least the path MTU (tcpdump -s 0)",
                          cut)
            : "";
    // A file cut before its first connection: say where it ends.
    if (capture.summary.damage) why_none += "; and the file ends early: " + *capture.summary.damage;
    throw InputError({path}, fmt::format("no connection to judge: no QUIC client Initial among {} UDP "
                                         "datagrams and no TCP segment over IPv4{}",
                                         capture.datagrams, why_none));
  }
  const auto inferred = survey.infer();
  if (given) {
    out.vantage = *given;
    out.vantage_from = "given with --vantage";
    // Given an endpoint's view that the capture's own signs deny: the
    // checks will judge what that endpoint knew from a capture that may not
    // show it. Said, not refused: the user may know better.
    auto denies = [&](dissect::Side side) { return at_endpoint(*given, side) && !at_endpoint(inferred.vantage, side); };
    const bool denied = !inferred.ambiguous && (denies(dissect::Side::client) || denies(dissect::Side::server));
    if (denied)
      out.warnings.push_back(fmt::format("{}: --vantage says {}, but its signs say {}: {}", path, to_string(*given),
                                         to_string(inferred.vantage), inferred.reason));
  } else {
    out.vantage = inferred.vantage;
    out.vantage_from = "inferred: " + inferred.reason;
    out.vantage_ambiguous = inferred.ambiguous;
  }
  const auto key_lines = key_lines_by_random(key_log_text);
  std::optional<std::string> whole_key_log;  // made once, for connections whose ClientHello was not seen
  const std::string absolute = fs::absolute(path).string();
  const std::uint64_t bytes = file_bytes(path);
  std::optional<UnitSourceWriter> sources;
  for (const auto& unit : out.units) {
    // A connection whose ClientHello was not seen gets the whole key log.
    const auto it = unit.client_random.empty() ? key_lines.end() : key_lines.find(unit.client_random);
    if (unit.client_random.empty() && !whole_key_log) whole_key_log = key_log_text.whole();
    const std::string keys = unit.client_random.empty() ? *whole_key_log
                             : it == key_lines.end()   ? std::string()
                                                       : joined_lines(it->second);
    if (unit.transport == "QUIC") {
      const auto sketch = std::lower_bound(capture.connections.begin(), capture.connections.end(), unit.connection,
                                           [](const ConnectionSketch& c, std::size_t i) { return c.index < i; });
      if (!sources) {
        remove_other_sources_files(root, sources_file);
        sources.emplace((fs::path(root) / sources_file).string());
      }
      sources->write(unit.number, {absolute, bytes, sketch->frames.all(), capture.origin_ns,
                                   std::string(to_string(out.vantage)), keys, {}});
      continue;
    }
    add_vantages(unit.folder, vantages, keys);
    std::ofstream(fs::path(unit.folder) / kVantageFile) << to_string(out.vantage) << '\n';
  }
  if (sources) sources->close();
  return out;
}

}  // namespace conform

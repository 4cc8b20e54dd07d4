// A run's artifact folder turned into the data the HTML page draws.
#include "report/run_view.hpp"

#include "capture/tcp_segment_reader.hpp"
#include "capture/unit_source.hpp"
#include "common/input_error.hpp"
#include "dissect/frame_format.hpp"
#include "dissect/tcp/flow_analysis.hpp"
#include "report/endpoint_qlog.hpp"
#include "report/plot_points.hpp"
#include "report/quic_series.hpp"
#include "report/tcp_series.hpp"
#include "report/vantage_pair.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>

namespace conform::report {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// Frames a reader wants to see with their values in the one-line summary.
bool worth_detail(const dissect::Frame& f) {
  return std::holds_alternative<dissect::MaxStreamsFrame>(f) || std::holds_alternative<dissect::StreamsBlockedFrame>(f) ||
         std::holds_alternative<dissect::MaxDataFrame>(f) || std::holds_alternative<dissect::DataBlockedFrame>(f) ||
         std::holds_alternative<dissect::ConnectionCloseFrame>(f) || std::holds_alternative<dissect::MalformedFrame>(f);
}

// A packet as the page's script spells it out (report.js: heading, packetSummary,
// packetDetail): [type, packet number or null, bytes, [frame...], and when it
// could not be decrypted [why, detail]]; strings by index into `strings`.
json packet_json(const dissect::Packet& p, StringTable& strings) {
  json frames = json::array();
  for (const auto& f : p.frames) {
    // The summary shows a frame's name, or all of it for the frames whose
    // values a reader wants at a glance; every description starts with the name.
    const std::string text = dissect::describe_frame(f);
    const std::string_view name = dissect::frame_name(f);
    const bool named = !worth_detail(f) && text.compare(0, name.size(), name) == 0;
    frames.push_back(strings.index(text, named ? name.size() : 0));
  }
  json packet = {strings.index(std::string(dissect::to_string(p.type))),
                 p.packet_number ? json(*p.packet_number) : json(nullptr), p.length, std::move(frames)};
  if (p.undecryptable)
    packet.push_back({strings.index(std::string(dissect::to_string(*p.undecryptable))), strings.index(p.extras().detail)});
  return packet;
}

double ms(std::int64_t t, std::int64_t t0) { return static_cast<double>(t - t0) / 1e6; }

// Microseconds from t0: what the page prints of a time.
std::int64_t us(std::int64_t t, std::int64_t t0) { return std::llround(static_cast<double>(t - t0) / 1e3); }

// A step series, thinned as the recovery plot's are: a 6000-stream case
// has more steps than its plot has pixels.
json steps(const std::vector<Step>& s, std::int64_t t0) {
  if (s.size() <= kMaxRecoveryPoints) {
    json out = json::array();
    for (const auto& p : s) out.push_back({ms(p.time_ns, t0), p.value});
    return out;
  }
  std::vector<std::pair<double, double>> points;
  for (const auto& p : s) points.emplace_back(ms(p.time_ns, t0), static_cast<double>(p.value));
  return thinned_points(points, kMaxRecoveryPoints);
}

// The diagram's rows by column, each number as a difference from the one
// before it where that keeps it short: "us" the time of sending after the
// row before's, "arrival_us" the time of arrival after the sending (null:
// never arrived), the frame numbers after the last one of that capture
// (null: not in it). The first kMaxDiagramRows only.
json rows_json(const std::vector<DiagramRow>& rows, std::int64_t t0, StringTable& strings) {
  json sent = json::array(), dir = json::array(), bytes = json::array(), fate = json::array(),
       client = json::array(), server = json::array(), arrival = json::array(), packets = json::array();
  std::int64_t last_us = 0;
  std::uint64_t last_client = 0, last_server = 0;
  auto frame = [](std::uint64_t number, std::uint64_t& last) {
    if (number == 0) return json(nullptr);
    const auto step = static_cast<std::int64_t>(number - last);
    last = number;
    return json(step);
  };
  for (std::size_t i = 0; i < rows.size() && i < kMaxDiagramRows; ++i) {
    const auto& r = rows[i];
    const std::int64_t at = us(r.time_ns, t0);
    sent.push_back(at - last_us);
    last_us = at;
    dir.push_back(r.direction == dissect::Direction::client_to_server ? 0 : 1);
    bytes.push_back(r.datagram->size);
    fate.push_back(static_cast<int>(r.fate));
    client.push_back(frame(r.client_frame, last_client));
    server.push_back(frame(r.server_frame, last_server));
    arrival.push_back(r.arrival_ns < 0 ? json(nullptr) : json(us(r.arrival_ns, t0) - at));
    json p = json::array();
    for (const auto& packet : r.datagram->packets) p.push_back(packet_json(packet, strings));
    packets.push_back(std::move(p));
  }
  return {{"us", sent},         {"dir", dir},           {"bytes", bytes},          {"fate", fate},
          {"client_frame", client}, {"server_frame", server}, {"arrival_us", arrival}, {"packets", packets}};
}

json quic_view(const std::string& dir, const VantageCapture* client, const VantageCapture* server, json notes,
               StringTable& strings) {
  std::int64_t t0 = INT64_MAX, end = INT64_MIN;
  for (const VantageCapture* v : {client, server})
    if (v && v->connection() && !v->connection()->datagrams.empty()) {
      t0 = std::min(t0, v->connection()->datagrams.front().time_ns);
      end = std::max(end, v->connection()->datagrams.back().time_ns);
    }
  for (const VantageCapture* v : {client, server})
    if (v && v->timeline.connections.size() > 1)
      notes.push_back(fmt::format("{} holds {} connections: only the first is drawn", v->file,
                                  v->timeline.connections.size()));
  const auto rows = diagram_rows(client, server);
  if (rows.size() > kMaxDiagramRows)
    notes.push_back(fmt::format("the diagram shows the first {} of {} datagrams; the plots use all of them",
                                kMaxDiagramRows, rows.size()));
  json view = {{"kind", "quic"},
               {"dir", dir},
               {"captures", {{"client", client ? json(client->file) : json(nullptr)},
                             {"server", server ? json(server->file) : json(nullptr)}}},
               {"t0_ns", t0},
               {"end_ms", ms(end, t0)},
               {"rows", rows_json(rows, t0, strings)},
               {"rows_total", rows.size()}};
  // The endpoints' own qlog (the in-house QUIC writes one per side).
  std::map<std::string, EndpointQlog> endpoint;
  json recovery = json::object();
  for (const char* side : {"client", "server"})
    if (auto q = read_endpoint_qlog((fs::path(dir) / (std::string(side) + ".sqlog")).string(), t0)) {
      if (!q->recovery.empty()) recovery[side] = q->recovery;
      endpoint[side] = std::move(*q);
    }
  view["recovery"] = recovery.empty() ? json(nullptr) : recovery;
  view["streams"] = nullptr;
  if (auto s = stream_series(client, server)) {
    const std::string initiator = s->client_initiated ? "client" : "server";
    view["streams"] = {{"initiator", initiator},
                       {"direction", s->bidi ? "bidi" : "uni"},
                       {"opened", steps(s->opened, t0)},
                       {"delivered", client && server ? steps(s->delivered, t0) : json(nullptr)},
                       {"limit", steps(s->limit, t0)},
                       {"wanted", nullptr}};
    const auto q = endpoint.find(initiator);
    const char* type = s->bidi ? "bidirectional" : "unidirectional";
    if (q != endpoint.end() && q->second.wanted.contains(type)) view["streams"]["wanted"] = q->second.wanted[type];
  }
  const auto h = handshake_series(client, server);
  json probes = json::array();
  for (const auto& p : h.probes)
    probes.push_back({{"ms", ms(p.time_ns, t0)}, {"side", p.from_client ? "client" : "server"},
                      {"stage", p.stage}, {"frame", p.frame}, {"what", p.what}});
  view["handshake"] = {{"client", steps(h.client, t0)}, {"server", steps(h.server, t0)}, {"probes", probes}};
  view["notes"] = std::move(notes);
  return view;
}

json tcp_view(const std::string& dir, const std::string& file) {
  json notes = json::array();
  std::vector<tcp::Flow> flows;
  try {
    flows = tcp::analyze_tcp(read_tcp_segments((fs::path(dir) / file).string()));
  } catch (const InputError& e) {
    return {{"kind", "none"}, {"notes", {e.diagnostics().front().str()}}};
  }
  if (flows.empty()) return {{"kind", "none"}, {"notes", {file + " holds no TCP segment over IPv4"}}};
  // The flow that carried the most data is the one the case is about.
  const auto& flow = *std::max_element(flows.begin(), flows.end(), [](const auto& a, const auto& b) {
    return a.dir[0].data_bytes + a.dir[1].data_bytes < b.dir[0].data_bytes + b.dir[1].data_bytes;
  });
  if (flows.size() > 1) notes.push_back(fmt::format("{} holds {} TCP connections: {} is plotted", file, flows.size(), flow.name()));
  json view = tcp_series(flow);
  view["kind"] = "tcp";
  view["dir"] = dir;
  view["capture"] = file;
  view["notes"] = std::move(notes);
  return view;
}

}  // namespace

json run_view(const std::string& dir, StringTable& strings) {
  const fs::path folder(dir);
  std::error_code ec;
  json notes = json::array();
  dissect::KeyLog keys;
  if (fs::exists(folder / "keys.log", ec)) {
    try {
      keys = dissect::read_key_log((folder / "keys.log").string());
    } catch (const InputError& e) {
      notes.push_back(e.diagnostics().front().str());
    }
  }
  std::map<std::string, std::optional<VantageCapture>> quic;
  for (const char* file : {"client.pcap", "server.pcap"}) {
    if (!fs::exists(folder / file, ec)) continue;
    try {
      quic[file] = load_vantage((folder / file).string(), file, keys);
    } catch (const InputError& e) {
      notes.push_back(e.diagnostics().front().str());
    }
  }
  // `conform check`'s QUIC unit: no copy, a reference to the capture (one
  // vantage point, known as both files, as a copy would have been), with
  // the connection's key log lines.
  try {
    if (auto source = quic.empty() ? read_unit_source(dir) : std::nullopt) {
      if (keys.connections.empty() && !source->key_log.empty())
        keys = dissect::parse_key_log(source->key_log, source->from);
      auto each = [&](const DatagramSink& sink) { for_each_unit_datagram(*source, sink); };
      quic["client.pcap"] = load_vantage(each, "client.pcap", keys);
      quic["server.pcap"] = *quic["client.pcap"];
      quic["server.pcap"]->file = "server.pcap";
    }
  } catch (const InputError& e) {
    notes.push_back(e.diagnostics().front().str());
  }
  auto usable = [&](const char* file) -> const VantageCapture* {
    auto it = quic.find(file);
    return it != quic.end() && it->second && it->second->connection() ? &*it->second : nullptr;
  };
  const VantageCapture* client = usable("client.pcap");
  const VantageCapture* server = usable("server.pcap");
  if (client || server) return quic_view(dir, client, server, std::move(notes), strings);
  if (fs::exists(folder / "loopback.pcap", ec)) return tcp_view(dir, "loopback.pcap");
  // A connection conform check judged has a folder only for what was
  // written of it: without one, its line was not found (or a note says why).
  if (!fs::is_directory(folder, ec) && notes.empty())
    notes.push_back(dir + ": no such folder, nor a line for it in a connections*.jsonl beside it");
  else if (quic.empty()) notes.push_back("no capture in " + dir);
  else notes.push_back("no QUIC connection in the captures of " + dir);
  return {{"kind", "none"}, {"dir", dir}, {"notes", notes}};
}

}  // namespace conform::report

// Matching a datagram in the sender's capture with the same datagram in the
// receiver's.
#include "report/vantage_pair.hpp"

#include "capture/pcap_reader.hpp"
#include "dissect/dissector.hpp"

#include <algorithm>
#include <deque>
#include <functional>
#include <string_view>

namespace conform::report {
namespace {

using Key = std::pair<std::uint64_t, unsigned>;  // payload hash, GSO segment index

Key key_of(const VantageCapture& v, const dissect::Datagram& d) {
  const unsigned segment = d.gso ? d.gso->index : 0;
  auto it = v.payload_hash.find({d.frame, segment});
  return {it == v.payload_hash.end() ? 0 : it->second, segment};
}

bool sent_by_client(const dissect::Datagram& d) { return d.direction == dissect::Direction::client_to_server; }

DiagramRow row_at(const dissect::Datagram& d, bool in_client_capture, Fate fate) {
  DiagramRow r;
  r.time_ns = d.time_ns;
  r.direction = d.direction;
  r.fate = fate;
  (in_client_capture ? r.client_frame : r.server_frame) = d.frame;
  r.datagram = &d;
  return r;
}

// The datagrams `sender` sent in `direction`, each matched with the
// receiver's copy; the receiver's copies left over come last.
void match_direction(const VantageCapture& sender, const VantageCapture& receiver, bool sender_is_client,
                     std::vector<DiagramRow>& rows) {
  const auto* sent = sender.connection();
  const auto* got = receiver.connection();
  std::map<Key, std::deque<const dissect::Datagram*>> arrivals;
  if (got)
    for (const auto& d : got->datagrams)
      if (sent_by_client(d) == sender_is_client) arrivals[key_of(receiver, d)].push_back(&d);
  if (sent)
    for (const auto& d : sent->datagrams) {
      if (sent_by_client(d) != sender_is_client) continue;
      auto it = arrivals.find(key_of(sender, d));
      if (it == arrivals.end() || it->second.empty()) {
        rows.push_back(row_at(d, sender_is_client, Fate::lost));
        continue;
      }
      DiagramRow r = row_at(d, sender_is_client, Fate::delivered);
      r.arrival_ns = it->second.front()->time_ns;
      (sender_is_client ? r.server_frame : r.client_frame) = it->second.front()->frame;
      it->second.pop_front();
      rows.push_back(r);
    }
  for (const auto& [key, left] : arrivals)
    for (const auto* d : left) rows.push_back(row_at(*d, !sender_is_client, Fate::unmatched));
}

}  // namespace

VantageCapture load_vantage(const std::string& path, const std::string& file, const dissect::KeyLog& keys) {
  return load_vantage([&](const DatagramSink& sink) { for_each_datagram(path, sink); }, file, keys);
}

VantageCapture load_vantage(const std::function<void(const DatagramSink&)>& datagrams, const std::string& file,
                            const dissect::KeyLog& keys) {
  VantageCapture v;
  v.file = file;
  dissect::Dissector dissector(keys);
  // A GSO record splits into several datagrams, all of one frame: the
  // segment index tells them apart, the hash of the record stays the same.
  datagrams([&](const CapturedDatagram& d) {
    const std::string_view bytes(reinterpret_cast<const char*>(d.payload.data()), d.payload.size());
    const std::uint64_t hash = std::hash<std::string_view>{}(bytes);
    dissector.add(d);
    v.payload_hash[{d.frame, 0}] = hash;
  });
  v.timeline = dissector.finish();
  // Give every segment of a split record the record's hash.
  for (const auto& c : v.timeline.connections)
    for (const auto& d : c.datagrams)
      if (d.gso && d.gso->index > 0) v.payload_hash[{d.frame, d.gso->index}] = v.payload_hash[{d.frame, 0}];
  return v;
}

std::vector<DiagramRow> diagram_rows(const VantageCapture* client, const VantageCapture* server) {
  std::vector<DiagramRow> rows;
  if (client && server) {
    match_direction(*client, *server, true, rows);
    match_direction(*server, *client, false, rows);
  } else if (const VantageCapture* only = client ? client : server) {
    if (const auto* c = only->connection())
      for (const auto& d : c->datagrams) rows.push_back(row_at(d, only == client, Fate::one_vantage));
  }
  std::stable_sort(rows.begin(), rows.end(),
                   [](const DiagramRow& a, const DiagramRow& b) { return a.time_ns < b.time_ns; });
  return rows;
}

}  // namespace conform::report

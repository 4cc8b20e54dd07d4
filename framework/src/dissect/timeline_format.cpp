// Text and JSON renderings of a timeline.
#include "dissect/timeline_format.hpp"

#include "dissect/frame_format.hpp"
#include "dissect/stream_view.hpp"

#include <fmt/format.h>

#include <limits>

namespace conform::dissect {

std::string endpoint_text(NetEndpoint e) { return e.str(); }

namespace {

std::int64_t first_time(const Timeline& t) {
  std::int64_t first = std::numeric_limits<std::int64_t>::max();
  for (const auto& c : t.connections)
    if (!c.datagrams.empty()) first = std::min(first, c.datagrams.front().time_ns);
  for (const auto& u : t.unattributed) first = std::min(first, u.time_ns);
  return first == std::numeric_limits<std::int64_t>::max() ? 0 : first;
}

// Seconds from `t0` to `t` (t >= t0), computed in unsigned arithmetic so
// extreme capture timestamps cannot overflow.
std::string seconds(std::int64_t t, std::int64_t t0) {
  const std::uint64_t a = static_cast<std::uint64_t>(t) - static_cast<std::uint64_t>(t0);
  return fmt::format("{}.{:09}", a / 1'000'000'000, a % 1'000'000'000);
}

std::string describe_packet(const Packet& p) {
  std::string s(to_string(p.type));
  if (p.packet_number) s += fmt::format(" pn={}", *p.packet_number);
  if (p.key_phase) s += fmt::format(" kp={}", *p.key_phase);
  if (p.key_generation) s += fmt::format(" gen={}", p.key_generation);
  if (p.reserved_bits) s += fmt::format(" reserved_bits={}", p.reserved_bits);
  s += fmt::format(" {}B", p.length);
  if (p.type == PacketType::retry) {
    s += fmt::format(" scid={} token_len={} integrity={}", to_hex(p.extras().scid), p.extras().token.size(),
                     p.extras().retry_integrity_ok.value_or(false) ? "ok" : "BAD");
    return s;
  }
  if (p.type == PacketType::version_negotiation) {
    s += " versions=";
    for (std::size_t i = 0; i < p.extras().supported_versions.size(); ++i)
      s += fmt::format("{}0x{:08x}", i ? "," : "", p.extras().supported_versions[i]);
    return s;
  }
  if (p.undecryptable) return s + fmt::format(" UNDECRYPTABLE {}: {}", to_string(*p.undecryptable), p.extras().detail);
  s += ":";
  for (std::size_t i = 0; i < p.frames.size(); ++i) s += (i ? ", " : " ") + describe_frame(p.frames[i]);
  return s;
}

// Every parameter sent, as name and value, in RFC 9000 §18.2 order.
std::vector<std::pair<std::string, nlohmann::json>> parameter_fields(const TransportParameters& t) {
  std::vector<std::pair<std::string, nlohmann::json>> out;
  auto add = [&](const char* name, const auto& v) {
    if (v) out.emplace_back(name, *v);
  };
  auto add_bytes = [&](const char* name, const auto& v) {
    if (v) out.emplace_back(name, to_hex(*v));
  };
  add_bytes("original_destination_connection_id", t.original_destination_connection_id);
  add("max_idle_timeout", t.max_idle_timeout);
  add_bytes("stateless_reset_token", t.stateless_reset_token);
  add("max_udp_payload_size", t.max_udp_payload_size);
  add("initial_max_data", t.initial_max_data);
  add("initial_max_stream_data_bidi_local", t.initial_max_stream_data_bidi_local);
  add("initial_max_stream_data_bidi_remote", t.initial_max_stream_data_bidi_remote);
  add("initial_max_stream_data_uni", t.initial_max_stream_data_uni);
  add("initial_max_streams_bidi", t.initial_max_streams_bidi);
  add("initial_max_streams_uni", t.initial_max_streams_uni);
  add("ack_delay_exponent", t.ack_delay_exponent);
  add("max_ack_delay", t.max_ack_delay);
  if (t.disable_active_migration) out.emplace_back("disable_active_migration", true);
  add_bytes("preferred_address", t.preferred_address);
  add("active_connection_id_limit", t.active_connection_id_limit);
  add_bytes("initial_source_connection_id", t.initial_source_connection_id);
  add_bytes("retry_source_connection_id", t.retry_source_connection_id);
  add("max_datagram_frame_size", t.max_datagram_frame_size);
  for (const auto& [id, value] : t.others) out.emplace_back(fmt::format("0x{:x}", id), to_hex(value));
  return out;
}

std::string describe_parameters(const TransportParameters& t) {
  std::string s;
  for (const auto& [name, value] : parameter_fields(t))
    s += " " + name + "=" + (value.is_string() ? value.get<std::string>() : value.dump());
  return s;
}

std::string describe_flow(const StreamFlow& f) {
  if (!f.first_frame) return "-";
  std::string s = fmt::format("{}B", f.unique_bytes);
  if (f.sent_bytes != f.unique_bytes) s += fmt::format(" (sent {}B)", f.sent_bytes);
  if (f.fin_size) s += fmt::format(" fin={}", *f.fin_size);
  if (f.reset) s += fmt::format(" RESET error={} final_size={}", f.reset->error_code, f.reset->final_size);
  if (f.stop_sending_error) s += fmt::format(" STOP_SENDING error={}", *f.stop_sending_error);
  if (f.max_stream_data) s += fmt::format(" max_stream_data={}", *f.max_stream_data);
  if (f.blocked_at) s += fmt::format(" blocked_at={}", *f.blocked_at);
  return s;
}

nlohmann::json flow_json(const StreamFlow& f) {
  nlohmann::json j = {{"unique_bytes", f.unique_bytes}, {"sent_bytes", f.sent_bytes},
                      {"stream_frames", f.stream_frames}, {"highest_offset", f.highest_offset},
                      {"first_frame", f.first_frame}, {"last_frame", f.last_frame}};
  if (f.fin_size) j["fin_size"] = *f.fin_size;
  if (f.reset) j["reset"] = {{"error_code", f.reset->error_code}, {"final_size", f.reset->final_size}};
  if (f.stop_sending_error) j["stop_sending_error"] = *f.stop_sending_error;
  if (f.max_stream_data) j["max_stream_data"] = *f.max_stream_data;
  if (f.blocked_at) j["blocked_at"] = *f.blocked_at;
  return j;
}

}  // namespace

nlohmann::json parameters_json(const std::optional<TransportParameters>& t) {
  if (!t) return nullptr;
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [name, value] : parameter_fields(*t)) j[name] = value;
  return j;
}

void print_timeline(std::ostream& out, const Timeline& t, const CaptureSummary* capture) {
  const std::int64_t t0 = first_time(t);
  if (capture) {
    out << fmt::format("capture: link type {}, {} records, {} UDP datagrams", capture->link_type,
                       capture->records,
                       capture->records - capture->not_udp - capture->fragments);
    if (capture->not_udp) out << fmt::format(", {} not UDP", capture->not_udp);
    if (capture->fragments) out << fmt::format(", {} IP fragments (not reassembled)", capture->fragments);
    if (capture->truncated) out << fmt::format(", {} cut by the snap length", capture->truncated);
    if (capture->damage) out << ", damaged at " << *capture->damage;
    // GSO batches split back into datagrams (see Datagram::gso).
    std::size_t batches = 0, segments = 0;
    for (const auto& c : t.connections)
      for (const auto& d : c.datagrams)
        if (d.gso) {
          ++segments;
          batches += d.gso->index == 0;
        }
    if (batches) out << fmt::format("; {} GSO batches split into {} datagrams", batches, segments);
    out << '\n';
  }
  for (const auto& c : t.connections) {
    out << fmt::format("connection {}: client {} server {} odcid={}", c.index, endpoint_text(c.client),
                       endpoint_text(c.server), to_hex(c.original_dcid));
    if (c.cipher_suite) out << ' ' << to_string(*c.cipher_suite);
    if (c.client_random) out << (c.secrets_found ? " keys=found" : " keys=missing");
    out << '\n';
    if (c.client_parameters) out << "  client parameters:" << describe_parameters(*c.client_parameters) << '\n';
    if (c.server_parameters) out << "  server parameters:" << describe_parameters(*c.server_parameters) << '\n';
    for (const auto& note : c.notes) out << "  note: " << note << '\n';
    for (const auto& d : c.datagrams) {
      out << fmt::format("  #{} {} {} {}B", d.frame, seconds(d.time_ns, t0),
                         d.direction == Direction::client_to_server ? "C>S" : "S>C", d.size);
      if (d.gso) out << fmt::format(" GSO {}/{} of {}B", d.gso->index + 1, d.gso->count, d.gso->segment_size);
      for (const auto& p : d.packets) out << " | " << describe_packet(p);
      if (d.padding_after) out << " | " << d.padding_after << "B padding: cannot start a packet (Fixed Bit clear, or not the first packet's DCID)";
      out << '\n';
    }
    const auto streams = stream_views(c);
    if (!streams.empty()) out << "  streams:\n";
    for (const auto& v : streams)
      out << fmt::format("    {} {} {} (first #{}): C>S {} | S>C {}\n", v.id, v.client_initiated() ? "client" : "server",
                         v.bidirectional() ? "bidi" : "uni", v.first_frame,
                         describe_flow(v.flow(Direction::client_to_server)),
                         describe_flow(v.flow(Direction::server_to_client)));
  }
  if (!t.unattributed.empty()) out << "not in any connection:\n";
  for (const auto& u : t.unattributed)
    out << fmt::format("  #{} {} {} > {} {}B: {}\n", u.frame, seconds(u.time_ns, t0), endpoint_text(u.from),
                       endpoint_text(u.to), u.size, u.reason);
}

namespace {

nlohmann::json packet_json(const Packet& p) {
  nlohmann::json j;
  j["type"] = to_string(p.type);
  j["space"] = to_string(p.space);
  j["offset"] = p.offset;
  j["length"] = p.length;
  if (p.type != PacketType::one_rtt) {
    j["version"] = p.version;
    j["scid"] = to_hex(p.extras().scid);
  }
  j["dcid"] = to_hex(p.dcid);
  if (!p.extras().token.empty()) j["token"] = to_hex(p.extras().token);
  if (p.packet_number) {
    j["packet_number"] = *p.packet_number;
    j["packet_number_length"] = p.packet_number_length;
    j["reserved_bits"] = p.reserved_bits;
    j["payload_length"] = p.payload_length;
  }
  if (p.key_phase) {
    j["key_phase"] = *p.key_phase;
    j["key_generation"] = p.key_generation;
  }
  if (p.extras().retry_integrity_ok) j["retry_integrity_ok"] = *p.extras().retry_integrity_ok;
  if (p.type == PacketType::version_negotiation) j["supported_versions"] = p.extras().supported_versions;
  if (p.undecryptable) {
    j["undecryptable"] = to_string(*p.undecryptable);
    j["detail"] = p.extras().detail;
  }
  auto frames = nlohmann::json::array();
  for (const auto& f : p.frames) frames.push_back(frame_to_json(f));
  j["frames"] = std::move(frames);
  return j;
}

nlohmann::json endpoint_json(NetEndpoint e) { return endpoint_text(e); }

}  // namespace

void print_timeline_json(std::ostream& out, const Timeline& t, const CaptureSummary* capture) {
  nlohmann::json root;
  if (capture) {
    root["capture"] = {{"link_type", capture->link_type}, {"records", capture->records},
                       {"not_udp", capture->not_udp}, {"fragments", capture->fragments},
                       {"truncated", capture->truncated}};
    if (capture->damage) root["capture"]["damage"] = *capture->damage;
  }
  auto connections = nlohmann::json::array();
  for (const auto& c : t.connections) {
    nlohmann::json jc;
    jc["index"] = c.index;
    jc["client"] = endpoint_json(c.client);
    jc["server"] = endpoint_json(c.server);
    jc["original_dcid"] = to_hex(c.original_dcid);
    jc["cipher_suite"] = c.cipher_suite ? nlohmann::json(to_string(*c.cipher_suite)) : nlohmann::json();
    jc["client_random"] = c.client_random ? nlohmann::json(to_hex(*c.client_random)) : nlohmann::json();
    jc["secrets_found"] = c.secrets_found;
    jc["client_parameters"] = parameters_json(c.client_parameters);
    jc["server_parameters"] = parameters_json(c.server_parameters);
    jc["notes"] = c.notes;
    auto datagrams = nlohmann::json::array();
    for (const auto& d : c.datagrams) {
      nlohmann::json jd;
      jd["frame"] = d.frame;
      jd["time_ns"] = d.time_ns;
      jd["direction"] = to_string(d.direction);
      jd["size"] = d.size;
      if (d.gso)
        jd["gso"] = {{"index", d.gso->index}, {"count", d.gso->count}, {"segment_size", d.gso->segment_size}};
      jd["from"] = endpoint_json(d.from);
      jd["to"] = endpoint_json(d.to);
      auto packets = nlohmann::json::array();
      for (const auto& p : d.packets) packets.push_back(packet_json(p));
      jd["packets"] = std::move(packets);
      jd["padding_after"] = d.padding_after;
      datagrams.push_back(std::move(jd));
    }
    jc["datagrams"] = std::move(datagrams);
    auto streams = nlohmann::json::array();
    for (const auto& v : stream_views(c))
      streams.push_back({{"id", v.id},
                         {"initiator", v.client_initiated() ? "client" : "server"},
                         {"bidirectional", v.bidirectional()},
                         {"first_frame", v.first_frame},
                         {"client_to_server", flow_json(v.flow(Direction::client_to_server))},
                         {"server_to_client", flow_json(v.flow(Direction::server_to_client))}});
    jc["streams"] = std::move(streams);
    connections.push_back(std::move(jc));
  }
  root["connections"] = std::move(connections);
  auto unattributed = nlohmann::json::array();
  for (const auto& u : t.unattributed)
    unattributed.push_back({{"frame", u.frame}, {"time_ns", u.time_ns}, {"from", endpoint_json(u.from)},
                            {"to", endpoint_json(u.to)}, {"size", u.size}, {"reason", u.reason}});
  root["unattributed"] = std::move(unattributed);
  out << root.dump(1) << '\n';
}

}  // namespace conform::dissect

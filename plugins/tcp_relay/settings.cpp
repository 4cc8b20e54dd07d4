// Reading and validating the relay's settings.
#include "settings.hpp"

#include <charconv>

namespace tcp_relay {

using conform::Value;
using conform::ValueSpec;
using conform::ValueType;

namespace {

Value integer(std::int64_t v) { return Value{v}; }

// "auto" or a positive byte count.
std::optional<BufferPolicy> parse_buffer(const std::string& text) {
  if (text == "auto") return BufferPolicy{};
  int bytes = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), bytes);
  if (ec != std::errc() || end != text.data() + text.size() || bytes <= 0) return std::nullopt;
  return BufferPolicy{bytes};
}

}  // namespace

std::string BufferPolicy::describe() const {
  return fixed_bytes ? std::to_string(*fixed_bytes) : std::string("auto");
}

std::vector<ValueSpec> scenario_params() {
  return {
      {"leg", ValueType::string, Value{std::string("relay")},
       "path of the transfers: direct (answer in one write), relay (through the relay, which "
       "forwards in pieces), direct-pieces (answer written in piece_bytes pieces)",
       {"direct", "relay", "direct-pieces"}},
      {"forwarding", ValueType::string, Value{std::string("splice")},
       "how the relay moves each piece: splice (splice(2) through a pipe, no copy in the "
       "relay) or copy (recv into a buffer, then send); the pieces and writes are the same",
       {"splice", "copy"}},
      {"request_bytes", ValueType::integer, integer(65536), "request size, bytes"},
      {"response_bytes", ValueType::integer, integer(1 << 20), "answer size, bytes"},
      {"piece_bytes", ValueType::integer, integer(32768),
       "piece size of the relay's forwarding and of the direct-pieces server's writes, bytes"},
      {"transfers", ValueType::integer, integer(10), "request/answer exchanges the client times"},
      {"connections", ValueType::integer, integer(1),
       "connections the client opens; transfer i uses connection i mod connections"},
      {"reader_delay_us", ValueType::integer, integer(0),
       "the client sleeps this long before each read of an answer (reads of up to 64 KiB), "
       "microseconds"},
      {"cpus", ValueType::integer, integer(0),
       "pin every thread of the run to this many CPUs; 0: no pinning"},
      {"cpu_hogs", ValueType::integer, integer(0), "busy threads sharing those CPUs"},
      {"slow_transfer_ms", ValueType::integer, integer(1000),
       "sample TCP_INFO of every socket every 250 ms while a transfer runs longer than this, "
       "milliseconds"},
      {"time_limit_ms", ValueType::integer, integer(30000),
       "the client gives up after this long in all (the capture then shows the unfinished "
       "transfer), milliseconds"},
  };
}

std::vector<ValueSpec> role_knobs() {
  return {
      {"rcvbuf", ValueType::string, Value{std::string("auto")},
       "receive buffer of the role's sockets: auto (kernel autotuning) or bytes for SO_RCVBUF"},
      {"sndbuf", ValueType::string, Value{std::string("auto")},
       "send buffer of the role's sockets: auto (kernel autotuning) or bytes for SO_SNDBUF"},
  };
}

ParsedSettings parse_settings(const conform::CaseSettings& c) {
  using conform::value_or;
  RunSettings s;
  const auto leg = value_or<std::string>(c.params, "leg", "relay");
  s.leg = leg == "direct" ? Leg::direct : leg == "direct-pieces" ? Leg::direct_pieces : Leg::relay;
  s.forwarding = value_or<std::string>(c.params, "forwarding", "splice") == "copy" ? Forwarding::copy
                                                                                 : Forwarding::splice;
  auto get = [&](const char* name, std::int64_t fallback) {
    return value_or<std::int64_t>(c.params, name, fallback);
  };
  s.request_bytes = get("request_bytes", 65536);
  s.response_bytes = get("response_bytes", 1 << 20);
  s.piece_bytes = get("piece_bytes", 32768);
  s.transfers = get("transfers", 10);
  s.connections = get("connections", 1);
  s.reader_delay_us = get("reader_delay_us", 0);
  s.cpus = get("cpus", 0);
  s.cpu_hogs = get("cpu_hogs", 0);
  s.slow_transfer_ms = get("slow_transfer_ms", 1000);
  s.time_limit_ms = get("time_limit_ms", 30000);
  if (s.request_bytes < 1 || s.response_bytes < 1 || s.piece_bytes < 1)
    return {std::nullopt, "request_bytes, response_bytes and piece_bytes must be at least 1"};
  if (s.transfers < 1 || s.connections < 1)
    return {std::nullopt, "transfers and connections must be at least 1"};
  if (s.reader_delay_us < 0 || s.cpus < 0 || s.cpu_hogs < 0 || s.time_limit_ms < 1)
    return {std::nullopt, "reader_delay_us, cpus and cpu_hogs must be >= 0, time_limit_ms >= 1"};

  const std::pair<const char*, RoleBuffers*> roles[] = {
      {"client", &s.client}, {"relay", &s.relay}, {"server", &s.server}};
  for (const auto& [role, buffers] : roles) {
    auto knobs = c.knobs.find(role);
    const conform::ValueMap none;
    const conform::ValueMap& k = knobs == c.knobs.end() ? none : knobs->second;
    for (const char* knob : {"rcvbuf", "sndbuf"}) {
      const auto text = value_or<std::string>(k, knob, "auto");
      auto policy = parse_buffer(text);
      if (!policy)
        return {std::nullopt, std::string(role) + "." + knob + " = \"" + text +
                                  "\": expected \"auto\" or a positive number of bytes"};
      (std::string(knob) == "rcvbuf" ? buffers->receive : buffers->send) = *policy;
    }
  }
  return {s, {}};
}

}  // namespace tcp_relay

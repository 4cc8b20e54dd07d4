// Reading and validating the relay's settings.
#include "settings.hpp"

#include <charconv>
#include <optional>

namespace tcp_relay {

using conform::Value;
using conform::ValueSpec;
using conform::ValueType;

namespace {

// "auto" or a positive byte count.
std::optional<BufferPolicy> parse_buffer(const std::string& text) {
  if (text == "auto") return BufferPolicy{};
  int bytes = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), bytes);
  if (ec != std::errc() || end != text.data() + text.size() || bytes <= 0) return std::nullopt;
  return BufferPolicy{bytes};
}

// Each integer parameter, bound to its field: name, default, bounds (the
// loader refuses a value outside them at file:line:col), doc.
struct CountRow {
  const char* name;
  std::int64_t RunSettings::*member;
  std::int64_t fallback;
  std::int64_t min;
  std::optional<std::int64_t> max;
  const char* doc;
};

constexpr std::int64_t kMaxBytes = std::int64_t{1} << 40;

const CountRow kCounts[] = {
    {"request_bytes", &RunSettings::request_bytes, 65536, 1, kMaxBytes, "request size, bytes"},
    {"response_bytes", &RunSettings::response_bytes, 1 << 20, 1, kMaxBytes, "answer size, bytes"},
    {"piece_bytes", &RunSettings::piece_bytes, 32768, 1, kMaxBytes,
     "piece size of the relay's forwarding and of the direct-pieces server's writes, bytes"},
    {"transfers", &RunSettings::transfers, 10, 1, 1000000, "request/answer exchanges the client times"},
    {"connections", &RunSettings::connections, 1, 1, 10000,
     "connections the client opens; transfer i uses connection i mod connections"},
    {"reader_delay_us", &RunSettings::reader_delay_us, 0, 0, 60000000,
     "the client sleeps this long before each read of an answer (reads of up to 64 KiB), microseconds"},
    {"cpus", &RunSettings::cpus, 0, 0, 4096, "pin every thread of the run to this many CPUs; 0: no pinning"},
    {"cpu_hogs", &RunSettings::cpu_hogs, 0, 0, 256, "busy threads sharing those CPUs"},
    {"slow_transfer_ms", &RunSettings::slow_transfer_ms, 1000, 0, 3600000,
     "sample TCP_INFO of every socket every 250 ms while a transfer runs longer than this, milliseconds"},
    {"time_limit_ms", &RunSettings::time_limit_ms, 30000, 1, 3600000,
     "the client gives up after this long in all (the capture then shows the unfinished transfer), "
     "milliseconds"},
};

}  // namespace

std::string BufferPolicy::describe() const {
  return fixed_bytes ? std::to_string(*fixed_bytes) : std::string("auto");
}

std::vector<ValueSpec> scenario_params() {
  std::vector<ValueSpec> params = {
      {"leg", ValueType::string, Value{std::string("relay")},
       "path of the transfers: direct (answer in one write), relay (through the relay, which "
       "forwards in pieces), direct-pieces (answer written in piece_bytes pieces)",
       {"direct", "relay", "direct-pieces"}},
      {"forwarding", ValueType::string, Value{std::string("splice")},
       "how the relay moves each piece: splice (splice(2) through a pipe, no copy in the "
       "relay) or copy (recv into a buffer, then send); the pieces and writes are the same",
       {"splice", "copy"}},
  };
  for (const auto& row : kCounts)
    params.push_back({row.name, ValueType::integer, Value{row.fallback}, row.doc, {}, row.min, row.max});
  return params;
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
  // In range: the loader held every value to its row's bounds.
  for (const auto& row : kCounts) s.*row.member = value_or<std::int64_t>(c.params, row.name, row.fallback);

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

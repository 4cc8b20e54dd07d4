// The relay plugin's settings for one run, read from the case: which leg,
// how big the request and answer are, how the sockets' buffers are set, and
// how the run is starved of CPU.
#pragma once

#include <conform/run_context.hpp>
#include <conform/value.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tcp_relay {

/// Which path the client's transfers take, as in the spike's table.
enum class Leg {
  /// client -> server, the answer written in one call.
  direct,
  /// client -> relay -> server; the relay forwards each direction as it
  /// arrives, one write per piece read.
  relay,
  /// client -> server, the answer written in `piece_bytes` pieces.
  direct_pieces,
};

/// How the relay moves a piece from one socket to the other; the pieces and
/// their writes are the same either way (forwarding.hpp).
enum class Forwarding {
  /// splice(2) through a pipe: the relay never copies the bytes.
  splice,
  /// recv() into a buffer, then send(): two copies of every byte in the relay.
  copy,
};

/// A socket buffer: the kernel's autotuning (SO_RCVBUF / SO_SNDBUF untouched)
/// or a fixed size in bytes asked of setsockopt (the kernel doubles it for
/// its bookkeeping and stops autotuning that buffer).
struct BufferPolicy {
  std::optional<int> fixed_bytes;
  std::string describe() const;
};

/// The buffers of one role's sockets.
struct RoleBuffers {
  BufferPolicy receive, send;
};

struct RunSettings {
  Leg leg = Leg::relay;
  Forwarding forwarding = Forwarding::splice;
  std::int64_t request_bytes = 0, response_bytes = 0, piece_bytes = 0;
  std::int64_t transfers = 0, connections = 0;
  /// The client sleeps this long before each read of the answer, microseconds.
  std::int64_t reader_delay_us = 0;
  /// Pin every thread of the run to the first `cpus` CPUs it may use; 0: no pinning.
  std::int64_t cpus = 0;
  /// Busy threads on those CPUs.
  std::int64_t cpu_hogs = 0;
  /// A transfer running longer than this has TCP_INFO sampled, milliseconds.
  std::int64_t slow_transfer_ms = 0;
  /// The client gives up after this long in all, milliseconds.
  std::int64_t time_limit_ms = 0;
  RoleBuffers client, relay, server;
};

/// The scenario parameters the plugin declares.
std::vector<conform::ValueSpec> scenario_params();
/// The knobs of each role (client, relay, server).
std::vector<conform::ValueSpec> role_knobs();

/// The settings of `c`, or why they are unusable (one line).
struct ParsedSettings {
  std::optional<RunSettings> settings;
  std::string problem;
};
ParsedSettings parse_settings(const conform::CaseSettings& c);

}  // namespace tcp_relay

// The external plugin's scenarios and what each asks of a role's program.
// Two workloads: request-response over HTTP/3 (the client fetches a file N
// times), and the raw-QUIC stream workload (ALPN "quic": endpoints open
// streams of fixed size at each other; docs/interop.md specifies it), which
// two scenarios use: streams toward the stack under test, so it must raise
// MAX_STREAMS (RFC 9000 §4.6), and the stack held at its peer's stream
// limit, so it must wait, say STREAMS_BLOCKED (§4.6, §19.14) and go on.
#pragma once

#include <conform/plugin.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace external {

/// What a profile's programs speak.
enum class Workload { http3, raw_quic };

/// "http3", "raw-quic": the `workload` key of a profile.
const char* to_string(Workload w);
std::optional<Workload> workload_named(const std::string& name);

/// Every scenario the plugin declares, with its parameters.
std::vector<conform::ScenarioSpec> scenarios();

/// The workloads `scenario` can be played in, the preferred first:
/// request-response in HTTP/3, or in raw QUIC between programs that speak
/// no HTTP/3 (each request a bidirectional stream of response_bytes,
/// answered with as many); the stream scenarios in raw QUIC.
std::vector<Workload> workloads_of(const std::string& scenario);

/// "http3", "raw-quic or http3": the workloads in `list`, for messages.
std::string to_string(const std::vector<Workload>& list);

/// The workload a client speaking `client` and a server speaking `server`
/// play `scenario` in: the first of workloads_of both speak.
std::optional<Workload> pair_workload(const std::string& scenario, const std::vector<Workload>& client,
                                      const std::vector<Workload>& server);

/// The stream work of `role` ("client", "server") in the case, played in
/// `w`, as placeholder values: open_uni, open_bidi (streams it opens),
/// expect_uni, expect_bidi (peer-opened streams a client waits for before
/// closing) and stream_bytes (bytes on each opened stream). All zero in
/// HTTP/3.
std::map<std::string, std::string> stream_work(const conform::CaseSettings& s, const std::string& role, Workload w);

}  // namespace external

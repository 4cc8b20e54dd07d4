// Scenario declarations and the stream work they give each role.
#include "workload.hpp"

#include <algorithm>

namespace external {
namespace {

using namespace conform;

ValueSpec time_limit(std::int64_t ms) {
  return {"time_limit_ms", ValueType::integer, Value{ms},
          "the client is stopped after this long, ms; the captures are judged as they are", {}, 100, 600000};
}

// The parameters both stream scenarios share after their role parameter.
std::vector<ValueSpec> stream_params(ValueSpec role, const std::string& dir_default) {
  return {std::move(role),
          {"dir", ValueType::string, Value{dir_default}, "stream direction: uni or bidi", {"uni", "bidi"}},
          {"streams", ValueType::integer, Value{std::int64_t{50}}, "streams opened", {}, 0, 100000},
          {"stream_bytes", ValueType::integer, Value{std::int64_t{100}}, "bytes on each opened stream before its FIN",
           {}, 0, 1 << 20},
          time_limit(10000)};
}

std::string other(const std::string& role) { return role == "client" ? "server" : "client"; }

// One client program a run: what it asks for is its total, however many
// connections it spreads it over (Firefox loads a page over two).
RunDemand request_response_demand(const ValueMap& p) {
  RunDemand d;
  d.across_connections = true;
  d.client.bidi_streams = demand_param(p, "requests");
  d.server.bytes = demand_product(p, "requests", "response_bytes");
  return d;
}

// The opener of a stream scenario opens `streams` streams of `dir`, each
// with stream_bytes; `role_param` names the role under test.
RunDemand stream_demand(const ValueMap& p, const std::string& role_param, bool under_test_opens) {
  RunDemand d;
  d.across_connections = true;
  const std::string under_test = std::get<std::string>(p.at(role_param));
  SideDemand& opener = (under_test_opens ? under_test : other(under_test)) == "client" ? d.client : d.server;
  (std::get<std::string>(p.at("dir")) == "uni" ? opener.uni_streams : opener.bidi_streams) =
      demand_param(p, "streams");
  opener.bytes = demand_product(p, "streams", "stream_bytes");
  return d;
}

}  // namespace

const char* to_string(Workload w) { return w == Workload::http3 ? "http3" : "raw-quic"; }

std::optional<Workload> workload_named(const std::string& name) {
  if (name == "http3") return Workload::http3;
  if (name == "raw-quic") return Workload::raw_quic;
  return std::nullopt;
}

std::vector<ScenarioSpec> scenarios() {
  return {
      {"request-response",
       "the client fetches a response_bytes file `requests` times over one connection (HTTP/3, as the "
       "profile's programs do), concurrently as the server's stream limit allows; the server serves it. Between "
       "programs that speak no HTTP/3 in common but raw QUIC, each request is a bidirectional stream of "
       "response_bytes that the server answers with as many (the raw-QUIC workload)",
       {{"requests", ValueType::integer, Value{std::int64_t{10}}, "requests on one connection", {}, 1, 100000},
        {"response_bytes", ValueType::integer, Value{std::int64_t{1000}}, "size of each response body, bytes", {},
         0, std::int64_t{1} << 32},
        {"reserved_uni", ValueType::integer, Value{std::int64_t{0}},
         "unidirectional streams of reserved types (RFC 9114 §6.2.3) the server opens toward the client on each "
         "connection before it answers a request: the client must discard them and raise MAX_STREAMS_UNI "
         "(RFC 9000 §4.6); only a server profile whose command takes {reserved_uni} plays it",
         {}, 0, 100000},
        time_limit(20000)},
       request_response_demand},
      {"streams-toward",
       "raw-QUIC workload: the peer of the stack under test (`toward`) opens `streams` streams of `dir` at it, "
       "each carrying stream_bytes then FIN (a bidi one is answered with as many bytes): the stack must raise "
       "MAX_STREAMS as they close (RFC 9000 §4.6); its limit is its own initial_max_streams_* knob",
       stream_params({"toward", ValueType::string, Value{std::string("client")},
                      "the role under test, which receives the streams", {"client", "server"}},
                     "uni"),
       [](const ValueMap& p) { return stream_demand(p, "toward", false); }},
      {"held-at-limit",
       "raw-QUIC workload: the stack under test (`held`) opens `streams` streams of `dir` at its peer, whose "
       "initial_max_streams_* knob the case sets small: the stack must wait for MAX_STREAMS, say STREAMS_BLOCKED "
       "(RFC 9000 §4.6, §19.14) and go on",
       stream_params({"held", ValueType::string, Value{std::string("client")},
                      "the role under test, which opens the streams", {"client", "server"}},
                     "bidi"),
       [](const ValueMap& p) { return stream_demand(p, "held", true); }},
  };
}

std::vector<Workload> workloads_of(const std::string& scenario) {
  if (scenario == "request-response") return {Workload::http3, Workload::raw_quic};
  return {Workload::raw_quic};
}

std::string to_string(const std::vector<Workload>& list) {
  std::string text;
  for (Workload w : list) text += (text.empty() ? "" : " or ") + std::string(to_string(w));
  return text;
}

std::optional<Workload> pair_workload(const std::string& scenario, const std::vector<Workload>& client,
                                      const std::vector<Workload>& server) {
  auto speaks = [](const std::vector<Workload>& list, Workload w) {
    return std::find(list.begin(), list.end(), w) != list.end();
  };
  for (Workload w : workloads_of(scenario))
    if (speaks(client, w) && speaks(server, w)) return w;
  return std::nullopt;
}

std::map<std::string, std::string> stream_work(const CaseSettings& s, const std::string& role, Workload w) {
  std::map<std::string, std::string> work{{"open_uni", "0"},   {"open_bidi", "0"},   {"expect_uni", "0"},
                                          {"expect_bidi", "0"}, {"stream_bytes", "0"}};
  if (w != Workload::raw_quic) return work;
  // Request-response in raw QUIC: each request a bidirectional stream of
  // the client's, its answer as many bytes.
  if (s.scenario == "request-response") {
    if (role == "client") work["open_bidi"] = std::to_string(value_or<std::int64_t>(s.params, "requests", 1));
    work["stream_bytes"] = std::to_string(value_or<std::int64_t>(s.params, "response_bytes", 0));
    return work;
  }
  const std::string opener = s.scenario == "streams-toward"
                                 ? other(value_or<std::string>(s.params, "toward", "client"))
                                 : value_or<std::string>(s.params, "held", "client");
  const std::string dir = value_or<std::string>(s.params, "dir", "uni");
  const std::string streams = std::to_string(value_or<std::int64_t>(s.params, "streams", 0));
  work["stream_bytes"] = std::to_string(value_or<std::int64_t>(s.params, "stream_bytes", 0));
  if (role == opener) work["open_" + dir] = streams;
  // The client closes the connection, so it waits for the server's streams.
  if (role == "client" && opener == "server") work["expect_" + dir] = streams;
  return work;
}

}  // namespace external

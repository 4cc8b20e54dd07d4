// One run of the QUIC plugin on the simulated network.
#include "scenarios/run.hpp"

#include "scenarios/knobs.hpp"
#include "scenarios/quic_endpoint.hpp"
#include "scenarios/scenario.hpp"
#include "tls/test_certificate.hpp"

#include <fstream>
#include <memory>

namespace conform::quic {
namespace {

constexpr std::uint16_t kFirstClientPort = 40000;  // network.hpp: clients are 127.0.0.1:40000+i

/// Client `index`'s connections (its own and the server's side) get seeds of
/// their own, so connection IDs differ between subscribers; client 0 uses
/// the case's seed itself.
uint64_t connection_seed(uint64_t seed, size_t index) {
  return seed + 0x9e3779b97f4a7c15ull * index;
}

std::string describe_close(const std::optional<ConnectionClosed>& c) {
  if (!c) return "not closed";
  return std::string(c->by_peer ? "closed by the peer" : "closed") +
         (c->application ? " (application error " : " (transport error ") +
         std::to_string(c->error.code) + (c->error.reason.empty() ? "" : ": " + c->error.reason) + ")";
}

/// One line per connection: what its application did and how it closed.
void log_sessions(RunContext& ctx, const std::string& side, const QuicEndpoint& ep) {
  for (const Session& s : ep.sessions()) {
    if (!s.connection) continue;
    const std::string who = side.empty() ? "server, client " + std::to_string(s.peer.port - kFirstClientPort) : side;
    ctx.log("quic: " + who + ": " + s.app->summary() + "; " + describe_close(s.connection->close_reason()));
  }
}

/// `<artifact_dir>/<vantage>.sqlog`, its header written: every connection
/// of that side logs into it (each event names its connection's group_id).
/// Empty when the file cannot be opened: the case runs without qlog.
QlogSink open_qlog(RunContext& ctx, const std::string& vantage) {
  const std::string path = ctx.artifact_dir() + "/" + vantage + ".sqlog";
  auto file = std::make_shared<std::ofstream>(path, std::ios::binary);
  if (!*file) {
    ctx.log("quic: cannot write " + path + ": no qlog for the " + vantage);
    return {};
  }
  *file << QlogTrace::header(vantage, vantage + " of " + ctx.settings().scenario);
  return [file](std::string_view record) { file->write(record.data(), static_cast<std::streamsize>(record.size())); };
}

RunOutcome outcome_of(const SimulationEnd& end) {
  using R = SimulationEnd::Reason;
  switch (end.reason) {
    case R::quiescent:
    case R::deadline: return {};
    case R::budget_exhausted: return {RunOutcome::Status::timeout, end.detail};
    case R::stalled:
    case R::misconfigured: return {RunOutcome::Status::error, "network " + std::string(to_string(end.reason)) + ": " + end.detail};
  }
  return {RunOutcome::Status::error, "unknown end of the simulation"};
}

}  // namespace

std::string role_config(const CaseSettings& settings, const std::string& role, Config& out) {
  out = Config{};
  out.is_server = role == "server";
  auto knobs = settings.knobs.find(role);
  if (knobs == settings.knobs.end()) return {};
  if (std::string problem = apply_knobs(knobs->second, out); !problem.empty())
    return role + "." + problem;
  return {};
}

RunOutcome play(RunContext& ctx) {
  const CaseSettings& s = ctx.settings();
  MadeScenario made = make_scenario(s.scenario, s.params);
  if (!made.scenario) return {RunOutcome::Status::error, made.problem};
  Scenario& scenario = *made.scenario;

  Config client_config, server_config;
  for (auto [role, config] : {std::pair{"client", &client_config}, std::pair{"server", &server_config}})
    if (std::string problem = role_config(s, role, *config); !problem.empty())
      return {RunOutcome::Status::error, problem};
  server_config.certificate =
      TestCertificate::generate("localhost", s.seed, static_cast<size_t>(server_config.certificate_padding_bytes));
  if (!server_config.certificate)
    return {RunOutcome::Status::error, "BoringSSL could not make the Ed25519 test certificate"};
  client_config.keylog = server_config.keylog = [&ctx](std::string_view line) { ctx.key_log(line); };
  client_config.qlog = open_qlog(ctx, "client");
  server_config.qlog = open_qlog(ctx, "server");

  std::string failure;
  QuicEndpoint server([&](UdpEndpoint from, Instant now) {
    const size_t index = from.port >= kFirstClientPort ? from.port - kFirstClientPort : 0;
    Config c = server_config;
    c.seed = connection_seed(s.seed, index);
    Session session{from, nullptr, nullptr};
    auto conn = Connection::accept(c, now);
    if (!conn.ok()) {
      failure = "the server could not accept client " + std::to_string(index) + ": " + conn.error().reason;
      return session;
    }
    session.connection = std::move(conn.value());
    session.app = scenario.server_app(index);
    return session;
  });
  SimulatedNetwork& network = ctx.network();
  const auto server_address = network.attach_server(server);
  if (!server_address) return {RunOutcome::Status::error, "the network refused the server"};

  std::vector<std::unique_ptr<QuicEndpoint>> clients;
  for (size_t i = 0; i < scenario.clients(); ++i) {
    Config c = client_config;
    c.seed = connection_seed(s.seed, i);
    auto conn = Connection::connect(c, to_core(network.now()));
    if (!conn.ok()) return {RunOutcome::Status::error, "client " + std::to_string(i) + ": " + conn.error().reason};
    auto ep = std::make_unique<QuicEndpoint>();
    ep->add(Session{*server_address, std::move(conn.value()), scenario.client_app(i)});
    if (!network.attach_client(*ep)) return {RunOutcome::Status::error, "the network refused client " + std::to_string(i)};
    clients.push_back(std::move(ep));
  }

  const SimulationEnd end = network.run();
  for (size_t i = 0; i < clients.size(); ++i) log_sessions(ctx, "client " + std::to_string(i), *clients[i]);
  log_sessions(ctx, "", server);
  ctx.log("quic: the simulation ended " + std::string(to_string(end.reason)) + " at " +
          std::to_string(end.at.ns() / 1000) + " us of virtual time");
  if (!failure.empty()) return {RunOutcome::Status::error, failure};
  return outcome_of(end);
}

}  // namespace conform::quic

// The external plugin: third-party QUIC clients and servers, declared in
// TOML profiles, run as real programs with their UDP through the
// framework's loopback relay (impairments from the case's `network` table,
// captures written by the relay), their key logs collected into the case's
// keys.log so the checks decrypt the captures. This is how a user plugs in
// a QUIC stack without writing C++ (docs/plugins.md).
#include "certificates.hpp"
#include "child_process.hpp"
#include "command_template.hpp"
#include "in_house_knobs.hpp"
#include "private_network.hpp"
#include "profile.hpp"
#include "role_launch.hpp"
#include "run_files.hpp"
#include "workload.hpp"

#include <conform/plugin_export.hpp>

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <sstream>
#include <thread>
#include <tuple>

namespace external {
namespace {

constexpr std::int64_t kMaxVarint = (std::int64_t{1} << 62) - 1;
constexpr std::int64_t kMaxStreams = std::int64_t{1} << 60;

using namespace conform;
namespace fs = std::filesystem;
using std::chrono::milliseconds;

constexpr milliseconds kStopGrace{1000};
// How long a client may go on after its server ended before it is stopped.
constexpr milliseconds kClientEndsAfterServer{250};

// The folder holding this plugin's library: the build's plugins/ folder.
fs::path plugin_dir() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&plugin_dir), &info) == 0 || !info.dli_fname) return fs::current_path();
  return fs::absolute(info.dli_fname).parent_path();
}

// The profiles shipped with conform, copied beside the library by the build.
std::string shipped_profile_dir() { return (plugin_dir() / "external-profiles").string(); }

// Shipped profiles, then each folder of CONFORM_EXTERNAL_PROFILES.
std::vector<std::string> profile_dirs() {
  std::vector<std::string> dirs{shipped_profile_dir()};
  if (const char* env = std::getenv("CONFORM_EXTERNAL_PROFILES")) {
    std::stringstream ss(env);
    for (std::string d; std::getline(ss, d, ':');)
      if (!d.empty()) dirs.push_back(d);
  }
  return dirs;
}

// CONFORM_REQUIRE_PEERS=1 (set by .ci/run): a peer that is not installed
// is an error, so a run without it cannot go green.
bool peers_required() {
  const char* v = std::getenv("CONFORM_REQUIRE_PEERS");
  return v && std::string(v) == "1";
}

RunOutcome missing_peer(const std::string& problem) {
  if (peers_required()) return {RunOutcome::Status::error, "CONFORM_REQUIRE_PEERS=1: " + problem};
  return {RunOutcome::Status::unsupported, problem};
}

class ExternalPlugin final : public Plugin {
 public:
  ExternalPlugin() : profiles_(load_profiles(profile_dirs())) {
    info_.name = "external";
    info_.version = "0.1.0";
    info_.time_model = TimeModel::real;
    info_.roles = {"client", "server"};
    info_.scenarios = scenarios();
    // A broken profile is a choice too: a case naming it is refused with
    // its problems, not as naming no profile.
    std::vector<std::string> names;
    for (const auto* set : {&profiles_.profiles, &profiles_.broken})
      for (const auto& p : *set)
        if (!p.name.empty() && std::find(names.begin(), names.end(), p.name) == names.end()) names.push_back(p.name);
    const bool has_conform = profiles_.find("conform") != nullptr;
    const std::string fallback = has_conform ? "conform" : names.empty() ? "" : names.front();
    info_.knobs = {
        {"implementation", ValueType::string, Value{fallback},
         names.empty() ? std::string("the profile playing this role: none found (shipped, or in a folder of "
                                     "CONFORM_EXTERNAL_PROFILES)")
                       : std::string("the profile playing this role: one shipped with conform, or one of your "
                                     "own in a folder of CONFORM_EXTERNAL_PROFILES"),
         names},
        // Transport parameter values: varints (RFC 9000 §18.2), stream
        // counts at most 2^60 (§4.6).
        {"initial_max_streams_bidi", ValueType::integer, Value{std::int64_t{100}},
         "bidirectional streams the peer may open ({max_streams_bidi})", {}, 0, kMaxStreams},
        {"initial_max_streams_uni", ValueType::integer, Value{std::int64_t{100}},
         "unidirectional streams the peer may open ({max_streams_uni})", {}, 0, kMaxStreams},
        {"initial_max_data", ValueType::integer, Value{std::int64_t{1048576}},
         "connection receive window, bytes ({max_data})", {}, 0, kMaxVarint},
        {"initial_max_stream_data", ValueType::integer, Value{std::int64_t{1048576}},
         "receive window of each stream, bytes ({max_stream_data})", {}, 0, kMaxVarint},
        {"max_idle_timeout_ms", ValueType::integer, Value{std::int64_t{5000}},
         "idle timeout, ms ({idle_timeout_ms}, {idle_timeout_s}); 0: none", {}, 0, 86400000},
        // The in-house plugin's knob of the same name, for every server: the
        // plugin makes the certificate every profile's server presents.
        {"certificate_padding_bytes", ValueType::integer, Value{std::int64_t{0}},
         "server: bytes of an opaque non-critical extension in the run's certificate, so that the server's first "
         "flight spans more datagrams (RFC 9000 §8.1: at most 3x what the client sent before validation)",
         {}, 0, 16384}};
    for (const auto& p : profiles_.profiles) info_.knobs.front().value_labels[p.name] = stack_label(p, tools_dir());
    in_house_ = in_house_knob_specs(info_.knobs);
    info_.knobs.insert(info_.knobs.end(), in_house_.begin(), in_house_.end());
    info_.problems = profiles_.problems;
    add_missing_programs();
    // Stopped early, a run stops both programs (kStopGrace each) and
    // removes their throwaway folders.
    info_.stop_grace_ms = static_cast<std::uint32_t>(3 * kStopGrace.count());
  }

  const PluginInfo& info() const override { return info_; }

  RunOutcome run(RunContext& ctx) override {
    try {
      return play(ctx);
    } catch (const std::exception& e) {
      return {RunOutcome::Status::error, std::string("external: ") + e.what()};
    }
  }

 private:
  // The profile of `role` and its program's path, or why the run cannot
  // happen: `installed` is false when a program or file is missing (an
  // ERROR under CONFORM_REQUIRE_PEERS), true when the pairing itself cannot
  // play the scenario (always UNSUPPORTED).
  struct Resolved {
    const Profile* profile = nullptr;
    std::string program;
    std::string problem;
    bool installed = true;
    /// The in-house QUIC's knobs the case sets, for a program that takes them.
    std::vector<std::string> knob_args;
  };

  static std::string tools_dir() { return plugin_dir().parent_path().string(); }

  Resolved resolve(const CaseSettings& s, const std::string& role) const {
    const std::string name = value_or<std::string>(s.knobs.at(role), "implementation", "");
    Resolved r;
    r.profile = profiles_.find(name);
    if (!r.profile) {
      r.problem = "no profile '" + name + "'";
      return r;
    }
    const auto& command = r.profile->role(role);
    if (!command) {
      r.problem = "profile '" + name + "' (" + r.profile->file + ") declares no [" + role + "]";
      return r;
    }
    if (!pair_workload(s.scenario, r.profile->workloads, workloads_of(s.scenario))) {
      r.problem = "profile '" + name + "' speaks the " + to_string(r.profile->workloads) + " workload, scenario '" +
                  s.scenario + "' needs " + to_string(workloads_of(s.scenario));
      return r;
    }
    if (role == "server" && value_or<std::int64_t>(s.params, "reserved_uni", 0) > 0 &&
        !uses_placeholder(*command, "reserved_uni")) {
      r.problem = "profile '" + name + "' (server) cannot open reserved-type unidirectional streams toward the "
                  "client (its command has no {reserved_uni})";
      return r;
    }
    r.knob_args = in_house_knob_args(s.knobs.at(role), in_house_, *command, name, r.problem);
    if (!r.problem.empty()) return r;
    const std::string what = "profile '" + name + "' (" + role + ")";
    for (const auto& need : command->needs)
      if (const fs::path file = fs::path(tools_dir()) / need; !fs::exists(file)) {
        r.problem = what + ": " + file.string() + " is missing (scripts/setup.sh installs it)";
        r.installed = false;
        return r;
      }
    r.program = find_command(*command, tools_dir(), what, r.problem);
    r.installed = !r.program.empty();
    return r;
  }

  // Why the pair cannot play the scenario: no workload both speak, or one
  // the scenario's parameters ask what it does not have.
  static std::string workload_problem(const CaseSettings& s, const Resolved& client, const Resolved& server,
                                      const std::optional<Workload>& w) {
    if (!w)
      return "client '" + client.profile->name + "' speaks the " + to_string(client.profile->workloads) +
             " workload, server '" + server.profile->name + "' the " + to_string(server.profile->workloads) +
             ": no workload of scenario '" + s.scenario + "' in common";
    if (*w == Workload::raw_quic && value_or<std::int64_t>(s.params, "reserved_uni", 0) > 0)
      return "reserved_uni asks for HTTP/3 stream types, but this pair plays request-response in raw QUIC";
    return {};
  }

  // Which key logs the captures decrypt with, said in the case log; why not
  // when neither program writes one.
  static std::string key_log_sources(RunContext& ctx, const Resolved& client, const Resolved& server) {
    const bool from_client = client.profile->client->keylog, from_server = server.profile->server->keylog;
    if (!from_client && !from_server)
      return "neither " + client.profile->name + "'s client nor " + server.profile->name +
             "'s server writes a key log: the captures could not be decrypted";
    for (const auto& [writes, role, other, profile] :
         {std::tuple{from_client, "client", "server", client.profile}, {from_server, "server", "client", server.profile}})
      if (!writes)
        ctx.log(std::string("external: the ") + role + " (" + profile->name +
                ") writes no key log: the captures decrypt with the " + other + "'s alone");
    return {};
  }

  // A user's own profile (CONFORM_EXTERNAL_PROFILES) names the stack under
  // test: a program missing there is a problem of the input, which refuses
  // the cases, never UNSUPPORTED (a CI gate would go green on nothing). A
  // shipped profile's program is an optional package: its runs are
  // UNSUPPORTED, naming it.
  // A broken profile's programs are looked for too, so that all its
  // problems are told at once.
  void add_missing_programs() {
    const fs::path shipped = shipped_profile_dir();
    for (const auto* set : {&profiles_.profiles, &profiles_.broken})
      for (const auto& p : *set) {
        if (fs::path(p.file).parent_path() == shipped) continue;
        for (const auto* role : {&p.client, &p.server}) {
          if (!*role) continue;
          std::vector<const Command*> commands{&**role};
          for (const auto& step : (*role)->prepare) commands.push_back(&step);
          for (const Command* command : commands) {
            std::string problem;
            if (!command->program.empty() && find_command(*command, tools_dir(), "", problem).empty())
              info_.problems.push_back({p.file, command->line, command->column, problem, kProfileKnob, p.name});
          }
        }
      }
  }

  // Everything the run needs that is not a profile's own program: the
  // certificate tool and, for a program that forks, unshare.
  struct Tools {
    std::string openssl, unshare, problem;
  };

  static Tools find_tools(const Resolved& client, const Resolved& server) {
    Tools t;
    t.openssl = find_command({.program = "openssl", .package = "openssl", .args = {}, .env = {}}, "", "the certificate", t.problem);
    if (client.profile->client->forks || server.profile->server->forks)
      t.unshare = find_command({.program = "unshare", .package = "util-linux", .args = {}, .env = {}}, "", "a program that forks", t.problem);
    return t;
  }

  // The folder of the role's profile template, made by the first run that
  // asks (empty when it has none); empty with `problem` set when it cannot be made.
  std::string profile_template(RunContext& ctx, const Resolved& r, const std::string& role, const Tools& tools,
                               const std::map<std::string, std::string>& values, std::string& problem) const {
    const RoleCommand& command = *r.profile->role(role);
    if (!command.template_args) return {};
    const std::string log_prefix = ctx.artifact_dir() + "/" + role + "-template";
    return shared_.entry(
        r.profile->name + "-" + role + "-profile",
        [&](const std::string& folder) {
          ctx.log("external: " + role + " (" + r.profile->name + "): making the profile template each run copies, in " +
                  log_prefix + ".out and .err");
          return make_profile_template(command, r.program, tools.unshare, values, folder, log_prefix,
                                       [&ctx] { return ctx.stop_requested(); });
        },
        problem);
  }

  // Starts one role after preparing its profile folder.
  RunOutcome start_role(RunContext& ctx, const Resolved& r, const std::string& role, const Tools& tools,
                        const std::map<std::string, std::string>& values,
                        std::unique_ptr<ChildProcess>& process) const {
    if (ctx.stop_requested()) return stopped(ctx, "before the " + role + " started");
    const RoleCommand& command = *r.profile->role(role);
    const std::string prefix = ctx.artifact_dir() + "/" + role;
    std::string problem;
    const std::string made = profile_template(ctx, r, role, tools, values, problem);
    if (!problem.empty())
      return ctx.stop_requested() ? stopped(ctx, "while making the " + role + "'s profile template")
                                  : RunOutcome{RunOutcome::Status::error, problem};
    const Prepared prepared =
        prepare_role(command, tools_dir(), values, prefix, [&ctx] { return ctx.stop_requested(); }, made);
    if (prepared.stopped) return stopped(ctx, prepared.problem + " of the " + role);
    if (prepared.missing) {
      ctx.log("external: " + prepared.problem);
      return missing_peer(prepared.problem);
    }
    if (!prepared.problem.empty()) return {RunOutcome::Status::error, prepared.problem};
    Launch launch = launch_of(command, r.program, tools.unshare, values);
    launch.argv.insert(launch.argv.end(), r.knob_args.begin(), r.knob_args.end());
    ctx.log("external: " + role + " (" + r.profile->name + "): " + shell_line(launch));
    process = std::make_unique<ChildProcess>(launch.argv, launch.env, prefix);
    if (!process->error().empty()) return {RunOutcome::Status::error, process->error()};
    return {};
  }

  RunOutcome play(RunContext& ctx) const {
    const CaseSettings& s = ctx.settings();
    const Resolved client = resolve(s, "client"), server = resolve(s, "server");
    for (const Resolved* r : {&server, &client})
      if (!r->problem.empty()) {
        ctx.log("external: " + r->problem);
        return r->installed ? RunOutcome{RunOutcome::Status::unsupported, r->problem} : missing_peer(r->problem);
      }
    const auto workload = pair_workload(s.scenario, client.profile->workloads, server.profile->workloads);
    if (auto why = workload_problem(s, client, server, workload); !why.empty()) {
      ctx.log("external: " + why);
      return {RunOutcome::Status::unsupported, why};
    }
    if (auto why = key_log_sources(ctx, client, server); !why.empty()) {
      ctx.log("external: " + why);
      return {RunOutcome::Status::unsupported, why};
    }
    const Tools tools = find_tools(client, server);
    if (!tools.problem.empty()) return missing_peer(tools.problem);

    const PrivateNetwork network;
    ctx.log(network.problem().empty()
                ? "external: in a private network namespace whose only interface is loopback"
                : "external: no private network namespace (" + network.problem() +
                      "): the programs run on the host's loopback, 127.0.0.1 only");
    RunFacts facts{ctx.artifact_dir(), 0, {}, tools_dir(), *workload};
    const std::string& dir = facts.dir;
    fs::create_directories(dir + "/htdocs");
    // Only a program that downloads gets a folder to download into.
    if (uses_placeholder(*client.profile->client, "download_dir") ||
        uses_placeholder(*server.profile->server, "download_dir"))
      fs::create_directories(dir + "/download");
    const auto padding = value_or<std::int64_t>(s.knobs.at("server"), "certificate_padding_bytes", 0);
    const bool pinned = uses_placeholder(*client.profile->client, "spki_sha256");
    if (auto why = place_certificate(shared_, tools.openssl, dir, static_cast<std::size_t>(padding),
                                     pinned ? &facts.spki_sha256 : nullptr);
        !why.empty())
      return {RunOutcome::Status::error, why};
    const std::int64_t requests = value_or<std::int64_t>(s.params, "requests", 0);
    if (!write_body(dir + "/htdocs/response.bin", value_or<std::int64_t>(s.params, "response_bytes", 0)) ||
        !write_page(dir + "/htdocs", requests))
      return {RunOutcome::Status::error, "cannot write the files of " + dir + "/htdocs"};

    facts.port = free_udp_port();
    if (facts.port == 0) return {RunOutcome::Status::error, "no free UDP port on 127.0.0.1"};
    ThrowawayDirs profile_dirs;
    std::unique_ptr<ChildProcess> server_process, client_process;
    const auto server_values = values_for(s, "server", facts);
    profile_dirs.paths.push_back(server_values.at("profile_dir"));
    if (auto started = start_role(ctx, server, "server", tools, server_values, server_process);
        started.status != RunOutcome::Status::completed)
      return started;
    if (auto why = await_bound(ctx, *server_process, facts.port, server.profile->name); !why.empty())
      return ctx.stop_requested() ? stopped(ctx, "before the server bound its port") : RunOutcome{RunOutcome::Status::error, why};

    LoopbackRelay& relay = ctx.relay(facts.port);
    if (!relay.error().empty()) return {RunOutcome::Status::error, "relay: " + relay.error()};
    // The key logs the programs write as they go let the relay apply
    // selectors by content (both hold a connection's secrets).
    if (client.profile->client->keylog) relay.follow_key_log(dir + "/client.keys");
    if (server.profile->server->keylog) relay.follow_key_log(dir + "/server.keys");
    if (!relay.unsupported().empty()) {
      ctx.log("external: " + relay.unsupported());
      return {RunOutcome::Status::unsupported, relay.unsupported()};
    }
    facts.port = relay.port();
    const auto client_values = values_for(s, "client", facts);
    profile_dirs.paths.push_back(client_values.at("profile_dir"));
    if (auto started = start_role(ctx, client, "client", tools, client_values, client_process);
        started.status != RunOutcome::Status::completed)
      return started;

    const milliseconds limit{value_or<std::int64_t>(s.params, "time_limit_ms", 20000)};
    bool crashed = false;
    // A server that ended (one that serves a single connection, or crashed)
    // leaves the client nothing to talk to: the run is over once the client
    // had a moment to end on its own (a browser retrying does not).
    const auto started = std::chrono::steady_clock::now();
    std::optional<int> client_status = client_process->wait_for(
        limit, [&] { return ctx.stop_requested() || !server_process->running(); });
    if (!client_status && !ctx.stop_requested() && !server_process->running()) {
      const auto left = limit - std::chrono::duration_cast<milliseconds>(std::chrono::steady_clock::now() - started);
      client_status = client_process->wait_for(std::min(left, kClientEndsAfterServer),
                                               [&ctx] { return ctx.stop_requested(); });
    }
    if (ctx.stop_requested()) return stopped_early(ctx, *client_process, *server_process);
    if (client_status) {
      ctx.log("external: the client ended: " + client_process->how_it_ended());
      crashed = client_process->killed();
    } else if (!server_process->running())
      ctx.log("external: the server ended before the client, which was stopped with status " +
              std::to_string(client_process->stop(kStopGrace)));
    else
      ctx.log("external: the client was still running after time_limit_ms " + std::to_string(limit.count()) +
              ": stopped with status " + std::to_string(client_process->stop(kStopGrace)));
    // The client's last datagrams (its CONNECTION_CLOSE) cross the relay
    // first, and the server answers them (a last MAX_STREAMS, an ACK it may
    // delay): a fixed wait, since the relay cannot know what the server is
    // still to send; ending it at the relay's drain alone cut such frames
    // from a browser's page load and flipped a verdict between runs. A
    // server that exits (one that serves a single connection) has nothing
    // more to send: the wait ends with it. Once the server is stopped, its
    // last datagrams are drained.
    const double rtt_ms = value_or<double>(s.network, "rtt_ms", 10);
    const auto drain_ms = static_cast<std::uint32_t>(100 + 2 * std::max(0.0, rtt_ms));
    server_process->wait_for(milliseconds(drain_ms));
    if (server_process->running())
      ctx.log("external: server stopped with status " + std::to_string(server_process->stop(kStopGrace)));
    else
      ctx.log("external: the server had exited with status " + std::to_string(server_process->stop(kStopGrace)) +
              ": " + server_process->stderr_tail());
    relay.drain(drain_ms);
    relay.stop();
    profile_dirs.remove();
    // The relay writes client.pcap from the client's first datagram on.
    const bool client_sent = fs::exists(dir + "/client.pcap");

    const auto lines = key_log_lines({dir + "/client.keys", dir + "/server.keys"});
    for (const auto& line : lines) ctx.key_log(line);
    ctx.log("external: " + std::to_string(lines.size()) + " key log lines from client.keys and server.keys");
    if (lines.empty()) ctx.log("external: no key log: the captures will not decrypt past Initial packets");
    if (const std::string unread = relay.unread_by_selectors(); !unread.empty()) {
      ctx.log("external: " + unread);
      return {RunOutcome::Status::error, unread};
    }
    // A client killed by a signal judged on what it managed to send would pass
    // checks that only look for faults (no_connection_error).
    if (crashed)
      return {RunOutcome::Status::error, "client (" + client.profile->name + ") ended abnormally: " +
                                             client_process->how_it_ended() + ": " + client_process->stderr_tail()};
    // A client that gave up before sending anything (a bad option, a knob it
    // refused) left nothing to judge: the server's checks must not FAIL for it.
    if (client_status && *client_status != 0 && !client_sent)
      return {RunOutcome::Status::error, "client (" + client.profile->name + ") ended (" +
                                             client_process->how_it_ended() + ") before sending a datagram: " +
                                             client_process->stderr_tail()};
    return {};
  }

  // conform asked the run to stop (Ctrl-C, its time limit) `when`: said in
  // the case log. A program already started is stopped and reaped as play
  // returns, and the throwaway folders go.
  static RunOutcome stopped(RunContext& ctx, const std::string& when) {
    ctx.log("external: conform stopped the run " + when);
    return {RunOutcome::Status::error, "stopped by conform " + when};
  }

  // Stopped while the client runs: both programs are stopped and reaped now.
  static RunOutcome stopped_early(RunContext& ctx, ChildProcess& client, ChildProcess& server) {
    const int client_status = client.stop(kStopGrace), server_status = server.stop(kStopGrace);
    return stopped(ctx, "before the client ended: client ended with status " + std::to_string(client_status) +
                            ", server with status " + std::to_string(server_status));
  }

  // Waits until the server has bound its port; empty, or why not.
  static std::string await_bound(const RunContext& ctx, ChildProcess& server, std::uint16_t port,
                                 const std::string& name) {
    const auto end = std::chrono::steady_clock::now() + kServerStartLimit;
    while (!udp_port_bound(port)) {
      if (ctx.stop_requested()) return "stopped";
      if (!server.running())
        return "server (" + name + ") exited with status " + std::to_string(server.stop(kStopGrace)) +
               " before binding UDP port " + std::to_string(port) + ": " + server.stderr_tail();
      if (std::chrono::steady_clock::now() > end)
        return "server (" + name + ") did not bind UDP port " + std::to_string(port) + " within " +
               std::to_string(kServerStartLimit.count()) + " ms: " + server.stderr_tail();
      std::this_thread::sleep_for(milliseconds(5));
    }
    return {};
  }

  ProfileSet profiles_;
  PluginInfo info_;
  /// What the runs make once and share (certificates); made here, before
  /// the runs are forked.
  RunCache shared_;
  /// The knobs of in_house_knobs.hpp (also in info_.knobs).
  std::vector<ValueSpec> in_house_;
};

}  // namespace
}  // namespace external

CONFORM_PLUGIN(external::ExternalPlugin)

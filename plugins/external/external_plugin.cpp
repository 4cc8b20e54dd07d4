// The external plugin: third-party QUIC clients and servers, declared in
// TOML profiles, run as real programs with their UDP through the
// framework's loopback relay (impairments from the case's `network` table,
// captures written by the relay), their key logs collected into the case's
// keys.log so the checks decrypt the captures. This is how a user plugs in
// a QUIC stack without writing C++ (docs/plugins.md).
#include "child_process.hpp"
#include "command_template.hpp"
#include "profile.hpp"
#include "run_files.hpp"
#include "workload.hpp"

#include <conform/plugin_export.hpp>

#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
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

// Node.js and Deno servers load a runtime first: on a loaded machine that
// takes seconds before the socket is bound.
constexpr milliseconds kServerStartLimit{15000};
constexpr milliseconds kStopGrace{1000};

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

std::string join(const std::vector<std::string>& parts, const char* sep) {
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : sep) + p;
  return out;
}

std::string shell_line(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env) {
  std::string line;
  for (const auto& [k, v] : env) line += k + "=" + v + " ";
  return line + join(argv, " ");
}

std::int64_t whole_seconds(std::int64_t ms) { return std::max<std::int64_t>(1, (ms + 999) / 1000); }

// The build folder: the plugin's tools (conform-quic, conform-quic-go) and
// the npm-installed peers (peers/).
fs::path build_dir() { return plugin_dir().parent_path(); }

// The placeholder values of one role.
std::map<std::string, std::string> values_for(const CaseSettings& s, const std::string& role,
                                              const std::string& dir, std::uint16_t port) {
  const ValueMap& knobs = s.knobs.at(role);
  auto knob = [&](const char* name) { return std::to_string(value_or<std::int64_t>(knobs, name, 0)); };
  const std::string authority = "127.0.0.1:" + std::to_string(port);
  const std::int64_t idle_ms = value_or<std::int64_t>(knobs, "max_idle_timeout_ms", 5000);
  // The server starts first and is stopped after the client: its own limit
  // must not end it while the client, started late on a loaded machine,
  // still works.
  const std::int64_t time_limit_ms = value_or<std::int64_t>(s.params, "time_limit_ms", 20000) +
                                     (role == "server" ? kServerStartLimit.count() : 0);
  std::map<std::string, std::string> values = stream_work(s, role);
  values.insert({{"address", "127.0.0.1"},
          {"port", std::to_string(port)},
          {"authority", authority},
          {"url", "https://" + authority + "/response.bin"},
          {"path", "/response.bin"},
          {"htdocs", dir + "/htdocs"},
          {"download_dir", dir + "/download"},
          {"cert", dir + "/cert.pem"},
          {"key", dir + "/key.pem"},
          {"keylog", dir + "/" + role + ".keys"},
          {"requests", std::to_string(value_or<std::int64_t>(s.params, "requests", 1))},
          {"response_bytes", std::to_string(value_or<std::int64_t>(s.params, "response_bytes", 0))},
          {"max_streams_bidi", knob("initial_max_streams_bidi")},
          {"max_streams_uni", knob("initial_max_streams_uni")},
          {"max_data", knob("initial_max_data")},
          {"max_stream_data", knob("initial_max_stream_data")},
          {"idle_timeout_ms", std::to_string(idle_ms)},
          {"idle_timeout_s", std::to_string(whole_seconds(idle_ms))},
          {"time_limit_ms", std::to_string(time_limit_ms)},
          {"time_limit_s", std::to_string(whole_seconds(time_limit_ms))},
          {"peers", (build_dir() / "peers").string()}});
  return values;
}

// One role's program, ready to start.
struct Launch {
  std::vector<std::string> argv;
  std::map<std::string, std::string> env;
};

Launch launch_of(const RoleCommand& c, const std::string& program, const std::map<std::string, std::string>& values) {
  Launch l{{program}, {}};
  for (const auto& a : c.args) l.argv.push_back(expand(a, values));
  for (const auto& [k, v] : c.env) l.env[k] = expand(v, values);
  return l;
}

// Each request on a bidirectional stream of its own, as HTTP/3 does (RFC
// 9114 §6.1); the request bytes are the programs' own, so only the
// responses' are declared.
class ExternalPlugin final : public Plugin {
 public:
  ExternalPlugin() : profiles_(load_profiles(profile_dirs())) {
    info_.name = "external";
    info_.version = "0.1.0";
    info_.time_model = TimeModel::real;
    info_.roles = {"client", "server"};
    info_.scenarios = scenarios();
    std::vector<std::string> names;
    for (const auto& p : profiles_.profiles) names.push_back(p.name);
    const bool has_conform = profiles_.find("conform") != nullptr;
    const std::string fallback = has_conform ? "conform" : names.empty() ? "" : names.front();
    info_.knobs = {
        {"implementation", ValueType::string, Value{fallback},
         "the profile playing this role: " + (names.empty() ? std::string("none found") : join(names, ", ")), names},
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
         "idle timeout, ms ({idle_timeout_ms}, {idle_timeout_s}); 0: none", {}, 0, 86400000}};
    info_.problems = profiles_.problems;
    add_missing_programs();
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
  // The profile of `role` and its program's path, or why the run cannot happen.
  struct Resolved {
    const Profile* profile = nullptr;
    std::string program;
    std::string problem;
  };

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
    if (r.profile->workload != workload_of(s.scenario)) {
      r.problem = "profile '" + name + "' speaks the " + to_string(r.profile->workload) + " workload, scenario '" +
                  s.scenario + "' needs " + to_string(workload_of(s.scenario));
      return r;
    }
    const std::string tools = build_dir().string();
    auto missing = [&](const std::string& file) {
      r.problem = "profile '" + name + "' (" + role + "): " + file + " is missing (scripts/setup.sh installs it)";
      return r;
    };
    for (const auto& need : command->needs)
      if (!fs::exists(fs::path(tools) / need)) return missing((fs::path(tools) / need).string());
    // A relative path names a file of the build (an npm package's binary).
    if (command->program.find('/') != std::string::npos && fs::path(command->program).is_relative()) {
      r.program = (fs::path(tools) / command->program).string();
      if (access(r.program.c_str(), X_OK) != 0) return missing(r.program);
      return r;
    }
    r.program = program_path(command->program, {tools});
    if (r.program.empty()) r.problem = "profile '" + name + "' (" + role + "): " + not_found(*command);
    return r;
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

  static std::string not_found(const RoleCommand& command) {
    return "program '" + command.program + "' not found in " + build_dir().string() +
           ", $PATH, /usr/local/sbin, /usr/sbin or /sbin";
  }

  // A user's own profile (CONFORM_EXTERNAL_PROFILES) names the stack under
  // test: a program missing there is a problem of the input, which refuses
  // the cases, never UNSUPPORTED (a CI gate would go green on nothing). A
  // shipped profile's program is an optional package: its runs are
  // UNSUPPORTED, naming it.
  void add_missing_programs() {
    const fs::path shipped = shipped_profile_dir();
    for (const auto& p : profiles_.profiles) {
      if (fs::path(p.file).parent_path() == shipped) continue;
      for (const auto* command : {&p.client, &p.server})
        if (*command && program_path((*command)->program, {build_dir().string()}).empty())
          info_.problems.push_back({p.file, (*command)->line, (*command)->column, not_found(**command)});
    }
  }

  RunOutcome play(RunContext& ctx) const {
    const CaseSettings& s = ctx.settings();
    const Resolved client = resolve(s, "client"), server = resolve(s, "server");
    for (const Resolved* r : {&server, &client})
      if (!r->problem.empty()) {
        ctx.log("external: " + r->problem);
        return {RunOutcome::Status::unsupported, r->problem};
      }
    if (auto why = key_log_sources(ctx, client, server); !why.empty()) {
      ctx.log("external: " + why);
      return {RunOutcome::Status::unsupported, why};
    }
    const std::string openssl = program_path("openssl", {});
    if (openssl.empty()) return {RunOutcome::Status::unsupported, "program 'openssl' not found (it makes the certificate)"};

    const std::string dir = ctx.artifact_dir();
    fs::create_directories(dir + "/htdocs");
    fs::create_directories(dir + "/download");
    if (auto why = make_certificate(openssl, dir); !why.empty()) return {RunOutcome::Status::error, why};
    if (!write_body(dir + "/htdocs/response.bin", value_or<std::int64_t>(s.params, "response_bytes", 0)))
      return {RunOutcome::Status::error, "cannot write " + dir + "/htdocs/response.bin"};

    const std::uint16_t server_port = free_udp_port();
    if (server_port == 0) return {RunOutcome::Status::error, "no free UDP port on 127.0.0.1"};
    const Launch server_launch =
        launch_of(*server.profile->server, server.program, values_for(s, "server", dir, server_port));
    ctx.log("external: server (" + server.profile->name + "): " + shell_line(server_launch.argv, server_launch.env));
    ChildProcess server_process(server_launch.argv, server_launch.env, dir + "/server");
    if (!server_process.error().empty()) return {RunOutcome::Status::error, server_process.error()};
    if (auto why = await_bound(server_process, server_port, server.profile->name); !why.empty())
      return {RunOutcome::Status::error, why};

    LoopbackRelay& relay = ctx.relay(server_port);
    if (!relay.error().empty()) return {RunOutcome::Status::error, "relay: " + relay.error()};
    const Launch client_launch =
        launch_of(*client.profile->client, client.program, values_for(s, "client", dir, relay.port()));
    ctx.log("external: client (" + client.profile->name + "): " + shell_line(client_launch.argv, client_launch.env));
    ChildProcess client_process(client_launch.argv, client_launch.env, dir + "/client");
    if (!client_process.error().empty()) return {RunOutcome::Status::error, client_process.error()};

    const milliseconds limit{value_or<std::int64_t>(s.params, "time_limit_ms", 20000)};
    bool crashed = false;
    if (client_process.wait_for(limit)) {
      ctx.log("external: the client ended: " + client_process.how_it_ended());
      crashed = client_process.killed();
    } else
      ctx.log("external: the client was still running after time_limit_ms " + std::to_string(limit.count()) +
              ": stopped with status " + std::to_string(client_process.stop(kStopGrace)));
    // The client's last datagrams (its CONNECTION_CLOSE) cross the relay first.
    const double rtt_ms = value_or<double>(s.network, "rtt_ms", 10);
    std::this_thread::sleep_for(milliseconds(100 + static_cast<std::int64_t>(2 * rtt_ms)));
    if (server_process.running())
      ctx.log("external: server stopped with status " + std::to_string(server_process.stop(kStopGrace)));
    else
      ctx.log("external: the server had exited with status " + std::to_string(server_process.stop(kStopGrace)) +
              ": " + server_process.stderr_tail());
    relay.stop();

    const auto lines = key_log_lines({dir + "/client.keys", dir + "/server.keys"});
    for (const auto& line : lines) ctx.key_log(line);
    ctx.log("external: " + std::to_string(lines.size()) + " key log lines from client.keys and server.keys");
    if (lines.empty()) ctx.log("external: no key log: the captures will not decrypt past Initial packets");
    // A client killed by a signal judged on what it managed to send would pass
    // checks that only look for faults (no_connection_error).
    if (crashed)
      return {RunOutcome::Status::error, "client (" + client.profile->name + ") ended abnormally: " +
                                             client_process.how_it_ended() + ": " + client_process.stderr_tail()};
    return {};
  }

  // Waits until the server has bound its port; empty, or why not.
  static std::string await_bound(ChildProcess& server, std::uint16_t port, const std::string& name) {
    const auto end = std::chrono::steady_clock::now() + kServerStartLimit;
    while (!udp_port_bound(port)) {
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
};

}  // namespace
}  // namespace external

CONFORM_PLUGIN(external::ExternalPlugin)

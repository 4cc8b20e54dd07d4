// conform-quic: the in-house QUIC on real UDP sockets with a minimal HTTP/3,
// so any other implementation can be pointed at it (and it at them).
//   conform-quic server --listen 127.0.0.1:4433 --cert C --key K [--htdocs D]
//   conform-quic client https://127.0.0.1:4433/file [-n N] [--output-dir D]
// Both take --keylog FILE, --pcap FILE, --seed N and every knob of the
// in-house QUIC (tool/knob_options.hpp), and --workload raw-quic with the
// raw-QUIC stream workload's options (tool/raw_app.hpp) in place of HTTP/3. Exit status: 0 success, 1 a failed transfer or
// connection, 2 bad arguments or unreadable files.
#include <CLI/CLI.hpp>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "scenarios/knobs.hpp"
#include "tool/h3_apps.hpp"
#include "tool/knob_options.hpp"
#include "tool/raw_app.hpp"

namespace {

using namespace conform::quic;

constexpr int kExitFailure = 1;
constexpr int kExitUsage = 2;

std::atomic<bool> g_stop{false};

void on_signal(int) { g_stop = true; }

struct CommonOptions {
  std::string keylog, pcap;
  std::string workload = "http3";
  tool::RawWork raw;
  Config config;
  /// DriverOptions::violation_answer, in ms.
  int64_t violation_answer_ms = 1000;
  /// The knobs given on the command line (tool/knob_options.hpp).
  conform::ValueMap knobs;
};

// CLI11 reads "-1" into an unsigned field as 2^64-1, and clamps a value
// above 2^64-1 to it: refuse the sign and the overflow first.
const CLI::Validator kNotNegative(
    [](std::string& text) {
      if (text.find('-') == 0) return "Value " + text + " is negative";
      errno = 0;
      std::strtoull(text.c_str(), nullptr, 0);
      return errno == ERANGE ? "Value " + text + " is above 18446744073709551615" : std::string();
    },
    "NOT NEGATIVE");

void add_common_options(CLI::App& cmd, CommonOptions& o) {
  cmd.add_option("--keylog", o.keylog, "append NSS key log lines (TLS secrets) to this file")->type_name("FILE");
  cmd.add_option("--pcap", o.pcap, "write every datagram sent and received to this pcap")->type_name("FILE");
  cmd.add_option("--seed", o.config.seed, "seed of the connection IDs")->check(kNotNegative)->capture_default_str();
  tool::add_knob_options(cmd, o.knobs);
  // Every third-party stack that answered a violation in suites/interop did
  // so within 90 ms of it (RTT 10 ms); a second is ten times that.
  cmd.add_option("--violation-answer-ms", o.violation_answer_ms,
                 "with --violation: abandon the connection once the peer, not having closed it, has been silent "
                 "this long since the violation went out (0: wait for the idle timeout)")
      ->check(CLI::Range(int64_t{0}, int64_t{86'400'000}))->capture_default_str();
  cmd.add_option("--workload", o.workload, "http3, or raw-quic: the raw-QUIC stream workload (ALPN quic, docs/interop.md)")
      ->check(CLI::IsMember({"http3", "raw-quic"}))->capture_default_str();
  const auto streams = CLI::Range(uint64_t{0}, uint64_t{1'000'000});
  cmd.add_option("--open-uni", o.raw.open_uni, "raw-quic: unidirectional streams to open")->check(streams);
  cmd.add_option("--open-bidi", o.raw.open_bidi, "raw-quic: bidirectional streams to open")->check(streams);
  cmd.add_option("--bytes", o.raw.bytes, "raw-quic: bytes on each opened stream before its FIN")
      ->check(CLI::Range(uint64_t{0}, uint64_t{1} << 30))->capture_default_str();
}

bool raw(const CommonOptions& o) { return o.workload == "raw-quic"; }

udp::DriverOptions driver_options(const CommonOptions& o, uint64_t max_connections) {
  return {o.keylog, o.pcap, max_connections, Duration::millis(o.violation_answer_ms)};
}

// The knobs over the tool's defaults: the workload's ALPN unless --alpn says otherwise.
bool finish_config(CommonOptions& o) {
  o.config.alpn = {raw(o) ? "quic" : "h3"};
  std::string problem = apply_knobs(o.knobs, o.config);
  if (problem.empty() && raw(o) && of_http3(o.config.violation))
    problem = "--violation: an HTTP/3 violation needs --workload http3";
  if (!problem.empty()) std::fprintf(stderr, "conform-quic: %s\n", problem.c_str());
  return problem.empty();
}

std::optional<std::string> slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct Target {
  udp::UdpAddress address;
  std::string authority, path;
};

// "https://HOST:PORT/path" with HOST an IPv4 address or "localhost".
std::optional<Target> parse_url(const std::string& url) {
  const std::string scheme = "https://";
  if (url.rfind(scheme, 0) != 0) return std::nullopt;
  const size_t slash = url.find('/', scheme.size());
  Target t;
  t.authority = url.substr(scheme.size(), slash == std::string::npos ? std::string::npos : slash - scheme.size());
  t.path = slash == std::string::npos ? "/" : url.substr(slash);
  std::string hostport = t.authority;
  if (hostport.rfind("localhost:", 0) == 0) hostport = "127.0.0.1" + hostport.substr(9);
  auto a = udp::UdpAddress::parse(hostport);
  if (!a || a->port == 0) return std::nullopt;
  t.address = *a;
  return t;
}

int run_server(CommonOptions& o, const std::string& listen, const std::string& cert_path,
               const std::string& key_path, const std::string& htdocs, uint64_t max_connections,
               uint64_t reserved_uni) {
  const auto address = udp::UdpAddress::parse(listen);
  if (!address) {
    std::fprintf(stderr, "conform-quic: --listen %s: expected IPv4-ADDRESS:PORT\n", listen.c_str());
    return kExitUsage;
  }
  const auto cert_pem = slurp(cert_path), key_pem = slurp(key_path);
  if (!cert_pem || !key_pem) {
    std::fprintf(stderr, "conform-quic: cannot read %s\n", (!cert_pem ? cert_path : key_path).c_str());
    return kExitUsage;
  }
  std::string error;
  o.config.certificate = TestCertificate::from_pem(*cert_pem, *key_pem, error);
  if (!o.config.certificate) {
    std::fprintf(stderr, "conform-quic: %s, %s: %s\n", cert_path.c_str(), key_path.c_str(), error.c_str());
    return kExitUsage;
  }
  const udp::DriverOptions d = driver_options(o, max_connections);
  auto make_app = [htdocs, reserved_uni, &o](Connection& c) -> std::unique_ptr<udp::ConnectionApp> {
    if (raw(o)) return std::make_unique<tool::RawApp>(c, o.raw, false);
    return std::make_unique<tool::ServerApp>(c, htdocs, reserved_uni);
  };
  auto driver = udp::UdpDriver::server(*address, o.config, make_app, d, error);
  if (!driver) {
    std::fprintf(stderr, "conform-quic: %s\n", error.c_str());
    return kExitUsage;
  }
  std::printf("listening on %s\n", driver->local_address().to_string().c_str());
  std::fflush(stdout);
  driver->run(g_stop);
  std::printf("served %llu connection(s)\n", static_cast<unsigned long long>(driver->connections_accepted()));
  return 0;
}

// How the client's connection ended, for its closing line.
std::string close_text(const udp::UdpDriver& driver) {
  if (driver.client_abandoned()) return "abandoned (no answer to the violation)";
  const auto& why = driver.client_connection()->close_reason();
  if (!why) return "still open (timeout)";
  return std::string(why->by_peer ? "closed by the server: " : "closed: ") +
         (why->error.reason.empty() ? std::to_string(why->error.code) : why->error.reason);
}

// The raw-QUIC workload's client: exit 0 once its work is done and it
// closed with application error 0.
int run_raw_client(CommonOptions& o, udp::UdpAddress server, unsigned timeout_s) {
  tool::RawApp* app = nullptr;
  auto make_app = [&](Connection& c) {
    auto a = std::make_unique<tool::RawApp>(c, o.raw, true);
    app = a.get();
    return a;
  };
  std::string error;
  auto driver = udp::UdpDriver::client(server, o.config, make_app, driver_options(o, 0), error);
  if (!driver) {
    std::fprintf(stderr, "conform-quic: %s\n", error.c_str());
    return kExitUsage;
  }
  alarm(timeout_s);
  driver->run(g_stop);
  const auto& why = driver->client_connection()->close_reason();
  std::printf("raw workload %s; connection %s\n", app->done() ? "done" : "not done", close_text(*driver).c_str());
  return app->done() && why && !why->by_peer ? 0 : kExitFailure;
}

int run_client(CommonOptions& o, const std::vector<std::string>& urls, size_t n, const std::string& output_dir,
               unsigned timeout_s) {
  std::vector<Target> targets;
  for (const std::string& u : urls) {
    auto t = parse_url(u);
    if (!t) {
      std::fprintf(stderr, "conform-quic: %s: expected https://IPV4-ADDRESS:PORT/path\n", u.c_str());
      return kExitUsage;
    }
    if (!targets.empty() && !(t->address == targets.front().address)) {
      std::fprintf(stderr, "conform-quic: %s: every URL must name the same server (one connection)\n", u.c_str());
      return kExitUsage;
    }
    targets.push_back(*t);
  }
  std::vector<std::string> paths;
  for (size_t i = 0; i < std::max(n, targets.size()); ++i) paths.push_back(targets[i % targets.size()].path);
  std::error_code ec;
  if (!output_dir.empty() && !std::filesystem::is_directory(output_dir, ec)) {
    std::fprintf(stderr, "conform-quic: --output-dir %s: not a folder\n", output_dir.c_str());
    return kExitUsage;
  }
  o.config.server_name = "localhost";
  if (raw(o)) return run_raw_client(o, targets.front().address, timeout_s);
  tool::ClientApp* app = nullptr;
  auto make_app = [&](Connection& c) {
    auto a = std::make_unique<tool::ClientApp>(c, targets.front().authority, paths, output_dir);
    app = a.get();
    return a;
  };
  std::string error;
  auto driver = udp::UdpDriver::client(targets.front().address, o.config, make_app,
                                       driver_options(o, 0), error);
  if (!driver) {
    std::fprintf(stderr, "conform-quic: %s\n", error.c_str());
    return kExitUsage;
  }
  alarm(timeout_s);
  driver->run(g_stop);
  size_t ok = 0;
  for (const tool::Fetched& f : app->fetched()) {
    std::printf("%s %d %zu%s%s\n", f.path.c_str(), f.status, f.bytes, f.error.empty() ? "" : " ",
                f.error.c_str());
    ok += f.error.empty() && f.status == 200;
  }
  const Connection* c = driver->client_connection();
  const auto& why = c->close_reason();
  const bool clean = why && why->application && why->error.code == h3::error::no_error;
  std::printf("%zu of %zu requests answered 200; connection %s\n", ok, paths.size(), close_text(*driver).c_str());
  return ok == paths.size() && clean ? 0 : kExitFailure;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"conform-quic: the conform project's own QUIC v1 + HTTP/3 on UDP, for interop"};
  app.require_subcommand(1);

  CommonOptions server_opts;
  std::string listen, cert, key, htdocs = ".";
  uint64_t max_connections = 0, reserved_uni = 0;
  auto* server = app.add_subcommand("server", "serve files over HTTP/3");
  server->add_option("--listen", listen, "IPv4-ADDRESS:PORT to bind (port 0: any)")->required();
  server->add_option("--cert", cert, "certificate, PEM")->required()->type_name("FILE");
  server->add_option("--key", key, "private key, PEM")->required()->type_name("FILE");
  server->add_option("--htdocs", htdocs, "document root")
      ->check(CLI::ExistingDirectory)->capture_default_str()->type_name("DIR");
  server->add_option("--max-connections", max_connections,
                     "exit once this many connections came and closed (0: run until SIGINT/SIGTERM; default 0, but 1 "
                     "with --violation: the run is over once the connection that commits it is)")
      ->check(kNotNegative);
  server->add_option("--reserved-uni", reserved_uni,
                     "on each connection, first open this many unidirectional streams of reserved types "
                     "(RFC 9114 §6.2.3) toward the client, as its MAX_STREAMS_UNI allows, and answer no request "
                     "before the last is open")
      ->check(CLI::Range(uint64_t{0}, uint64_t{1'000'000}))->capture_default_str();
  add_common_options(*server, server_opts);

  CommonOptions client_opts;
  std::vector<std::string> urls;
  size_t n = 0;
  std::string output_dir;
  unsigned timeout_s = 30;
  auto* client = app.add_subcommand("client", "fetch URLs over HTTP/3 on one connection");
  client->add_option("urls", urls, "https://IPv4-ADDRESS:PORT/path ...")->required();
  client->add_option("-n", n, "number of requests (URLs repeat in order); default one per URL")
      ->check(CLI::Range(size_t{1}, size_t{1'000'000}));
  client->add_option("--output-dir", output_dir, "save response bodies here")->type_name("DIR");
  client->add_option("--timeout", timeout_s, "give up after this many seconds")
      ->check(CLI::Range(1u, 86400u))->capture_default_str();
  client->add_option("--expect-uni", client_opts.raw.expect_uni,
                     "raw-quic: unidirectional streams from the server to read to FIN before closing")
      ->check(CLI::Range(uint64_t{0}, uint64_t{1'000'000}));
  client->add_option("--expect-bidi", client_opts.raw.expect_bidi,
                     "raw-quic: bidirectional streams from the server to read to FIN before closing")
      ->check(CLI::Range(uint64_t{0}, uint64_t{1'000'000}));
  add_common_options(*client, client_opts);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : kExitUsage;
  }
  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
  std::signal(SIGALRM, on_signal);
  if (*server) {
    if (!finish_config(server_opts)) return kExitUsage;
    // A violating server's run is about one connection: ending with it lets
    // a client that goes on (a browser retrying) end the run early, unless
    // --max-connections says otherwise.
    if (server_opts.config.violation != Violation::none && server->count("--max-connections") == 0)
      max_connections = 1;
    return run_server(server_opts, listen, cert, key, htdocs, max_connections, reserved_uni);
  }
  return finish_config(client_opts) ? run_client(client_opts, urls, n, output_dir, timeout_s) : kExitUsage;
}

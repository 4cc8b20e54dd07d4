// conform-quic: the in-house QUIC on real UDP sockets with a minimal HTTP/3,
// so any other implementation can be pointed at it (and it at them).
//   conform-quic server --listen 127.0.0.1:4433 --cert C --key K [--htdocs D]
//   conform-quic client https://127.0.0.1:4433/file [-n N] [--output-dir D]
// Both take --keylog FILE and --pcap FILE, and the transport parameters
// and knobs of Config. Exit status: 0 success, 1 a failed transfer or
// connection, 2 bad arguments or unreadable files.
#include <CLI/CLI.hpp>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "tool/h3_apps.hpp"

namespace {

using namespace conform::quic;

constexpr int kExitFailure = 1;
constexpr int kExitUsage = 2;

std::atomic<bool> g_stop{false};

void on_signal(int) { g_stop = true; }

struct CommonOptions {
  std::string keylog, pcap;
  Config config;
  std::string max_streams_policy = "half_window";
  std::string open_when_blocked = "wait";
  std::string tls_groups = "x25519";
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

// A variable-length integer (RFC 9000 §16): 0 to 2^62-1.
CLI::Option* varint(CLI::Option* option) {
  return option->check(kNotNegative)->check(CLI::Range(uint64_t{0}, (uint64_t{1} << 62) - 1));
}

void add_common_options(CLI::App& cmd, CommonOptions& o) {
  Config& c = o.config;
  cmd.add_option("--keylog", o.keylog, "append NSS key log lines (TLS secrets) to this file")->type_name("FILE");
  cmd.add_option("--pcap", o.pcap, "write every datagram sent and received to this pcap")->type_name("FILE");
  cmd.add_option("--seed", c.seed, "seed of the connection IDs")->check(kNotNegative)->capture_default_str();
  // Transport parameters, RFC 9000 §18.2.
  varint(cmd.add_option("--max-idle-timeout-ms", c.max_idle_timeout_ms))->capture_default_str();
  cmd.add_option("--max-udp-payload-size", c.max_udp_payload_size)->check(CLI::Range(1200, 65527))->capture_default_str();
  varint(cmd.add_option("--initial-max-data", c.initial_max_data))->capture_default_str();
  varint(cmd.add_option("--initial-max-stream-data-bidi-local", c.initial_max_stream_data_bidi_local))->capture_default_str();
  varint(cmd.add_option("--initial-max-stream-data-bidi-remote", c.initial_max_stream_data_bidi_remote))->capture_default_str();
  varint(cmd.add_option("--initial-max-stream-data-uni", c.initial_max_stream_data_uni))->capture_default_str();
  cmd.add_option("--initial-max-streams-bidi", c.initial_max_streams_bidi)->check(kNotNegative)->check(CLI::Range(uint64_t{0}, uint64_t{1} << 60))->capture_default_str();
  cmd.add_option("--initial-max-streams-uni", c.initial_max_streams_uni)->check(kNotNegative)->check(CLI::Range(uint64_t{0}, uint64_t{1} << 60))->capture_default_str();
  cmd.add_option("--ack-delay-exponent", c.ack_delay_exponent)->check(CLI::Range(0, 20))->capture_default_str();
  cmd.add_option("--max-ack-delay-ms", c.max_ack_delay_ms)->check(CLI::Range(0, 16383))->capture_default_str();
  cmd.add_option("--active-connection-id-limit", c.active_connection_id_limit)->check(CLI::Range(2, 1000))->capture_default_str();
  // Behaviours under test (config.hpp).
  cmd.add_option("--emit-max-streams", c.emit_max_streams, "false: never raise the peer's stream limit")->capture_default_str();
  cmd.add_option("--max-streams-policy", o.max_streams_policy)
      ->check(CLI::IsMember({"half_window", "every_stream", "half_window_opened"}))->capture_default_str();
  cmd.add_option("--emit-streams-blocked", c.emit_streams_blocked)->capture_default_str();
  cmd.add_option("--emit-data-blocked", c.emit_data_blocked)->capture_default_str();
  cmd.add_option("--open-stream-when-blocked", o.open_when_blocked)->check(CLI::IsMember({"wait", "fail"}))->capture_default_str();
  cmd.add_option("--tls-groups", o.tls_groups)->check(CLI::IsMember({"x25519", "p256", "cecpq2"}))->capture_default_str();
  cmd.add_option("--initial-mtu", c.initial_mtu)->check(CLI::Range(1200, 65527))->capture_default_str();
  varint(cmd.add_option("--key-update-interval-packets", c.key_update_interval_packets))->capture_default_str();
}

void finish_config(CommonOptions& o) {
  Config& c = o.config;
  c.alpn = {"h3"};
  c.max_streams_policy = o.max_streams_policy == "every_stream"         ? MaxStreamsPolicy::every_stream
                         : o.max_streams_policy == "half_window_opened" ? MaxStreamsPolicy::half_window_opened
                                                                        : MaxStreamsPolicy::half_window;
  c.open_stream_when_blocked = o.open_when_blocked == "fail" ? OpenWhenBlocked::fail : OpenWhenBlocked::wait;
  c.tls_groups = o.tls_groups == "p256" ? TlsGroups::p256 : o.tls_groups == "cecpq2" ? TlsGroups::cecpq2 : TlsGroups::x25519;
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
               const std::string& key_path, const std::string& htdocs, uint64_t max_connections) {
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
  udp::DriverOptions d{o.keylog, o.pcap, max_connections};
  auto make_app = [htdocs](Connection& c) { return std::make_unique<tool::ServerApp>(c, htdocs); };
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
  tool::ClientApp* app = nullptr;
  auto make_app = [&](Connection& c) {
    auto a = std::make_unique<tool::ClientApp>(c, targets.front().authority, paths, output_dir);
    app = a.get();
    return a;
  };
  std::string error;
  auto driver = udp::UdpDriver::client(targets.front().address, o.config, make_app,
                                       udp::DriverOptions{o.keylog, o.pcap, 0}, error);
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
  std::printf("%zu of %zu requests answered 200; connection %s%s\n", ok, paths.size(),
              why ? (why->by_peer ? "closed by the server: " : "closed: ") : "still open (timeout)",
              why ? (why->error.reason.empty() ? std::to_string(why->error.code).c_str() : why->error.reason.c_str()) : "");
  return ok == paths.size() && clean ? 0 : kExitFailure;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"conform-quic: the conform project's own QUIC v1 + HTTP/3 on UDP, for interop"};
  app.require_subcommand(1);

  CommonOptions server_opts;
  std::string listen, cert, key, htdocs = ".";
  uint64_t max_connections = 0;
  auto* server = app.add_subcommand("server", "serve files over HTTP/3");
  server->add_option("--listen", listen, "IPv4-ADDRESS:PORT to bind (port 0: any)")->required();
  server->add_option("--cert", cert, "certificate, PEM")->required()->type_name("FILE");
  server->add_option("--key", key, "private key, PEM")->required()->type_name("FILE");
  server->add_option("--htdocs", htdocs, "document root")
      ->check(CLI::ExistingDirectory)->capture_default_str()->type_name("DIR");
  server->add_option("--max-connections", max_connections,
                     "exit once this many connections came and closed (0: run until SIGINT/SIGTERM)")
      ->check(kNotNegative);
  server->add_flag("--retry", server_opts.config.retry, "validate addresses with Retry first");
  add_common_options(*server, server_opts);
  server_opts.config.initial_max_streams_bidi = 100;

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
    finish_config(server_opts);
    return run_server(server_opts, listen, cert, key, htdocs, max_connections);
  }
  finish_config(client_opts);
  return run_client(client_opts, urls, n, output_dir, timeout_s);
}

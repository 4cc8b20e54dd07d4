// The event loop of the real-socket driver.
#include "udp/udp_driver.hpp"

#include <poll.h>

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace conform::quic::udp {

namespace {

// Closed, or draining: nothing more to send or to wait for (RFC 9000 §10.2.2).
bool ended(const Connection& c) { return c.is_closed() || c.state() == ConnectionState::draining; }

constexpr size_t kMaxDatagram = 65536;
constexpr int kReceiveBatch = 256;             // datagrams read before timers and sends
constexpr int64_t kMaxWaitNs = 50'000'000;     // re-check the stop flag this often
constexpr size_t kServerCidLen = 8;            // what Connection issues (connection.cpp)

// The Destination Connection ID of a datagram's first packet (RFC 9000
// §17.2, §17.3: version-independent for long headers, RFC 8999 §5.1).
std::optional<std::string> dcid_of(ByteView d, size_t short_len) {
  if (d.empty()) return std::nullopt;
  if (d[0] & 0x80) {
    if (d.size() < 6 || d[5] > ConnectionId::kMaxLen || d.size() < 6u + d[5]) return std::nullopt;
    return std::string(d.begin() + 6, d.begin() + 6 + d[5]);
  }
  if (d.size() < 1 + short_len) return std::nullopt;
  return std::string(d.begin() + 1, d.begin() + 1 + static_cast<std::ptrdiff_t>(short_len));
}

std::string key_of(const ConnectionId& cid) { return std::string(cid.view().begin(), cid.view().end()); }

}  // namespace

Instant steady_now() {
  return Instant::from_nanos(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                 std::chrono::steady_clock::now().time_since_epoch())
                                 .count());
}

UdpDriver::UdpDriver(UdpSocket socket, const Config& config, AppFactory app)
    : socket_(std::move(socket)), self_(socket_.local_address()), config_(config), make_app_(std::move(app)) {}

UdpDriver::~UdpDriver() = default;

bool UdpDriver::open_files(const DriverOptions& options, std::string& error) {
  max_connections_ = options.max_connections;
  violation_answer_ = options.violation_answer;
  if (!options.pcap_path.empty()) {
    pcap_ = PcapLog::create(options.pcap_path, error);
    if (!pcap_) return false;
  }
  if (!options.keylog_path.empty()) {
    keylog_.open(options.keylog_path, std::ios::app);
    if (!keylog_) {
      error = options.keylog_path + ": cannot open the key log for writing";
      return false;
    }
    config_.keylog = [this](std::string_view line) {
      keylog_ << line << '\n';
      keylog_.flush();  // usable by a dissector while we run
    };
  }
  return true;
}

std::unique_ptr<UdpDriver> UdpDriver::client(UdpAddress server, const Config& config, AppFactory app,
                                             const DriverOptions& options, std::string& error) {
  auto socket = UdpSocket::bind(UdpAddress{0, 0}, error);
  if (!socket || !socket->connect(server, error)) return nullptr;
  std::unique_ptr<UdpDriver> d(new UdpDriver(std::move(*socket), config, std::move(app)));
  d->config_.is_server = false;
  if (!d->open_files(options, error)) return nullptr;
  auto conn = Connection::connect(d->config_, steady_now());
  if (!conn) {
    error = "cannot start the connection: " + conn.error().reason;
    return nullptr;
  }
  Endpoint& e = d->endpoints_[0];
  e.conn = std::move(conn.value());
  e.app = d->make_app_(*e.conn);
  e.peer = server;
  d->accepted_ = 1;
  d->flush(e, steady_now());
  return d;
}

std::unique_ptr<UdpDriver> UdpDriver::server(UdpAddress listen, const Config& config, AppFactory app,
                                             const DriverOptions& options, std::string& error) {
  auto socket = UdpSocket::bind(listen, error);
  if (!socket) return nullptr;
  std::unique_ptr<UdpDriver> d(new UdpDriver(std::move(*socket), config, std::move(app)));
  d->config_.is_server = true;
  d->is_server_ = true;
  if (!d->open_files(options, error)) return nullptr;
  return d;
}

const Connection* UdpDriver::client_connection() const {
  auto it = endpoints_.find(0);
  return is_server_ || it == endpoints_.end() ? nullptr : it->second.conn.get();
}

UdpDriver::Endpoint* UdpDriver::route(ByteView datagram, UdpAddress from) {
  if (!is_server_) {
    Endpoint& e = endpoints_.at(0);
    return from == e.peer ? &e : nullptr;
  }
  const auto dcid = dcid_of(datagram, kServerCidLen);
  if (!dcid) return nullptr;
  // Found by connection ID alone, never by address: a client's Initial
  // after a Retry carries the CID the Retry chose, which is the server's own
  // (connection_retry.cpp), and a client that opens its next connection from
  // the same address and port (lsquic does) is a new connection, not the
  // old one (whose packets it used to be handed to until the old one
  // closed, 9.5 s later: issue 40).
  if (auto it = by_cid_.find(*dcid); it != by_cid_.end()) return &endpoints_.at(it->second);
  return accept(datagram, from, *dcid);
}

UdpDriver::Endpoint* UdpDriver::accept(ByteView datagram, UdpAddress from, const std::string& dcid) {
  // Only a long header can open a connection (an Initial, or an unknown
  // version that Connection answers with Version Negotiation), and only in
  // a datagram of 1200 bytes or more (RFC 9000 §14.1).
  if (!(datagram[0] & 0x80) || datagram.size() < 1200) return nullptr;
  if (max_connections_ && accepted_ >= max_connections_) return nullptr;
  Config c = config_;
  c.seed = config_.seed + accepted_;  // distinct connection IDs per connection
  auto conn = Connection::accept(c, steady_now());
  if (!conn) return nullptr;
  const uint64_t id = accepted_++;
  Endpoint& e = endpoints_[id];
  e.conn = std::move(conn.value());
  e.app = make_app_(*e.conn);
  e.peer = from;
  e.initial_dcid = dcid;
  by_cid_[dcid] = id;
  by_cid_[key_of(e.conn->local_cid())] = id;
  return &e;
}

void UdpDriver::deliver(Endpoint& e, Instant now) {
  while (auto ev = e.conn->poll_event()) e.app->on_event(now, *ev);
}

void UdpDriver::flush(Endpoint& e, Instant now) {
  while (auto d = e.conn->poll_transmit(now)) {
    // A datagram the socket refused is lost like one the path dropped.
    if (socket_.send(e.peer, *d) && pcap_) pcap_->record(self_, e.peer, *d);
  }
}

void UdpDriver::receive(Instant now) {
  static thread_local Bytes buf(kMaxDatagram);
  std::vector<uint64_t> touched;
  for (int i = 0; i < kReceiveBatch; ++i) {
    UdpAddress from;
    const auto n = socket_.receive(buf, from);
    if (!n) break;
    const ByteView d(buf.data(), *n);
    if (pcap_) pcap_->record(from, self_, d);
    Endpoint* e = route(d, from);
    if (!e) continue;
    e->heard_at = now;
    e->conn->handle_datagram(now, d);
    for (auto& [id, ep] : endpoints_)
      if (&ep == e && (touched.empty() || touched.back() != id)) touched.push_back(id);
  }
  for (uint64_t id : touched) {
    Endpoint& e = endpoints_.at(id);
    if (e.abandoned) continue;
    deliver(e, now);
    flush(e, now);
  }
}

void UdpDriver::reap() {
  if (!is_server_) return;
  for (auto it = endpoints_.begin(); it != endpoints_.end();) {
    if (!it->second.conn->is_closed() && !it->second.abandoned) {
      ++it;
      continue;
    }
    by_cid_.erase(it->second.initial_dcid);
    by_cid_.erase(key_of(it->second.conn->local_cid()));
    it = endpoints_.erase(it);
  }
}

Instant UdpDriver::watch_violation(Endpoint& e, Instant now) {
  if (violation_answer_.ns == 0 || e.abandoned || ended(*e.conn) || !e.conn->violation_sent())
    return Instant::never();
  if (e.violation_at.is_never()) e.violation_at = now;
  const Instant since = e.heard_at.is_never() ? e.violation_at : std::max(e.violation_at, e.heard_at);
  if (now - since < violation_answer_) return since + violation_answer_;
  e.abandoned = true;
  std::fprintf(stderr, "conform-quic: after the violation, the peer was silent for %lld ms: connection abandoned\n",
               static_cast<long long>(violation_answer_.ns / 1'000'000));
  return Instant::never();
}

void UdpDriver::run(const std::atomic<bool>& stop) {
  // What the peer does after the violation is the verdict; once it had the
  // time to answer and did not, waiting out the idle timeout only adds
  // seconds to the run, not evidence.
  const auto over = [](const Endpoint& e) { return e.abandoned || ended(*e.conn); };
  while (!stop.load()) {
    Instant now = steady_now();
    Instant next = Instant::never();
    for (auto& [id, e] : endpoints_) {
      if (e.abandoned) continue;
      if (e.conn->next_timeout() <= now) {
        e.conn->handle_timeout(now);
        deliver(e, now);
        flush(e, now);
      }
      next = std::min({next, e.conn->next_timeout(), watch_violation(e, now)});
    }
    reap();
    // An endpoint whose peer closed has nothing left to send (RFC 9000
    // §10.2.2: a draining endpoint sends nothing), so neither a client nor a
    // server that has taken its last connection waits out the three PTOs of
    // the draining period; its own close it still repeats.
    if (!is_server_ && over(endpoints_.at(0))) return;
    if (is_server_ && max_connections_ && accepted_ >= max_connections_ &&
        std::all_of(endpoints_.begin(), endpoints_.end(), [&](const auto& e) { return over(e.second); }))
      return;
    const int64_t wait = next.is_never() ? kMaxWaitNs : std::clamp<int64_t>((next - now).ns, 0, kMaxWaitNs);
    pollfd p{socket_.fd(), POLLIN, 0};
    const timespec ts{0, static_cast<long>(wait)};
    if (ppoll(&p, 1, &ts, nullptr) > 0) receive(steady_now());
  }
}

}  // namespace conform::quic::udp

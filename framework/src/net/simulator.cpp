// The event loop, routing between endpoints, and the taps.
#include "net/simulator.hpp"

#include <algorithm>
#include <sstream>

namespace conform {
namespace {

constexpr std::uint16_t kServerPort = 4433;
constexpr std::uint16_t kFirstClientPort = 40000;
constexpr std::size_t kMaxSimulatedClients = 1000;
// An endpoint whose timer stays at or before `now` after this many
// consecutive handle_timeout calls at one instant would spin forever without
// moving virtual time on, which the budget alone cannot stop.
constexpr std::int64_t kMaxTimeoutsPerInstant = 10'000;
// Likewise for datagrams: an endpoint that always has one more to send at
// the same instant, or two that answer each other over a zero-delay path.
// No real exchange puts a million datagrams on one nanosecond.
constexpr std::int64_t kMaxDatagramsPerInstant = 1'000'000;

std::string vantage_of(std::size_t client) {
  return client == 0 ? "client" : "client-" + std::to_string(client + 1);
}

// "100", "2.5": milliseconds as a person writes them in a suite.
std::string format_ms(Duration d) {
  std::ostringstream out;
  out << d.ms();
  return out.str();
}

std::string node_name(int node) { return node == 0 ? "server" : vantage_of(node - 1); }

const char* packet_type_name(const std::optional<LongType>& t) {
  if (!t) return "1-RTT";
  switch (*t) {
    case LongType::initial: return "Initial";
    case LongType::zero_rtt: return "0-RTT";
    case LongType::handshake: return "Handshake";
    case LongType::retry: return "Retry";
  }
  return "?";
}

// "Handshake pn 0 [CRYPTO]"; "pn ?" when the keys could not read it.
std::string describe(const PacketContents& p) {
  std::string s = std::string(packet_type_name(p.type)) + " pn " +
                  (p.packet_number ? std::to_string(*p.packet_number) : "?") + " [";
  for (std::size_t i = 0; i < p.frames.size(); ++i)
    if (i == 0 || p.frames[i].name != p.frames[i - 1].name) s += (i ? " " : "") + std::string(p.frames[i].name);
  return s + "]";
}

// The packets of `c` but those `cut` out before the rest was lost.
std::string describe(const DatagramContents& c, const std::vector<std::size_t>& cut) {
  std::string s;
  for (std::size_t i = 0; i < c.packets.size(); ++i)
    if (std::find(cut.begin(), cut.end(), i) == cut.end()) s += (s.empty() ? "" : ", ") + describe(c.packets[i]);
  return s;
}

}  // namespace

struct Simulator::Node {
  Endpoint* endpoint = nullptr;
  UdpEndpoint address{};
  std::string vantage;
  CaptureWriter* tap = nullptr;
  /// A client's links: to the server (up) and from it (down).
  std::unique_ptr<Link> up, down;
};

struct Simulator::InFlight {
  Instant at;
  std::uint64_t seq = 0;
  int to = 0, from = 0;
  std::int64_t index = 0;
  bool corrupted = false, duplicate = false;
  std::vector<std::uint8_t> payload;
  // std::push_heap builds a max-heap; "greater" puts the earliest on top.
  bool operator<(const InFlight& o) const { return at != o.at ? at > o.at : seq > o.seq; }
};

std::string to_string(const NetEvent& e) {
  static const char* kinds[] = {"sent", "lost", "arrived", "timeout", "cut", "picked"};
  std::string s = std::to_string(e.at.ns()) + " " + kinds[static_cast<int>(e.kind)] + " ";
  if (e.kind == NetEvent::Kind::timeout) return s + node_name(e.node);
  const bool received = e.kind == NetEvent::Kind::arrived;
  const std::string peer = e.peer < 0 ? "?" : node_name(e.peer);
  s += received ? peer + "->" + node_name(e.node) : node_name(e.node) + "->" + peer;
  s += " #" + std::to_string(e.index) + " " + std::to_string(e.bytes) + " B";
  if (e.kind == NetEvent::Kind::lost || e.kind == NetEvent::Kind::cut || e.kind == NetEvent::Kind::picked)
    s += std::string(" (") + e.reason + ")";
  if (e.corrupted) s += " corrupted";
  if (e.duplicate) s += " duplicate";
  if (!e.packets.empty()) s += ": " + e.packets;
  return s;
}

Simulator::Simulator(NetConfig config, std::uint64_t seed, CaptureSource captures)
    : config_(std::move(config)), seed_(seed), captures_(std::move(captures)) {
  if (config_.selectors_read_contents())
    reader_ = std::make_unique<DatagramReader>();
  nodes_.emplace_back();
  timers_.push_back(Instant::never());
}

Simulator::~Simulator() = default;

std::optional<UdpEndpoint> Simulator::attach_server(Endpoint& server) {
  if (nodes_[0]) return std::nullopt;
  auto node = std::make_unique<Node>();
  node->endpoint = &server;
  node->address = {kServerAddress, kServerPort};
  node->vantage = "server";
  if (captures_) node->tap = captures_(node->vantage);
  nodes_[0] = std::move(node);
  return nodes_[0]->address;
}

std::optional<UdpEndpoint> Simulator::attach_client(Endpoint& client) {
  const std::size_t i = nodes_.size() - 1;
  if (i >= kMaxSimulatedClients) return std::nullopt;
  auto node = std::make_unique<Node>();
  node->endpoint = &client;
  node->address = {kClientAddress, static_cast<std::uint16_t>(kFirstClientPort + i)};
  node->vantage = vantage_of(i);
  const std::string name = "client-" + std::to_string(i + 1);
  node->up = std::make_unique<Link>(config_.sent_by("client"), "client", name, seed_, 2 * i);
  node->down = std::make_unique<Link>(config_.sent_by("server"), "server", "server", seed_, 2 * i + 1);
  if (captures_) node->tap = captures_(node->vantage);
  nodes_.push_back(std::move(node));
  timers_.push_back(Instant::never());  // until the next run polls it
  return nodes_.back()->address;
}

void Simulator::key_log(std::string_view line) {
  if (reader_) reader_->key_log(line);
}

void Simulator::emit(const NetEvent& e) {
  if (trace_) trace_(e);
}

int Simulator::route(UdpEndpoint to) const {
  if (to.address == kServerAddress && to.port == kServerPort) return 0;
  if (to.address != kClientAddress || to.port < kFirstClientPort) return -1;
  const std::size_t i = to.port - kFirstClientPort;
  return i + 1 < nodes_.size() ? static_cast<int>(i + 1) : -1;
}

void Simulator::pump(int node) {
  Node& n = *nodes_[node];
  while (auto t = n.endpoint->poll_transmit(now_)) {
    send(node, std::move(*t));
    if (++datagrams_now_ > kMaxDatagramsPerInstant) {
      if (stall_.empty())
        stall_ = node_name(node) + " keeps sending at " + std::to_string(now_.ns()) +
                 " ns without time moving on";
      break;
    }
  }
  // An endpoint's timer changes only when it is called, which is always
  // followed by this pump: reading it here keeps the loop from asking every
  // endpoint at every event.
  timers_[static_cast<std::size_t>(node)] = n.endpoint->next_timeout();
}

void Simulator::send(int from, Transmit t) {
  Node& n = *nodes_[from];
  if (n.tap) n.tap->write_udp(now_.ns(), n.address, t.to, t.payload);
  ++stats_.sent;
  NetEvent e{NetEvent::Kind::sent, now_, from, route(t.to), 0, t.payload.size()};
  // Clients reach only the server and the server only clients.
  if (e.peer < 0 || (from == 0) == (e.peer == 0)) {
    e.peer = -1;
    emit(e);
    ++stats_.lost;
    e.kind = NetEvent::Kind::lost;
    e.reason = "unroutable";
    emit(e);
    return;
  }
  Link& link = from == 0 ? *nodes_[e.peer]->down : *n.up;
  std::optional<DatagramContents> contents;
  if (reader_) contents = reader_->read(now_, n.address, t.to, t.payload);
  LinkOutcome out = link.send(now_, std::move(t.payload), contents ? &*contents : nullptr);
  e.index = out.index;
  emit(e);
  for (std::size_t i : out.cut) {
    NetEvent cut = e;
    cut.kind = NetEvent::Kind::cut;
    cut.reason = to_string(LossReason::drop_list);
    cut.bytes = contents->packets[i].length;
    cut.packets = describe(contents->packets[i]);
    emit(cut);
  }
  if (out.lost) {
    ++stats_.lost;
    e.kind = NetEvent::Kind::lost;
    e.reason = to_string(*out.lost);
    for (std::size_t i : out.cut) e.bytes -= contents->packets[i].length;
    if (contents) e.packets = describe(*contents, out.cut);
    emit(e);
    return;
  }
  for (const char* list : out.picked_by) {
    NetEvent picked = e;
    picked.kind = NetEvent::Kind::picked;
    picked.reason = list;
    if (contents) picked.packets = describe(*contents, out.cut);
    emit(picked);
  }
  for (auto& a : out.arrivals) {
    stats_.corrupted += a.corrupted;
    stats_.duplicated += a.duplicate;
    heap_.push_back({a.at, next_seq_++, e.peer, from, out.index, a.corrupted, a.duplicate,
                     std::move(a.payload)});
    std::push_heap(heap_.begin(), heap_.end());
  }
}

void Simulator::deliver(InFlight d) {
  Node& n = *nodes_[d.to];
  const UdpEndpoint from = nodes_[d.from]->address;
  if (n.tap) n.tap->write_udp(d.at.ns(), from, n.address, d.payload);
  ++stats_.arrived;
  emit({NetEvent::Kind::arrived, d.at, d.to, d.from, d.index, d.payload.size(), "", d.corrupted,
        d.duplicate});
  n.endpoint->handle_datagram(now_, d.payload, from);
  pump(d.to);
}

Instant Simulator::next_timer(int& node) const {
  Instant earliest = Instant::never();
  for (std::size_t i = 0; i < timers_.size(); ++i) {
    if (timers_[i] < earliest) {
      earliest = timers_[i];
      node = static_cast<int>(i);
    }
  }
  return earliest;
}

SimulationEnd Simulator::run() { return run_until(Instant::never()); }

SimulationEnd Simulator::run_until(Instant deadline) {
  using R = SimulationEnd::Reason;
  if (!nodes_[0]) return {R::misconfigured, now_, "no server attached"};
  const Instant budget_end = Instant() + config_.budget;
  const Instant stop = std::min(deadline, budget_end);
  if (!stall_.empty()) return {R::stalled, now_, stall_};
  // Every endpoint is polled when a run starts: new ones get their first
  // chance to send, and the plugin may have poked any of them between runs.
  for (std::size_t i = 0; i < nodes_.size(); ++i) pump(static_cast<int>(i));
  if (!stall_.empty()) return {R::stalled, now_, stall_};

  std::int64_t timeouts_now = 0;
  for (;;) {
    int timer_node = -1;
    const Instant timer = next_timer(timer_node);
    const Instant arrival = heap_.empty() ? Instant::never() : heap_.front().at;
    const Instant next = std::min(timer, arrival);
    if (next.is_never()) return {R::quiescent, now_, ""};
    if (next > stop) {
      now_ = std::max(now_, stop);
      if (stop == budget_end)
        return {R::budget_exhausted, now_,
                "no end within the virtual-time budget of " + format_ms(config_.budget) + " ms"};
      return {R::deadline, now_, ""};
    }
    if (next > now_) {
      now_ = next;
      timeouts_now = 0;
      datagrams_now_ = 0;
    }
    // At equal times arrivals go first: a datagram that arrives when a timer
    // fires is seen by the endpoint before it acts on the timer.
    if (arrival <= timer) {
      std::pop_heap(heap_.begin(), heap_.end());
      InFlight d = std::move(heap_.back());
      heap_.pop_back();
      deliver(std::move(d));
      if (!stall_.empty()) return {R::stalled, now_, stall_};
      continue;
    }
    if (++timeouts_now > kMaxTimeoutsPerInstant) {
      stall_ = node_name(timer_node) + " keeps its timer at " + std::to_string(now_.ns()) +
               " ns without moving on";
      return {R::stalled, now_, stall_};
    }
    emit({NetEvent::Kind::timeout, now_, timer_node});
    nodes_[timer_node]->endpoint->handle_timeout(now_);
    pump(timer_node);
    if (!stall_.empty()) return {R::stalled, now_, stall_};
  }
}

std::vector<std::string> Simulator::idle_selectors() const {
  std::vector<const Link*> links;
  for (const auto& n : nodes_)
    if (n && n->up) links.insert(links.end(), {n->up.get(), n->down.get()});
  return conform::idle_selectors(config_, links);
}

std::string Simulator::summary() const {
  return "network: sent " + std::to_string(stats_.sent) + ", arrived " +
         std::to_string(stats_.arrived) + ", lost " + std::to_string(stats_.lost) + ", corrupted " +
         std::to_string(stats_.corrupted) + ", duplicated " + std::to_string(stats_.duplicated) +
         ", virtual time " + std::to_string(now_.ns()) + " ns";
}

}  // namespace conform

// Loading a run's QUIC captures and the wording the QUIC checks share.
#include "check/quic/support/quic_check.hpp"

#include "check/quic/support/round_trip.hpp"
#include "check/quic/support/unseen_packets.hpp"
#include "common/input_error.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

namespace conform::quic_checks {

namespace fs = std::filesystem;

QuicRun::QuicRun(std::string artifact_dir) : dir_(std::move(artifact_dir)) {}

QuicRun::QuicRun(const QuicCaptures& prepared) : QuicRun(prepared.server, prepared.clients) {
  given_.emplace(prepared.vantage);
  observed_until_ = prepared.observed_until_ns;
  prepared_ = &prepared;
}

QuicRun QuicRun::of(const CheckInput& input) {
  if (const auto* prepared = dynamic_cast<const QuicCaptures*>(input.prepared)) return QuicRun(*prepared);
  return QuicRun(input.artifact_dir);
}

QuicRun::QuicRun(std::shared_ptr<const CaptureFacts> server, std::vector<std::shared_ptr<const CaptureFacts>> clients)
    : server_loaded_(true), clients_loaded_(true), server_(std::move(server)), clients_(std::move(clients)) {}

const CaptureFacts* QuicRun::server() const {
  if (!server_loaded_) {
    const auto path = fs::path(dir_) / "server.pcap";
    if (fs::exists(path)) server_ = cached_capture(path.string(), (fs::path(dir_) / "keys.log").string());
    server_loaded_ = true;
  }
  return server_.get();
}

std::vector<const CaptureFacts*> QuicRun::clients() const {
  if (!clients_loaded_) {
    const auto keys = (fs::path(dir_) / "keys.log").string();
    for (int k = 1;; ++k) {
      const auto path = fs::path(dir_) / (k == 1 ? std::string("client.pcap") : fmt::format("client-{}.pcap", k));
      if (!fs::exists(path)) break;
      clients_.push_back(cached_capture(path.string(), keys));
    }
    clients_loaded_ = true;
  }
  std::vector<const CaptureFacts*> out;
  for (const auto& c : clients_) out.push_back(c.get());
  return out;
}

std::vector<const CaptureFacts*> QuicRun::at(Side side) const {
  if (side == Side::client) return clients();
  if (const auto* s = server()) return {s};
  return {};
}

Vantage QuicRun::vantage(Side side) const {
  if (!given_) given_ = dir_.empty() ? std::nullopt : folder_vantage(dir_);
  if (*given_) return **given_;
  return vantage_by_name(side == Side::client ? "client.pcap" : "server.pcap");
}

CheckResult QuicCheck::evaluate(const CheckInput& input) const {
  try {
    const QuicRun run = QuicRun::of(input);
    std::vector<const CaptureFacts*> captures = run.at(Side::client);
    if (const auto* server = run.server()) captures.push_back(server);
    if (auto why = undecryptable(captures, keys_needed())) return {Verdict::not_judged, "cannot judge: " + *why, {}};
    return judge(run, input);
  } catch (const InputError& e) {
    const auto& d = e.diagnostics().front();
    return {Verdict::fail, fmt::format("{}: {}", fs::path(d.pos.file).filename().string(), d.message), {}};
  }
}

std::vector<Judged> connections_of(const std::vector<const CaptureFacts*>& captures, Vantage vantage) {
  std::vector<Judged> out;
  for (const auto* cap : captures)
    for (const auto& c : cap->connections) out.push_back({cap, &c, {}, vantage});
  for (auto& j : out)
    for (const auto& other : out)
      if (other.connection != j.connection) j.beside.push_back(other.connection);
  return out;
}

const ConnectionFacts* same_connection(const CaptureFacts* other, const dissect::Connection& c) {
  if (!other) return nullptr;
  for (const auto& o : other->connections)
    if (o.connection->original_dcid == c.original_dcid) return &o;
  for (const auto& o : other->connections)
    if (o.connection->client == c.client) return &o;
  return nullptr;
}

std::string label(const Judged& j) {
  if (j.capture->connections.size() == 1) return j.capture->file;
  return j.capture->file + " " + j.connection->connection->client.str();
}

Evidence evidence(const CaptureFacts& capture, const At& at, std::string text) {
  return {capture.file, at.frame, at.time_ns, std::move(text)};
}

Verdict fold(const std::vector<Verdict>& verdicts) {
  if (verdicts.empty()) return Verdict::fail;
  for (Verdict v : {Verdict::fail, Verdict::pass, Verdict::not_judged})
    if (std::find(verdicts.begin(), verdicts.end(), v) != verdicts.end()) return v;
  return Verdict::not_exercised;
}

CheckResult combine(const std::vector<std::pair<std::string, CheckResult>>& parts) {
  if (parts.size() == 1) return parts.front().second;
  CheckResult out;
  std::vector<Verdict> verdicts;
  for (const auto& [name, r] : parts) {
    verdicts.push_back(r.verdict);
    out.summary += (out.summary.empty() ? "" : "; ") + name + ": " + r.summary;
    out.evidence.insert(out.evidence.end(), r.evidence.begin(), r.evidence.end());
  }
  out.verdict = fold(verdicts);
  return out;
}

CheckResult judge_each_connection(const QuicRun& run, Side side, const std::function<CheckResult(const Judged&)>& one) {
  const auto captures = run.at(side);
  if (captures.empty()) return missing_captures(side);
  std::vector<std::pair<std::string, CheckResult>> parts;
  for (const Judged& j : connections_of(captures, run.vantage(side))) parts.emplace_back(label(j), one(j));
  if (parts.empty()) return {Verdict::fail, fmt::format("no QUIC connection in the {} captures", to_string(side)), {}};
  return combine(parts);
}

CheckResult judge_by(const QuicRun& run, const std::string& by,
                     const std::function<CheckResult(const Judged&, Side)>& one) {
  if (by != "any") {
    const Side side = side_from(by);
    return judge_each_connection(run, side, [&](const Judged& j) { return one(j, side); });
  }
  std::vector<std::pair<std::string, CheckResult>> parts;
  for (Side side : {Side::client, Side::server})
    for (const Judged& j : connections_of(run.at(side), run.vantage(side)))
      parts.emplace_back(fmt::format("{} ({})", label(j), to_string(side)), one(j, side));
  if (parts.empty()) return {Verdict::fail, "no QUIC connection in the captures", {}};
  return combine(parts);
}

std::int64_t unseen_round_trip(const Judged& j, Side endpoint) {
  if (at_endpoint(j.vantage, endpoint)) return 0;
  return handshake_round_trip(*j.connection->connection).value_or(0);
}

namespace {

// A gap in `sender`'s packet numbers of `space` after its first packet
// the capture shows (a space may start past 0: lsquic's Handshake does).
std::optional<UnseenGap> gap_after_first(const dissect::Connection& c, Side sender, dissect::PacketSpace space) {
  if (const auto first = next_in_space(c, sender, space, kFromTheStart))
    return first_unseen(c, sender, space, *first, c.datagrams.size() - 1);
  return std::nullopt;
}

}  // namespace

std::optional<UnseenGap> handshake_packets_unseen(const Judged& j, Side sender) {
  if (at_endpoint(j.vantage, sender)) return std::nullopt;
  const auto& c = *j.connection->connection;
  if (c.datagrams.empty()) return std::nullopt;
  // Initial packet 0 carries the first flight: a capture without it missed
  // some.
  if (auto gap = first_unseen(c, sender, dissect::PacketSpace::initial, kFromTheStart, c.datagrams.size() - 1))
    return gap;
  return gap_after_first(c, sender, dissect::PacketSpace::handshake);
}

std::optional<UnseenGap> packets_unseen(const Judged& j, Side sender) {
  if (auto gap = handshake_packets_unseen(j, sender)) return gap;
  if (at_endpoint(j.vantage, sender)) return std::nullopt;
  return gap_after_first(*j.connection->connection, sender, dissect::PacketSpace::application);
}

CheckResult needs_vantage(const Judged& j, Side endpoint, const std::string& what, const std::string& why) {
  return {Verdict::not_judged,
          fmt::format("cannot judge: needs the {}'s {}; {} is judged as taken on {}: {}", to_string(endpoint), what,
                      j.capture->file, describe(j.vantage), why),
          {}};
}

CheckResult not_exercised(std::string looked_for, std::vector<Evidence> evidence) {
  return {Verdict::not_exercised, std::move(looked_for), std::move(evidence)};
}

namespace {

// A 0-RTT or 1-RTT packet of either side: the only packets that can carry
// stream data, flow control and blocked frames (RFC 9000 §12.4, Table 3).
bool carries_application_data(const dissect::Connection& c) {
  for (const auto& d : c.datagrams)
    for (const auto& p : d.packets)
      if (p.space == dissect::PacketSpace::application) return true;
  return false;
}

}  // namespace

CheckResult no_transport_parameters(Side declared_by, const Judged& j) {
  if (!carries_application_data(*j.connection->connection))
    return not_exercised(fmt::format("no 0-RTT or 1-RTT packet in {}: the handshake never got as far as the {} "
                                     "transport parameters, and nothing was sent under them",
                                     j.capture->file, to_string(declared_by)));
  return {Verdict::not_judged,
          fmt::format("cannot judge: the {} transport parameters are not in {} (the handshake never got that far)",
                      to_string(declared_by), j.capture->file),
          {}};
}

std::optional<CheckResult> nothing_under_limits(const Judged& j) {
  if (carries_application_data(*j.connection->connection)) return std::nullopt;
  return not_exercised(fmt::format("no 0-RTT or 1-RTT packet in {}: nothing was sent that a stream or flow limit "
                                   "governs",
                                   j.capture->file));
}

CheckResult missing_captures(Side side) {
  return {Verdict::fail,
          side == Side::client ? "no client*.pcap in the case folder" : "no server.pcap in the case folder",
          {}};
}

ValueSpec side_param(const std::string& name, const std::string& doc, std::optional<std::string> fallback,
                     bool allow_any) {
  std::vector<std::string> sides{"client", "server"};
  if (allow_any) sides.push_back("any");
  std::optional<Value> def;
  if (fallback) def = Value{*fallback};
  return {name, ValueType::string, def, doc, sides};
}

ValueSpec dir_param() {
  return {"dir", ValueType::string, std::nullopt, "stream directionality (RFC 9000 §2.1)", {"uni", "bidi"}};
}

std::string ms(std::int64_t ns) { return fmt::format("{:.3f} ms", ns / 1e6); }

std::string format_ranges(const RangeSet& set, std::size_t shown) {
  std::string out = "[";
  std::size_t n = 0;
  for (const auto& [s, e] : set.ranges()) {
    if (n == shown) {
      out += fmt::format(", +{} more", set.ranges().size() - shown);
      break;
    }
    if (n++) out += ", ";
    out += e - s == 1 ? fmt::format("{}", s) : fmt::format("{}-{}", s, e - 1);
  }
  return out + "]";
}

}  // namespace conform::quic_checks

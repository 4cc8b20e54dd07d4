// `streams_delivered`: every stream the sender opened arrived complete (all
// bytes up to its FIN) at the receiver's vantage point. RFC 9000 §2.2
// (MUST: stream data is delivered reliably and in order) and §3.2 (Data
// Recvd). A stream whose RESET_STREAM arrived is accounted for, not
// missing (§3.2 Reset Recvd: its sender abandoned it, which §3.1 allows,
// whether on its own or because the receiver sent STOP_SENDING, §3.5),
// unless the case says no stream may be reset. HTTP/3's control and QPACK
// streams, which their sender must never close (RFC 9114 §6.2.1, RFC 9204
// §4.2), and its reserved streams (§6.2.3) are left out and counted apart:
// they are open until the connection ends. Read at the receiver: "what
// arrived".
#include "check/quic/support/demand.hpp"
#include "check/quic/support/quic_check.hpp"
#include "check/registrar.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <map>
#include <string_view>

namespace conform::quic_checks {
namespace {

bool complete(const dissect::StreamFlow& f) { return f.fin_size && f.unique_bytes >= *f.fin_size; }

class StreamsDelivered final : public QuicCheck {
 public:
  std::string name() const override { return "streams_delivered"; }
  std::string rfc() const override { return "RFC 9000 §2.2 (MUST), §3.2"; }
  RequirementLevel level() const override { return RequirementLevel::must; }
  std::string summary() const override {
    return "every stream `from` opened in `dir` arrived complete (every byte up to its FIN) at each receiver";
  }
  std::vector<ValueSpec> params() const override {
    return {side_param("from", "the sender of the streams"), dir_param(),
            {"expected", ValueType::integer, Value{std::int64_t{-1}},
             "streams per connection; -1: from the scenario parameters, else the sender's capture"},
            {"allow_reset", ValueType::boolean, Value{true},
             "a stream whose RESET_STREAM arrived counts as accounted for; false: as missing"}};
  }

  std::vector<ScenarioParam> scenario_params() const override {
    return {{"expected", ScenarioPart::expected_count}, {"allow_reset", ScenarioPart::application_behaviour}};
  }

  CheckResult judge(const QuicRun& run, const CheckInput& input) const override {
    const Side from = side_from(value_or<std::string>(input.params, "from", "server"));
    const StreamDir dir = dir_from(value_or<std::string>(input.params, "dir", "uni"));
    const auto receivers = run.at(dissect::other(from));
    if (receivers.empty()) return missing_captures(dissect::other(from));
    const auto senders = run.at(from);
    std::vector<std::pair<std::string, CheckResult>> parts;
    for (const Judged& j : connections_of(receivers, run.vantage(dissect::other(from)))) {
      const ConnectionFacts* sent = nullptr;
      const CaptureFacts* sender_capture = nullptr;
      for (const auto* cap : senders)
        if ((sent = same_connection(cap, *j.connection->connection))) {
          sender_capture = cap;
          break;
        }
      parts.emplace_back(label(j), judge_one(j, sent, sender_capture, from, dir, input));
    }
    if (parts.empty()) return {Verdict::fail, fmt::format("no QUIC connection in the {} captures", to_string(dissect::other(from))), {}};
    return combine(parts);
  }

 private:
  static Expected expectation(const Judged& j, const ConnectionFacts* sent, const CaptureFacts* sender_capture,
                              Side from, StreamDir dir, const CheckInput& input) {
    const auto fixed = value_or<std::int64_t>(input.params, "expected", -1);
    if (fixed >= 0) return {std::uint64_t(fixed), "parameter expected"};
    if (auto e = expected_streams(input.settings, from, dir, j)) return *e;
    if (sent)
      return {sent->side(from).opened[std::size_t(dir)].size(), fmt::format("opened in {}", sender_capture->file)};
    std::uint64_t highest = 0;
    for (const auto& o : j.connection->side(from).opened[std::size_t(dir)])
      highest = std::max(highest, stream_index(o.id) + 1);
    return {highest, fmt::format("highest stream seen in {}, no sender capture", j.capture->file)};
  }

  static CheckResult judge_one(const Judged& j, const ConnectionFacts* sent, const CaptureFacts* sender_capture,
                               Side from, StreamDir dir, const CheckInput& input) {
    const Expected expected = expectation(j, sent, sender_capture, from, dir, input);
    const auto data = from == Side::client ? dissect::Direction::client_to_server : dissect::Direction::server_to_client;
    const std::uint64_t type_bits = (from == Side::server ? 1 : 0) | (dir == StreamDir::uni ? 2 : 0);
    const bool allow_reset = value_or<bool>(input.params, "allow_reset", true);
    RangeSet missing;
    std::uint64_t received = 0, reset = 0;
    std::map<std::string_view, std::uint64_t> open_by_design;  // HTTP/3's streams that never end, by type
    const dissect::StreamView* last_complete = nullptr;
    const dissect::StreamView* first_reset = nullptr;
    for (std::uint64_t index = 0; index < expected.value; ++index) {
      const auto* view = j.connection->stream(index << 2 | type_bits);
      if (view && dissect::never_ends(view->h3)) {
        ++open_by_design[dissect::to_string(view->h3)];
      } else if (view && complete(view->flow(data))) {
        ++received;
        last_complete = view;
      } else if (view && allow_reset && view->flow(data).reset) {
        ++reset;
        if (!first_reset) first_reset = view;
      } else {
        missing.add(index, index + 1);
      }
    }
    std::uint64_t left_out = 0;
    std::vector<std::string> kinds;
    for (const auto& [type, n] : open_by_design) {
      left_out += n;
      kinds.push_back(fmt::format("{} {}", n, type));
    }
    const std::string left_out_note =
        left_out ? fmt::format("; left out {} HTTP/3 stream{} that never end{} ({})", left_out,
                               left_out == 1 ? "" : "s", left_out == 1 ? "s" : "", fmt::join(kinds, ", "))
                 : std::string();
    if (expected.value == left_out)
      return not_exercised(fmt::format("the {} sent no {} stream (expected from {}{})", to_string(from),
                                       to_string(dir), expected.source, left_out_note));
    CheckResult r;
    r.verdict = pass_if(missing.empty());
    // Positions, not stream IDs, so the ranges stay short: say so where it matters.
    r.summary = fmt::format("received={}/{}{} missing={} ({}expected from {}{})", received, expected.value - left_out,
                            reset ? fmt::format(" reset={}", reset) : std::string(), format_ranges(missing),
                            missing.empty() ? "" : "stream numbers from 0, not IDs; ", expected.source, left_out_note);
    const auto& conn = *j.connection;
    if (last_complete)
      r.evidence.push_back(evidence(*j.capture, conn.at_frame(last_complete->flow(data).last_frame),
                                    fmt::format("stream {} (id {}) complete: the last one that arrived whole",
                                                stream_index(last_complete->id), last_complete->id)));
    if (first_reset)
      r.evidence.push_back(evidence(*j.capture, conn.at_frame(first_reset->flow(data).reset_frame),
                                    fmt::format("stream {} (id {}) reset with error {}: the first of {} reset",
                                                stream_index(first_reset->id), first_reset->id,
                                                first_reset->flow(data).reset->error_code, reset)));
    if (missing.empty()) return r;
    const std::uint64_t first = missing.ranges().begin()->first;
    const std::uint64_t id = first << 2 | type_bits;
    bool told = false;
    // A stream the capture knows only from the receiver's side (its
    // MAX_STREAM_DATA, STOP_SENDING) had nothing arrive: no frame of the
    // sender's to point at.
    if (const auto* view = conn.stream(id); view && (view->flow(data).stream_frames || view->flow(data).reset)) {
      const auto& f = view->flow(data);
      r.evidence.push_back(evidence(
          *j.capture, conn.at_frame(f.first_frame),
          fmt::format("stream {} (id {}): {} bytes arrived, {}", first, id, f.unique_bytes,
                      f.reset ? fmt::format("reset with error {}", f.reset->error_code)
                      : f.fin_size ? fmt::format("FIN at {}", *f.fin_size)
                                   : std::string("no FIN"))));
      told = true;
    } else if (sent) {
      for (const auto& o : sent->side(from).opened[std::size_t(dir)])
        if (o.id == id) {
          r.evidence.push_back(evidence(*sender_capture, o.at,
                                        fmt::format("stream {} (id {}) sent here never arrived at {}", first, id,
                                                    j.capture->file)));
          told = true;
          break;
        }
    }
    if (!told)
      r.evidence.push_back({j.capture->file, 0, -1, fmt::format("stream {} (id {}) never arrived", first, id)});
    return r;
  }
};

}  // namespace

}  // namespace conform::quic_checks

CONFORM_REGISTER_CHECK(streams_delivered, quic_checks::StreamsDelivered)

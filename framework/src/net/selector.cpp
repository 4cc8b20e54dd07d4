// Parsing and matching of datagram selectors.
#include "net/selector.hpp"

#include "dissect/frames.hpp"

#include <algorithm>
#include <charconv>

namespace conform {

const std::vector<SelectorForm>& selector_forms() {
  static const std::vector<SelectorForm> forms = {
      {"<sender>", "client-2:1",
       "who sends it: server (to each client, counted per client), client (each client, counted on its own) or client-<k> (the k-th client only)"},
      {"<n>", "client:3",
       "the n-th datagram that matches the rest of the selector, from 1 (also written 1st, 2nd, 3rd, 4th...); `all` or no count: every one"},
      {"initial, 0rtt, handshake, retry", "server:initial:1",
       "carrying a long-header packet of that type, read from the header bytes header protection leaves in the clear"},
      {"1rtt", "server:1rtt:all", "carrying a short-header (1-RTT) packet"},
      {"pn=<n>", "server:handshake:pn=2",
       "the packet of the given type with that packet number: dropped alone from a coalesced datagram, the rest delivered (reorder, duplicate and corrupt act on its whole datagram)",
       true},
      {"frame=<NAME>", "client:frame=RESET_STREAM:1st",
       "carrying a frame of that type (RFC 9000 §19 names: ACK, CRYPTO, STREAM, MAX_STREAMS, HANDSHAKE_DONE...), in a packet of the given type if one is given",
       true},
      {"offset>=<n>", "server:frame=CRYPTO:offset>=1200",
       "with frame=CRYPTO or frame=STREAM: such a frame starting at byte n of its stream or later", true},
      {"ack_only, ack_eliciting", "server:initial:ack_only",
       "ACK-only (no frame but ACK, PADDING or CONNECTION_CLOSE, RFC 9002 §2) or ack-eliciting: the packet of the given type, else the whole datagram",
       true},
      {"from_ms=<t>, to_ms=<t>", "client:from_ms=100:to_ms=300",
       "sent at or after from_ms and before to_ms of the run's time (virtual time in the simulator, since the relay started in the relay)"},
      {"after=handshake_done", "server:after=handshake_done:1",
       "sent after the datagram carrying the path's first HANDSHAKE_DONE (the handshake confirmed, RFC 9001 §4.1.2); the count starts there",
       true},
  };
  return forms;
}

namespace {

bool valid_sender(std::string_view s) {
  if (s == "client" || s == "server") return true;
  if (s.substr(0, 7) != "client-" || s.size() == 7) return false;
  for (char c : s.substr(7))
    if (c < '0' || c > '9') return false;
  return s[7] != '0';
}

template <typename T>
bool read_number(std::string_view text, T& out) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size();
}

// "3", "3rd", "21st": the count; nothing when `part` is not one.
std::optional<std::int64_t> read_count(std::string_view part) {
  std::size_t digits = 0;
  while (digits < part.size() && part[digits] >= '0' && part[digits] <= '9') ++digits;
  if (digits == 0) return std::nullopt;
  std::int64_t n = 0;
  if (!read_number(part.substr(0, digits), n)) return std::nullopt;
  const std::string_view suffix = part.substr(digits);
  if (suffix.empty()) return n;
  // 1st 2nd 3rd, 4th-20th, 21st 22nd 23rd, 24th...
  const char* right = (n % 100 >= 11 && n % 100 <= 13) ? "th"
                      : n % 10 == 1                    ? "st"
                      : n % 10 == 2                    ? "nd"
                      : n % 10 == 3                    ? "rd"
                                                       : "th";
  if (suffix != right) return std::nullopt;
  return n;
}

bool known_frame(std::string_view name) {
  const auto& names = dissect::frame_names();
  return std::find(names.begin(), names.end(), name) != names.end();
}

std::string accepted_forms() {
  std::string out;
  for (const SelectorForm& f : selector_forms()) out += (out.empty() ? "" : ", ") + f.part;
  return "accepted parts: " + out + " (docs/suites.md, \"Selectors\")";
}

class Parser {
 public:
  Parser(std::string_view text, std::string& error) : text_(text), error_(error) {}

  std::optional<DatagramSelector> parse() {
    std::vector<std::string_view> parts;
    for (std::size_t start = 0;;) {
      auto colon = text_.find(':', start);
      parts.push_back(text_.substr(start, colon - start));
      if (colon == std::string_view::npos) break;
      start = colon + 1;
    }
    sel_.text = std::string(text_);
    if (!valid_sender(parts[0])) return fail("sender must be client, client-<k> (k from 1) or server");
    sel_.sender = std::string(parts[0]);
    if (parts.size() == 1) {
      error_ = "'" + std::string(text_) +
               "' must read <sender>[:<part>]...[:<count>], e.g. client:3, server:initial:1 or server:handshake:pn=2";
      return std::nullopt;
    }
    for (std::size_t i = 1; i < parts.size(); ++i)
      if (!part(parts[i], i + 1 == parts.size())) return std::nullopt;
    return finish();
  }

 private:
  std::optional<DatagramSelector> fail(const std::string& why) {
    error_ = "'" + std::string(text_) + "': " + why;
    return std::nullopt;
  }
  bool bad(const std::string& why) {
    fail(why);
    return false;
  }

  bool part(std::string_view p, bool last) {
    if (p == "all" || read_count(p)) {
      if (!last) return bad("the count '" + std::string(p) + "' must come last");
      if (p == "all") return true;
      sel_.nth = *read_count(p);
      return sel_.nth >= 1 || bad("the datagram number must be an integer from 1");
    }
    if (auto t = long_type_from_string(p)) {
      if (sel_.type || sel_.one_rtt) return bad("names two packet types");
      sel_.type = t;
      return true;
    }
    if (p == "1rtt") {
      if (sel_.type || sel_.one_rtt) return bad("names two packet types");
      sel_.one_rtt = true;
      return true;
    }
    if (p == "ack_only" || p == "ack_eliciting") {
      if (sel_.ack_eliciting) return bad("says ack_only or ack_eliciting twice");
      sel_.ack_eliciting = p == "ack_eliciting";
      return true;
    }
    const auto eq = p.find('=');
    if (eq == std::string_view::npos) return bad("unknown part '" + std::string(p) + "'; " + accepted_forms());
    const std::string_view key = p.substr(0, eq), value = p.substr(eq + 1);
    if (key == "pn") return number(p, value, sel_.packet_number, "a packet number, an integer from 0");
    if (key == "offset>") return number(p, value, sel_.min_offset, "a byte offset, an integer from 0");
    if (key == "frame") {
      if (!sel_.frame.empty()) return bad("names two frame types");
      if (!known_frame(value)) {
        std::string names;
        for (auto n : dissect::frame_names()) names += (names.empty() ? "" : ", ") + std::string(n);
        return bad("unknown frame type '" + std::string(value) + "'; frame types: " + names);
      }
      sel_.frame = std::string(value);
      return true;
    }
    if (key == "from_ms" || key == "to_ms") {
      auto& field = key == "from_ms" ? sel_.from : sel_.to;
      double ms = 0;
      if (field) return bad("gives " + std::string(key) + " twice");
      // !(ms >= 0) also refuses NaN, which from_chars reads.
      if (!read_number(value, ms) || !(ms >= 0) || ms > 1e9 || (key == "to_ms" && ms == 0))
        return bad(std::string(key) + " must be milliseconds from 0 (to_ms: above 0) to 1e9, e.g. " +
                   std::string(key) + "=100");
      field = Duration::from_ms(ms);
      return true;
    }
    if (key == "after") {
      if (value != "handshake_done") return bad("after= takes handshake_done");
      if (sel_.after) return bad("gives after= twice");
      sel_.after = SelectorEvent::handshake_done;
      return true;
    }
    return bad("unknown part '" + std::string(p) + "'; " + accepted_forms());
  }

  bool number(std::string_view p, std::string_view value, std::optional<std::uint64_t>& field,
              const char* what) {
    if (field) return bad("'" + std::string(p) + "' repeats a part already given");
    std::uint64_t n = 0;
    if (!read_number(value, n)) return bad("'" + std::string(p) + "' must give " + what);
    field = n;
    return true;
  }

  std::optional<DatagramSelector> finish() {
    if (sel_.packet_number && !sel_.type && !sel_.one_rtt)
      return fail("pn= needs the packet type whose number space it counts in: initial, 0rtt, handshake or 1rtt");
    if (sel_.packet_number && sel_.type == LongType::retry)
      return fail("a Retry packet has no packet number (RFC 9000 §17.2.5)");
    if (sel_.type == LongType::retry && (!sel_.frame.empty() || sel_.ack_eliciting))
      return fail("a Retry packet carries no frames (RFC 9000 §17.2.5)");
    if (sel_.ack_eliciting == false && !sel_.frame.empty() && sel_.frame != "ACK" && sel_.frame != "PADDING" &&
        sel_.frame != "CONNECTION_CLOSE")
      return fail("ack_only cannot hold with frame=" + sel_.frame + ": only ACK, PADDING and CONNECTION_CLOSE are not ack-eliciting (RFC 9002 §2)");
    if (sel_.min_offset && sel_.frame != "CRYPTO" && sel_.frame != "STREAM")
      return fail("offset>= goes with frame=CRYPTO or frame=STREAM");
    if (sel_.from && sel_.to && *sel_.to <= *sel_.from)
      return fail("the window from_ms..to_ms is empty: to_ms must be later than from_ms");
    return sel_;
  }

  std::string_view text_;
  std::string& error_;
  DatagramSelector sel_;
};

bool packet_qualifies(const DatagramSelector& s, const PacketContents& p) {
  // A packet the keys could not read shows no frames: it is neither ACK-only
  // nor anything else, and is never picked by what it carries.
  if (!p.packet_number) return false;
  if (s.one_rtt && p.type) return false;
  if (s.type && p.type != s.type) return false;
  if (s.packet_number && p.packet_number != s.packet_number) return false;
  if ((s.type || s.one_rtt) && s.ack_eliciting && p.ack_eliciting != *s.ack_eliciting) return false;
  if (!s.frame.empty() &&
      std::none_of(p.frames.begin(), p.frames.end(), [&](const PacketContents::Frame& f) {
        return f.name == s.frame && (!s.min_offset || (f.offset && *f.offset >= *s.min_offset));
      }))
    return false;
  return true;
}

}  // namespace

bool DatagramSelector::reads_contents() const {
  return packet_number || !frame.empty() || ack_eliciting || after;
}

std::string DatagramSelector::content_part() const {
  if (packet_number) return "pn=<n>";
  if (!frame.empty()) return "frame=<NAME>";
  if (ack_eliciting) return *ack_eliciting ? "ack_eliciting" : "ack_only";
  if (after) return "after=handshake_done";
  return {};
}

std::optional<DatagramSelector> parse_selector(std::string_view text, std::string& error) {
  return Parser(text, error).parse();
}

bool qualifies(const DatagramSelector& s, const DatagramPosition& pos, std::vector<std::size_t>* packets) {
  if (s.sender != pos.group && s.sender != pos.name) return false;
  if (s.from && pos.at < Instant() + *s.from) return false;
  if (s.to && pos.at >= Instant() + *s.to) return false;
  if (!s.reads_contents()) {
    if (s.type) return pos.types & (1u << static_cast<unsigned>(*s.type));
    return !s.one_rtt || pos.short_header;
  }
  const DatagramContents* c = pos.contents;
  if (!c) return false;
  if (s.after == SelectorEvent::handshake_done && !c->after_handshake_done) return false;
  if (s.ack_eliciting && !s.type && !s.one_rtt) {
    if (std::any_of(c->packets.begin(), c->packets.end(), [](const PacketContents& p) { return !p.packet_number; }))
      return false;
    const bool eliciting = std::any_of(c->packets.begin(), c->packets.end(),
                                       [](const PacketContents& p) { return p.ack_eliciting; });
    if (eliciting != *s.ack_eliciting) return false;
  }
  bool any = false;
  for (std::size_t i = 0; i < c->packets.size(); ++i) {
    if (!packet_qualifies(s, c->packets[i])) continue;
    any = true;
    if (packets && s.names_packet()) packets->push_back(i);
  }
  return any;
}

SelectorList::SelectorList(const std::vector<DatagramSelector>& selectors)
    : selectors_(&selectors), matched_(selectors.size(), 0), picked_(selectors.size(), false) {}

SelectorList::Pick SelectorList::pick(const DatagramPosition& pos) {
  Pick out;
  if (!selectors_) return out;
  for (std::size_t i = 0; i < selectors_->size(); ++i) {
    const DatagramSelector& s = (*selectors_)[i];
    std::vector<std::size_t> packets;
    if (!qualifies(s, pos, &packets)) continue;
    ++matched_[i];
    if (s.nth != 0 && matched_[i] != s.nth) continue;
    if (!s.names_packet() || !packets.empty()) picked_[i] = true;
    if (!s.names_packet()) out.datagram = true;
    for (std::size_t p : packets)
      if (std::find(out.packets.begin(), out.packets.end(), p) == out.packets.end()) out.packets.push_back(p);
  }
  std::sort(out.packets.begin(), out.packets.end());
  return out;
}

}  // namespace conform

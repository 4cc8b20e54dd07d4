// The `network` settings as rows: one per key, each naming the NetConfig
// field it sets, so adding a setting is one field and one row. Defaults are
// read from a default NetConfig, so net_config.hpp stays the one place they
// are written.
#include "net/net_config.hpp"

#include <algorithm>
#include <optional>

namespace conform {
namespace {

/// The defaults every row declares.
const NetConfig& defaults() {
  static const NetConfig config;
  return config;
}

// Large enough for any real path, small enough that nanosecond arithmetic
// on it cannot overflow.
constexpr double kMaxMs = 1e9;
constexpr FloatRange kProbability{0, 1};
constexpr FloatRange kMillis{0, kMaxMs};

/// A float field holding `per_unit` times the value written (bits per
/// second from Mbit/s).
template <auto Member>
NetSetting real(std::string name, std::string unit, std::string doc, FloatRange range,
                double per_unit = 1) {
  ValueSpec spec{std::move(name), ValueType::floating, Value{defaults().*Member / per_unit},
                 std::move(doc), {}, {}, {}, range};
  return {std::move(spec), std::move(unit), [per_unit](const Value& v, NetConfig& c) {
            c.*Member = std::get<double>(v) * per_unit;
            return std::string();
          }};
}

template <auto Member>
NetSetting probability(std::string name, std::string doc) {
  return real<Member>(std::move(name), "", std::move(doc), kProbability);
}

template <auto Member>
NetSetting integer(std::string name, std::string unit, std::string doc, std::int64_t min) {
  ValueSpec spec{std::move(name), ValueType::integer, Value{defaults().*Member}, std::move(doc),
                 {}, min};
  return {std::move(spec), std::move(unit), [](const Value& v, NetConfig& c) {
            c.*Member = std::get<std::int64_t>(v);
            return std::string();
          }};
}

/// A Duration field written in milliseconds; the field holds `per_ms` of
/// what is written (the one-way delay is half the RTT).
template <auto Member>
NetSetting millis(std::string name, std::string doc, FloatRange range = kMillis, double per_ms = 1) {
  ValueSpec spec{std::move(name), ValueType::floating, Value{(defaults().*Member).ms() / per_ms},
                 std::move(doc), {}, {}, {}, range};
  return {std::move(spec), "ms", [per_ms](const Value& v, NetConfig& c) {
            c.*Member = Duration::from_ms(std::get<double>(v) * per_ms);
            return std::string();
          }};
}

/// A list of datagram selectors (net/selector.hpp).
template <auto Member>
NetSetting selectors(std::string name, std::string doc) {
  ValueSpec spec{std::move(name), ValueType::string_list, Value{std::vector<std::string>{}},
                 std::move(doc)};
  return {std::move(spec), "", [](const Value& v, NetConfig& c) {
            std::vector<DatagramSelector> out;
            std::string problems;
            for (const auto& text : std::get<std::vector<std::string>>(v)) {
              std::string error;
              if (auto s = parse_selector(text, error)) out.push_back(*s);
              else problems += (problems.empty() ? "" : "; ") + error;
            }
            c.*Member = std::move(out);
            return problems;
          }};
}


// The keys one direction may set apart, by the name of the base key, and
// the one-way delay, which the base sets as half of rtt_ms.
constexpr const char* kPerDirection[] = {
    "delay_ms",     "mtu",          "bandwidth_mbps",   "queue_bytes",        "loss_rate",    "ge_enter_bad",
    "ge_leave_bad", "ge_loss_bad",  "ge_loss_good",     "jitter_ms",          "reorder_delay_ms", "reorder_rate",
    "duplicate_rate", "duplicate_delay_ms", "corrupt_rate", "corrupt_bits"};

// `<sender>_<key>`: `row`'s setting for what `sender` sends only. These rows
// come after every base row, so the direction's copy starts from the base
// settings as the table gave them.
NetSetting sent_by(const std::string& sender, const NetSetting& row) {
  NetSetting out = row;
  out.spec.name = sender + "_" + row.spec.name;
  // No default of its own: absent, the direction keeps the base key's value.
  out.spec.default_value.reset();
  // "each way" is the base key's; this one is one way's.
  std::string doc = row.spec.doc;
  for (auto at = doc.find(" each way"); at != std::string::npos; at = doc.find(" each way")) doc.erase(at, 9);
  out.spec.doc = doc + " — for what the " + sender + " sends only";
  out.set = [sender, set = row.set](const Value& v, NetConfig& c) { return set(v, c.edit_sent_by(sender)); };
  out.sender = sender;
  out.base_key = row.spec.name;
  return out;
}

std::vector<NetSetting> with_directions(std::vector<NetSetting> rows) {
  using C = NetConfig;
  std::vector<NetSetting> bases = {millis<&C::one_way_delay>("delay_ms", "propagation delay")};
  for (const char* key : kPerDirection)
    for (const NetSetting& r : rows)
      if (r.spec.name == key) bases.push_back(r);
  for (const char* sender : {"server", "client"})
    for (const NetSetting& b : bases) rows.push_back(sent_by(sender, b));
  return rows;
}

}  // namespace

bool NetConfig::has_selectors() const {
  const auto lists = selector_lists();
  return std::any_of(lists.begin(), lists.end(), [](const NamedSelectors& l) { return !l.list->empty(); });
}

bool NetConfig::selectors_read_contents() const {
  for (const NamedSelectors& l : selector_lists())
    for (const DatagramSelector& s : *l.list)
      if (s.reads_contents()) return true;
  return false;
}

const NetConfig& NetConfig::sent_by(std::string_view group) const {
  const auto& own = group == "client" ? client_sends : server_sends;
  return own ? *own : *this;
}

NetConfig& NetConfig::edit_sent_by(std::string_view group) {
  auto& own = group == "client" ? client_sends : server_sends;
  if (!own) {
    NetConfig base = *this;
    base.client_sends.reset();
    base.server_sends.reset();
    own = std::make_shared<NetConfig>(std::move(base));
  } else if (own.use_count() > 1) {
    own = std::make_shared<NetConfig>(*own);
  }
  return *own;
}

const std::vector<NetSetting>& net_settings() {
  using C = NetConfig;
  static const std::vector<NetSetting> rows = with_directions({
      millis<&C::one_way_delay>("rtt_ms", "round-trip propagation delay of the path; each way gets half", kMillis, 0.5),
      integer<&C::mtu>("mtu", "bytes", "path MTU, bytes of IP packet (UDP payload + 28); larger datagrams are lost", 29),
      real<&C::bandwidth_bps>("bandwidth_mbps", "Mbit/s", "bottleneck rate each way, of IP packets; 0: unlimited", {0, 1e6}, 1e6),
      integer<&C::queue_bytes>("queue_bytes", "bytes", "drop-tail limit each way, bytes of IP packets not yet serialised; 0: unlimited", 0),
      probability<&C::loss_rate>("loss_rate", "Bernoulli loss probability per datagram"),
      probability<&C::ge_enter_bad>("ge_enter_bad", "Gilbert-Elliott burst loss: probability per datagram of moving from the good to the bad state"),
      probability<&C::ge_leave_bad>("ge_leave_bad", "Gilbert-Elliott: probability per datagram of moving from the bad back to the good state"),
      probability<&C::ge_loss_bad>("ge_loss_bad", "Gilbert-Elliott: loss probability in the bad state"),
      probability<&C::ge_loss_good>("ge_loss_good", "Gilbert-Elliott: loss probability in the good state"),
      millis<&C::jitter>("jitter_ms", "uniform extra one-way delay in [0, jitter]; may reorder datagrams"),
      selectors<&C::drop>("drop", "datagrams to lose, or with pn= packets cut out of theirs: \"client:3\" (the 3rd the client sends), \"server:initial:1\" (the server's 1st datagram carrying an Initial), \"server:handshake:pn=2\", \"client:frame=RESET_STREAM:1st\" (docs/suites.md, Selectors); lists have no server_ or client_ form: the selector names its sender"),
      selectors<&C::reorder>("reorder", "datagrams to hold back by reorder_delay_ms (selectors as for drop)"),
      millis<&C::reorder_delay>("reorder_delay_ms", "extra delay of each datagram named in reorder"),
      probability<&C::reorder_rate>("reorder_rate", "probability per datagram of holding it back by reorder_delay_ms"),
      selectors<&C::duplicate>("duplicate", "datagrams delivered twice (selectors as for drop)"),
      probability<&C::duplicate_rate>("duplicate_rate", "probability per datagram of delivering it twice"),
      millis<&C::duplicate_delay>("duplicate_delay_ms", "how much later than the original a duplicated datagram's copy arrives (a late duplicate Initial, RFC 9002 §6.2.3)"),
      selectors<&C::corrupt>("corrupt", "datagrams delivered with corrupt_bits flipped bits (selectors as for drop)"),
      probability<&C::corrupt_rate>("corrupt_rate", "probability per datagram of flipping bits in it"),
      integer<&C::corrupt_bits>("corrupt_bits", "", "bits flipped in a corrupted datagram", 1),
      millis<&C::budget>("budget_ms", "virtual time after which a simulated run is stopped as TIMEOUT", {0, kMaxMs, true}),
  });
  return rows;
}

const std::vector<ValueSpec>& network_spec() {
  static const std::vector<ValueSpec> specs = [] {
    std::vector<ValueSpec> out;
    for (const NetSetting& s : net_settings()) out.push_back(s.spec);
    return out;
  }();
  return specs;
}

namespace {

// A TOML integer where a float is declared reads as that float (10 is 10.0).
std::optional<Value> as_type(const Value& v, ValueType type) {
  if (type_of(v) == type) return v;
  if (type == ValueType::floating)
    if (const auto* i = std::get_if<std::int64_t>(&v)) return Value{static_cast<double>(*i)};
  return std::nullopt;
}

std::string read_one(const NetSetting& s, const Value& written, NetConfig& c) {
  const auto v = as_type(written, s.spec.type);
  if (!v) return "must be " + std::string(s.spec.type == ValueType::integer ? "an " : "a ") +
                 to_string(s.spec.type);
  if (out_of_range(s.spec, *v)) {
    const auto* d = std::get_if<double>(&*v);
    return "= " + (d ? format_number(*d) : std::to_string(std::get<std::int64_t>(*v))) +
           " is out of range: " + range_text(s.spec);
  }
  return s.set(*v, c);
}

}  // namespace

std::vector<NetConfigProblem> read_net_config(const ValueMap& network, NetConfig& c) {
  std::vector<NetConfigProblem> problems;
  std::size_t known = 0;
  for (const NetSetting& s : net_settings()) {
    auto it = network.find(s.spec.name);
    if (it == network.end()) continue;
    ++known;
    if (std::string why = read_one(s, it->second, c); !why.empty())
      problems.push_back({s.spec.name, std::move(why)});
  }
  if (known < network.size())
    for (const auto& [key, value] : network)
      if (std::none_of(net_settings().begin(), net_settings().end(),
                       [&](const NetSetting& s) { return s.spec.name == key; }))
        problems.push_back({key, "is not a network setting"});
  return problems;
}

}  // namespace conform

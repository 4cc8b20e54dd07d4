// Reading and checking a `network` table.
#include "net/net_config.hpp"

namespace conform {
namespace {

struct Reader {
  const ValueMap& values;
  std::vector<NetConfigProblem> problems;

  double number(const std::string& key, double fallback, double min, double max) {
    double v = fallback;
    auto it = values.find(key);
    if (it != values.end()) {
      if (const double* d = std::get_if<double>(&it->second)) v = *d;
      else if (const std::int64_t* i = std::get_if<std::int64_t>(&it->second)) v = static_cast<double>(*i);
      else problems.push_back({key, "must be a number"});
    }
    if (!(v >= min && v <= max))
      problems.push_back({key, "must be between " + format(min) + " and " + format(max) +
                                   ", not " + format(v)});
    return v;
  }

  std::int64_t integer(const std::string& key, std::int64_t fallback, std::int64_t min) {
    auto it = values.find(key);
    if (it == values.end()) return fallback;
    const std::int64_t* i = std::get_if<std::int64_t>(&it->second);
    if (!i) {
      problems.push_back({key, "must be an integer"});
      return fallback;
    }
    if (*i < min) problems.push_back({key, "must be at least " + std::to_string(min)});
    return *i;
  }

  std::vector<DatagramSelector> selectors(const std::string& key) {
    std::vector<DatagramSelector> out;
    auto it = values.find(key);
    if (it == values.end()) return out;
    const auto* list = std::get_if<std::vector<std::string>>(&it->second);
    if (!list) {
      problems.push_back({key, "must be an array of strings"});
      return out;
    }
    for (const auto& text : *list) {
      std::string error;
      if (auto s = parse_selector(text, error)) out.push_back(*s);
      else problems.push_back({key, error});
    }
    return out;
  }

  static std::string format(double v) {
    std::string s = std::to_string(v);
    s.erase(s.find_last_not_of('0') + 1);
    if (s.back() == '.') s.pop_back();
    return s;
  }
};

// Large enough for any real path, small enough that nanosecond arithmetic
// on it cannot overflow.
constexpr double kMaxMs = 1e9;

}  // namespace

std::vector<NetConfigProblem> read_net_config(const ValueMap& network, NetConfig& c) {
  Reader r{network, {}};
  c.one_way_delay = Duration::from_ms(r.number("rtt_ms", 10, 0, kMaxMs) / 2);
  c.mtu = r.integer("mtu", 1500, 29);
  c.bandwidth_bps = r.number("bandwidth_mbps", 0, 0, 1e6) * 1e6;
  c.queue_bytes = r.integer("queue_bytes", 0, 0);
  c.loss_rate = r.number("loss_rate", 0, 0, 1);
  c.burst.enter_bad = r.number("ge_enter_bad", 0, 0, 1);
  c.burst.leave_bad = r.number("ge_leave_bad", 1, 0, 1);
  c.burst.loss_bad = r.number("ge_loss_bad", 1, 0, 1);
  c.burst.loss_good = r.number("ge_loss_good", 0, 0, 1);
  c.jitter = Duration::from_ms(r.number("jitter_ms", 0, 0, kMaxMs));
  c.drop = r.selectors("drop");
  c.reorder = r.selectors("reorder");
  c.reorder_delay = Duration::from_ms(r.number("reorder_delay_ms", 5, 0, kMaxMs));
  c.duplicate = r.selectors("duplicate");
  c.duplicate_rate = r.number("duplicate_rate", 0, 0, 1);
  c.corrupt = r.selectors("corrupt");
  c.corrupt_rate = r.number("corrupt_rate", 0, 0, 1);
  c.corrupt_bits = r.integer("corrupt_bits", 1, 1);
  c.budget = Duration::from_ms(r.number("budget_ms", 60000, 0, kMaxMs));
  if (c.budget <= Duration()) r.problems.push_back({"budget_ms", "must be above 0"});
  return r.problems;
}

}  // namespace conform

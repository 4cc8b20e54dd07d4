// Every network point of a case, read once.
#include "suite/network_points.hpp"

#include <set>
#include <utility>

namespace conform::suite_detail {
namespace {

constexpr const char* kPrefix = "network.";

struct PointReader {
  const CaseDecl& c;
  Problems& problems;
  /// The network axes and, per axis, the index of its value at this point.
  std::vector<const MatrixAxis*> axes;
  std::vector<std::size_t> index;
  std::set<std::pair<std::string, std::string>> seen;

  // Where the value of `key` at this point was written.
  SourcePos where(const MutantDecl* mutant, const std::string& key) const {
    if (mutant)
      if (auto it = mutant->network_pos.find(key); it != mutant->network_pos.end()) return it->second;
    for (std::size_t a = 0; a < axes.size(); ++a)
      if (axes[a]->key == kPrefix + key) return axes[a]->positions[index[a]];
    if (auto it = c.network_pos.find(key); it != c.network_pos.end()) return it->second;
    return c.pos;
  }

  NetConfig read(const MutantDecl* mutant) {
    ValueMap network = c.network;
    for (std::size_t a = 0; a < axes.size(); ++a)
      network[axes[a]->key.substr(std::string(kPrefix).size())] = axes[a]->values[index[a]];
    if (mutant)
      for (const auto& [k, v] : mutant->network) network[k] = v;
    NetConfig net;
    for (const auto& p : read_net_config(network, net)) {
      const SourcePos pos = where(mutant, p.key);
      std::string message = "network." + p.key + " " + p.message;
      if (seen.emplace(pos.str(), message).second) problems.add(pos, std::move(message));
    }
    return net;
  }

  // The next point, the last axis turning fastest; false after the last.
  bool advance() {
    std::size_t a = axes.size();
    while (a > 0 && ++index[a - 1] == axes[a - 1]->values.size()) index[--a] = 0;
    return a > 0;
  }
};

}  // namespace

bool is_network_axis(const std::string& key) { return key.rfind(kPrefix, 0) == 0; }

void read_network_points(CaseDecl& c, Problems& problems) {
  PointReader reader{c, problems, {}, {}, {}};
  for (const auto& axis : c.matrix) {
    if (!is_network_axis(axis.key)) continue;
    // An axis none of whose values could be read has been refused already.
    if (axis.values.empty()) return;
    reader.axes.push_back(&axis);
  }
  reader.index.assign(reader.axes.size(), 0);
  c.mutant_nets.assign(c.mutants.size(), {});
  do {
    c.nets.push_back(reader.read(nullptr));
    for (std::size_t m = 0; m < c.mutants.size(); ++m)
      c.mutant_nets[m].push_back(reader.read(&c.mutants[m]));
  } while (reader.advance());
}

}  // namespace conform::suite_detail

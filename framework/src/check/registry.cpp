// The check catalogue and the list of checks conform ships.
#include "check/registry.hpp"

#include "check/datagrams_captured.hpp"
#include "check/no_stalls.hpp"
#include "check/quic/catalogue.hpp"
#include "check/receive_window_floor.hpp"
#include "check/transfer_time.hpp"
#include "check/zero_window_events.hpp"

#include <stdexcept>

namespace conform {

void CheckRegistry::add(std::unique_ptr<Check> check) {
  std::string name = check->name();
  if (!checks_.emplace(name, std::move(check)).second)
    throw std::logic_error("check registered twice: " + name);
}

const Check* CheckRegistry::find(const std::string& name) const {
  auto it = checks_.find(name);
  return it == checks_.end() ? nullptr : it->second.get();
}

std::vector<std::string> CheckRegistry::names() const {
  std::vector<std::string> out;
  for (const auto& [name, check] : checks_) out.push_back(name);
  return out;
}

const CheckRegistry& CheckRegistry::builtin() {
  static const CheckRegistry registry = [] {
    CheckRegistry r;
    r.add(std::make_unique<DatagramsCaptured>());
    r.add(std::make_unique<NoStalls>());
    r.add(std::make_unique<ReceiveWindowFloor>());
    r.add(std::make_unique<TransferTime>());
    r.add(std::make_unique<ZeroWindowEvents>());
    quic_checks::add_quic_checks(r);
    return r;
  }();
  return registry;
}

}  // namespace conform

// Captures, key log and log of one run.
#include "run/case_context.hpp"

#include "capture/capture_check.hpp"
#include "run/isolate.hpp"

#include <filesystem>
#include <stdexcept>

namespace conform {
namespace fs = std::filesystem;

CaseContext::CaseContext(CaseSettings settings, NetConfig net, std::string artifact_dir)
    : settings_(std::move(settings)), net_(std::move(net)), artifact_dir_(std::move(artifact_dir)) {
  std::error_code ec;
  fs::create_directories(artifact_dir_, ec);
  if (ec) throw std::runtime_error(artifact_dir_ + ": cannot create folder: " + ec.message());
  log_.open(fs::path(artifact_dir_) / "log.txt", std::ios::app);
}

CaseContext::~CaseContext() = default;

CaptureWriter& CaseContext::capture(std::string_view vantage) {
  std::lock_guard lock(captures_mutex_);
  auto it = captures_.find(vantage);
  if (it != captures_.end()) return *it->second;
  if (adopted_.contains(vantage))
    throw std::logic_error("capture '" + std::string(vantage) + "' was adopted from a file");
  auto path = fs::path(artifact_dir_) / (std::string(vantage) + ".pcap");
  auto writer = std::make_unique<PcapWriter>(path.string());
  return *captures_.emplace(std::string(vantage), std::move(writer)).first->second;
}

std::string CaseContext::adopt_capture(std::string_view vantage, const std::string& path) {
  const std::string name(vantage);
  std::lock_guard lock(captures_mutex_);
  if (captures_.contains(vantage) || adopted_.contains(vantage))
    return "capture '" + name + "' already exists";
  if (std::string problem = capture_file_problem(path); !problem.empty())
    return path + ": " + problem;
  const fs::path target = fs::path(artifact_dir_) / (name + ".pcap");
  std::error_code ec;
  fs::rename(path, target, ec);
  if (ec) {
    // A file on another file system cannot be renamed into place: copy it.
    ec.clear();
    fs::copy_file(path, target, fs::copy_options::overwrite_existing, ec);
    if (ec) return path + ": cannot move to " + target.string() + ": " + ec.message();
    fs::remove(path, ec);
  }
  adopted_.insert(name);
  return {};
}

void CaseContext::key_log(std::string_view line) {
  if (!key_log_.is_open()) key_log_.open(fs::path(artifact_dir_) / "keys.log", std::ios::app);
  key_log_ << line << '\n';
  key_log_.flush();
  if (network_) network_->key_log(line);
  else early_key_lines_.emplace_back(line);
}

void CaseContext::log(std::string_view line) {
  log_ << line << '\n';
  log_.flush();
}

SimulatedNetwork& CaseContext::network() {
  if (!network_) {
    network_ = std::make_unique<Simulator>(net_, settings_.seed,
                                           [this](std::string_view v) { return &capture(v); });
    for (const std::string& line : early_key_lines_) network_->key_log(line);
    early_key_lines_.clear();
    // What the explicit selectors took, in the run's log: which datagram or
    // packet `server:3` or `server:handshake:pn=2` named in this run.
    if (net_.has_selectors())
      network_->set_trace([this](const NetEvent& e) {
        const bool picked = e.kind == NetEvent::Kind::cut || e.kind == NetEvent::Kind::picked ||
                            (e.kind == NetEvent::Kind::lost && std::string_view(e.reason) == to_string(LossReason::drop_list));
        if (picked) log("network: " + to_string(e));
      });
  }
  return *network_;
}

bool CaseContext::stop_requested() const { return conform::stop_requested(); }

LoopbackRelay& CaseContext::relay(std::uint16_t server_port) {
  if (!relay_) {
    relay_ = std::make_unique<UdpRelay>(net_, settings_.seed, server_port,
                                        [this](std::string_view v) { return &capture(v); });
    relay_->start();
  }
  return *relay_;
}

void CaseContext::close_captures() {
  if (relay_) {
    relay_->stop();
    const NetStats& s = relay_->stats();
    log("relay: sent " + std::to_string(s.sent) + ", arrived " + std::to_string(s.arrived) +
        ", lost " + std::to_string(s.lost) + ", corrupted " + std::to_string(s.corrupted) +
        ", duplicated " + std::to_string(s.duplicated));
    for (const std::string& idle : relay_->idle_selectors()) log("relay: " + idle + " picked nothing in this run");
    relay_.reset();
  }
  if (network_) {
    for (const std::string& idle : network_->idle_selectors()) log("network: " + idle + " picked nothing in this run");
    log(network_->summary());
    network_.reset();
  }
  captures_.clear();
}

}  // namespace conform

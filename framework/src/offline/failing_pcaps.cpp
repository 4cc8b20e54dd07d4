// Copying the records of failing connections out of their captures.
#include "offline/failing_pcaps.hpp"

#include "capture/record_split.hpp"
#include "capture/unit_source.hpp"

#include <filesystem>
#include <fstream>
#include <unordered_map>

namespace conform {

std::size_t write_failing_pcaps(const FailingUnits& failing, const std::vector<SplitCapture>& captures) {
  std::size_t written = 0;
  for (std::size_t k = 0; k < captures.size(); ++k) {
    std::unordered_map<std::uint64_t, int> output_of;
    std::vector<std::string> outputs;
    for (const auto& unit : captures[k].units) {
      if (unit.transport != "QUIC" || !failing[k].count(unit.number)) continue;
      const auto source = read_unit_source(unit.folder);
      // A QUIC unit's folder is made for what is written into it.
      std::filesystem::create_directories(unit.folder);
      for (const auto frame : source ? source->frames : std::vector<std::uint64_t>{})
        output_of[frame] = static_cast<int>(outputs.size());
      // Its key log lines beside it, for Wireshark.
      std::ofstream(std::filesystem::path(unit.folder) / kFailingKeysFile, std::ios::binary)
          << (source ? source->key_log : std::string());
      outputs.push_back((std::filesystem::path(unit.folder) / kFailingPcapFile).string());
    }
    if (outputs.empty()) continue;
    split_records(captures[k].path, [&](std::uint64_t frame) {
      const auto it = output_of.find(frame);
      return it == output_of.end() ? -1 : it->second;
    }, outputs);
    written += outputs.size();
  }
  return written;
}

}  // namespace conform

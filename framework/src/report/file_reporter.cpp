// Writing a report file at the end of a run.
#include "report/file_reporter.hpp"

#include <filesystem>
#include <fstream>
#include <stdexcept>

#include <unistd.h>

namespace conform {
namespace fs = std::filesystem;

void write_file_atomically(const std::string& path, const std::string& text) {
  fs::path target(path);
  fs::path tmp = target;
  tmp += ".tmp." + std::to_string(getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << text;
    out.flush();
    if (!out) throw std::runtime_error(path + ": cannot write report");
  }
  std::error_code ec;
  fs::rename(tmp, target, ec);
  if (ec) {
    fs::remove(tmp, ec);
    throw std::runtime_error(path + ": cannot write report: " + ec.message());
  }
}

void CollectingReporter::end(const RunTotals& totals) { write_file_atomically(path_, render(totals)); }

}  // namespace conform

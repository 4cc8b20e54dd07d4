// Writing a report file at the end of a run.
#include "report/file_reporter.hpp"

#include "common/input_error.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include <unistd.h>

namespace conform {
namespace fs = std::filesystem;

namespace {

// Writes `text` to the stream and reports whether every byte reached the
// file: a full disk shows only at flush or close.
bool write_all(std::ofstream& out, const std::string& text) {
  out << text;
  out.flush();
  const bool written = out.good();
  out.close();
  return written && !out.fail();
}

}  // namespace

void write_file_atomically(const std::string& path, const std::string& text) {
  const fs::path target(path);
  std::error_code ec;
  if (fs::is_directory(target, ec)) throw InputError({path}, "cannot write the report: is a folder");
  // A device, pipe or socket (a FIFO a CI step reads), or a symbolic link
  // (/dev/stdout, whatever it points to), is written in place, through the
  // link: renaming a temporary file over it would replace it (as root,
  // /dev/stdout itself).
  if (fs::is_symlink(target, ec) || (fs::exists(target, ec) && !fs::is_regular_file(target, ec))) {
    // errno is cleared before the open, so a failed open keeps its reason.
    errno = 0;
    std::ofstream out(target, std::ios::binary);
    if (!out.is_open() || !write_all(out, text))
      throw InputError({path}, std::string("cannot write the report: ") +
                                   (errno ? std::strerror(errno) : "write failed"));
    return;
  }
  fs::path tmp = target;
  tmp += ".tmp." + std::to_string(getpid());
  errno = 0;
  std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
  if (!out.is_open() || !write_all(out, text)) {
    const std::string why = errno ? std::strerror(errno) : "write failed";
    fs::remove(tmp, ec);
    throw InputError({path}, "cannot write the report: " + why);
  }
  fs::rename(tmp, target, ec);
  if (ec) {
    fs::remove(tmp, ec);
    throw InputError({path}, "cannot write the report: " + ec.message());
  }
}

void CollectingReporter::end(const RunTotals& totals) { write_file_atomically(path_, render(totals)); }

}  // namespace conform

// Judged records on disk until the reports take them.
#include "offline/record_spill.hpp"

#include "common/input_error.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

namespace conform {

namespace {

// Named after the folder it is in: a full or read-only disk there is the
// user's to mend (exit 2, as for what conform cannot read).
[[noreturn]] void fail(const std::string& folder, const std::string& what) {
  const int error = errno;
  throw InputError({folder}, "the temporary file of judged records: " + what + ": " + std::strerror(error));
}

// A record as bytes: every field, in declaration order; integers in the
// machine's own order (the file never leaves the process), strings and
// lists after their length. Several times quicker than the reports' JSON,
// which a capture of ten thousand connections paid seconds for.
class Writer {
 public:
  template <typename T>
  void raw(const T& v) {
    const auto* p = reinterpret_cast<const std::uint8_t*>(&v);
    bytes.insert(bytes.end(), p, p + sizeof v);
  }
  void size(std::size_t n) { raw(std::uint64_t{n}); }
  void text(std::string_view t) {
    size(t.size());
    bytes.insert(bytes.end(), t.begin(), t.end());
  }
  void value(const Value& v) {
    raw(static_cast<std::uint8_t>(v.index()));
    std::visit(
        [this](const auto& x) {
          using T = std::decay_t<decltype(x)>;
          if constexpr (std::is_same_v<T, std::string>) {
            text(x);
          } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
            size(x.size());
            for (const auto& t : x) text(t);
          } else {
            raw(x);
          }
        },
        v);
  }
  void record(const RunRecord& r) {
    raw(r.seed);
    text(r.mutant);
    raw(r.status);
    text(r.reason);
    size(r.checks.size());
    for (const auto& c : r.checks) {
      text(c.check);
      size(c.params.size());
      for (const auto& [name, v] : c.params) {
        text(name);
        value(v);
      }
      raw(c.result.verdict);
      text(c.result.summary);
      size(c.result.evidence.size());
      for (const auto& e : c.result.evidence) {
        text(e.capture);
        raw(e.frame);
        raw(e.time_ns);
        text(e.text);
      }
      raw(c.level);
    }
    raw(r.duration_s);
    text(r.artifact_dir);
    size(r.captures.size());
    for (const auto& [file, vantage] : r.captures) {
      text(file);
      text(vantage);
    }
  }

  std::vector<std::uint8_t> bytes;
};

class Reader {
 public:
  explicit Reader(const std::vector<std::uint8_t>& bytes) : at_(bytes.data()), end_(bytes.data() + bytes.size()) {}

  template <typename T>
  T raw() {
    T v;
    take(&v, sizeof v);
    return v;
  }
  std::size_t size() { return raw<std::uint64_t>(); }
  std::string text() {
    std::string t(size(), '\0');
    take(t.data(), t.size());
    return t;
  }
  Value value() {
    switch (raw<std::uint8_t>()) {
      case 0: return raw<bool>();
      case 1: return raw<std::int64_t>();
      case 2: return raw<double>();
      case 3: return text();
      default: {
        std::vector<std::string> list(size());
        for (auto& t : list) t = text();
        return list;
      }
    }
  }
  RunRecord record() {
    RunRecord r;
    r.seed = raw<std::uint64_t>();
    r.mutant = text();
    r.status = raw<Status>();
    r.reason = text();
    r.checks.resize(size());
    for (auto& c : r.checks) {
      c.check = text();
      for (std::size_t n = size(); n > 0; --n) {
        std::string name = text();
        c.params.emplace(std::move(name), value());
      }
      c.result.verdict = raw<Verdict>();
      c.result.summary = text();
      c.result.evidence.resize(size());
      for (auto& e : c.result.evidence) {
        e.capture = text();
        e.frame = raw<std::uint64_t>();
        e.time_ns = raw<std::int64_t>();
        e.text = text();
      }
      c.level = raw<RequirementLevel>();
    }
    r.duration_s = raw<double>();
    r.artifact_dir = text();
    r.captures.resize(size());
    for (auto& [file, vantage] : r.captures) {
      file = text();
      vantage = text();
    }
    return r;
  }

 private:
  void take(void* to, std::size_t n) {
    if (static_cast<std::size_t>(end_ - at_) < n) throw std::runtime_error("the temporary file of judged records is damaged");
    std::memcpy(to, at_, n);
    at_ += n;
  }
  const std::uint8_t* at_;
  const std::uint8_t* end_;
};

}  // namespace

RecordSpill::RecordSpill() {
  const char* dir = std::getenv("TMPDIR");
  folder_ = dir && *dir ? dir : "/tmp";
  std::string path = folder_ + "/conform-check-XXXXXX";
  const int fd = ::mkstemp(path.data());
  if (fd < 0) fail(folder_, dir && *dir ? "cannot create it in $TMPDIR" : "cannot create it in /tmp ($TMPDIR unset)");
  ::unlink(path.c_str());  // gone with the process, however it ends
  file_.reset(::fdopen(fd, "w+b"));
  if (!file_) {
    ::close(fd);
    fail(folder_, "cannot open it");
  }
}

void RecordSpill::flush() {
  std::lock_guard lock(mutex_);
  if (appending_ && std::fflush(file_.get()) != 0) fail(folder_, "cannot write it");
}

void RecordSpill::put(const Key& key, const RunRecord& record) {
  Writer writer;
  writer.record(record);
  const std::vector<std::uint8_t>& bytes = writer.bytes;
  std::lock_guard lock(mutex_);
  // Records are written one after the other through the stream's buffer:
  // a seek would flush it, a system call per record.
  if (!appending_ && std::fseek(file_.get(), static_cast<long>(end_), SEEK_SET) != 0) fail(folder_, "cannot write it");
  appending_ = true;
  if (std::fwrite(bytes.data(), 1, bytes.size(), file_.get()) != bytes.size()) fail(folder_, "cannot write it");
  at_[key] = {end_, bytes.size()};
  end_ += bytes.size();
}

void RecordSpill::judged(std::size_t capture, std::size_t connection, const Judged& how) {
  std::lock_guard lock(mutex_);
  judged_[{capture, connection}] = how;
}

std::optional<RecordSpill::Judged> RecordSpill::how(std::size_t capture, std::size_t connection) const {
  std::lock_guard lock(mutex_);
  const auto it = judged_.find({capture, connection});
  if (it == judged_.end()) return std::nullopt;
  return it->second;
}

std::optional<RunRecord> RecordSpill::take(const Key& key) {
  std::vector<std::uint8_t> bytes;
  {
    std::lock_guard lock(mutex_);
    const auto it = at_.find(key);
    if (it == at_.end()) return std::nullopt;
    // What the stream holds written, then each record by its offset, one
    // system call each (a seek would empty the stream's buffer anyway).
    if (appending_ && std::fflush(file_.get()) != 0) fail(folder_, "cannot write it");
    appending_ = false;
    bytes.resize(it->second.second);
    const auto got = ::pread(fileno(file_.get()), bytes.data(), bytes.size(), static_cast<off_t>(it->second.first));
    if (got < 0 || static_cast<std::size_t>(got) != bytes.size()) fail(folder_, "cannot read it back");
    at_.erase(it);
  }
  return Reader(bytes).record();
}

std::size_t RecordSpill::size() const {
  std::lock_guard lock(mutex_);
  return at_.size();
}

}  // namespace conform

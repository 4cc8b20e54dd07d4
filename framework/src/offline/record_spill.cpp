// Judged records on disk until the reports take them.
#include "offline/record_spill.hpp"

#include "run/record_json.hpp"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace conform {

namespace {

[[noreturn]] void fail(const char* what) {
  throw std::runtime_error(std::string("the temporary file of judged records: ") + what + ": " +
                           std::strerror(errno));
}

}  // namespace

RecordSpill::RecordSpill() : file_(std::tmpfile()) {
  if (!file_) fail("cannot create it");
}

void RecordSpill::put(const Key& key, const RunRecord& record) {
  // CBOR: the same document as the reports' JSON, smaller and quicker to read back.
  const std::vector<std::uint8_t> bytes = nlohmann::json::to_cbor(to_json(record));
  std::lock_guard lock(mutex_);
  if (std::fseek(file_.get(), static_cast<long>(end_), SEEK_SET) != 0 ||
      std::fwrite(bytes.data(), 1, bytes.size(), file_.get()) != bytes.size())
    fail("cannot write it");
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
    bytes.resize(it->second.second);
    if (std::fseek(file_.get(), static_cast<long>(it->second.first), SEEK_SET) != 0 ||
        std::fread(bytes.data(), 1, bytes.size(), file_.get()) != bytes.size())
      fail("cannot read it back");
    at_.erase(it);
  }
  return record_from_json(nlohmann::json::from_cbor(bytes));
}

std::size_t RecordSpill::size() const {
  std::lock_guard lock(mutex_);
  return at_.size();
}

}  // namespace conform

// Status names.
#include "run/result.hpp"

#include <array>

namespace conform {
namespace {
constexpr std::array<const char*, 8> kNames = {"PASS",        "FAIL",  "XFAIL",   "XPASS",
                                               "UNSUPPORTED", "ERROR", "TIMEOUT", "INTERRUPTED"};
}

const char* to_string(Status s) { return kNames[static_cast<std::size_t>(s)]; }

Status status_from_string(const std::string& s) {
  for (std::size_t i = 0; i < kNames.size(); ++i)
    if (s == kNames[i]) return static_cast<Status>(i);
  return Status::error;
}

bool is_failure(Status s) {
  return s == Status::fail || s == Status::xpass || s == Status::error || s == Status::timeout ||
         s == Status::interrupted;
}

const char* verdict_word(const CheckResult& r) {
  if (!r.judged) return "NOT JUDGED";
  return r.passed ? "pass" : "FAIL";
}

}  // namespace conform

// Tests that need a third-party peer: skipped, saying which package to
// install, when it is missing; failed instead under CONFORM_REQUIRE_PEERS=1
// (.ci/run), so CI cannot go green without the peers. Minimal until the
// general "needs tool X" helper (CONFORM_REQUIRE_TOOLS) lands.
#pragma once

#include <boost/test/unit_test.hpp>

#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

namespace conform::test {

/// Whether `program` is an executable path, or a name found in /usr/bin,
/// /usr/sbin, /bin, /sbin or /usr/local/bin.
inline bool peer_installed(const std::string& program) {
  if (program.find('/') != std::string::npos) return access(program.c_str(), X_OK) == 0;
  for (const char* dir : {"/usr/bin", "/usr/sbin", "/bin", "/sbin", "/usr/local/bin"})
    if (access((std::string(dir) + "/" + program).c_str(), X_OK) == 0) return true;
  return false;
}

/// True when one of `programs` is missing: the test should return. Reports
/// SKIPPED naming `package`, or fails the test under CONFORM_REQUIRE_PEERS=1.
inline bool peer_missing(const std::vector<std::string>& programs, const std::string& package) {
  for (const auto& p : programs) {
    if (peer_installed(p)) continue;
    const std::string why = "'" + p + "' is not installed (" + package + ")";
    const char* required = std::getenv("CONFORM_REQUIRE_PEERS");
    if (required && std::string(required) == "1")
      BOOST_ERROR("CONFORM_REQUIRE_PEERS=1: " + why);
    else
      BOOST_TEST_MESSAGE("SKIPPED: " + why);
    return true;
  }
  return false;
}

}  // namespace conform::test

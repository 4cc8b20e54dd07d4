// What a test needs from the machine beyond the build (a program such as
// gtlsclient, tshark or chromium; root), as a Boost.Test decorator: the test
// is skipped, saying what is missing, unless the environment variable that
// requires it (CONFORM_REQUIRE_TOOLS, which .ci/run sets; the interop peers'
// tests read CONFORM_REQUIRE_PEERS) is 1, and then it fails saying so.
//
//   BOOST_AUTO_TEST_CASE(fetches_from_gtlsserver, *needs({"gtlsclient", "gtlsserver"}))
//   BOOST_AUTO_TEST_SUITE(html_browser_test, *needs({"chromium"}))
//
// A skipped test ends its test program with kSkipExitCode, which ctest shows
// as skipped (tests/CMakeLists.txt: SKIP_RETURN_CODE). tests/CMakeLists.txt
// gives each test case written `BOOST_AUTO_TEST_CASE(name, *needs...` on one
// line a ctest test of its own, so its skip is not hidden among the file's
// other cases.
#pragma once

#include <boost/test/tree/decorator.hpp>

#include <string>
#include <vector>

namespace conform::test {

/// The exit code of a test program that skipped a test for a missing need
/// and failed none.
inline constexpr int kSkipExitCode = 77;

/// The variable that turns missing tools into failures.
inline constexpr const char* kRequireTools = "CONFORM_REQUIRE_TOOLS";

/// The variable that turns missing third-party peers (suites/interop's
/// stacks) into failures.
inline constexpr const char* kRequirePeers = "CONFORM_REQUIRE_PEERS";

/// What a test needs.
struct Need {
  /// Programs, found as external::program_path finds them ($PATH, then the
  /// sbin folders).
  std::vector<std::string> programs;
  bool root = false;
  /// The environment variable that makes a missing need a failure.
  std::string required_by = kRequireTools;
};

/// Empty when `need` is met, else what is missing ("gtlsclient is not
/// installed; not root").
std::string missing(const Need& need);

/// The decorator: skip (or, when required, fail) unless `need` is met.
class needs : public boost::unit_test::decorator::base {
 public:
  explicit needs(Need need) : need_(std::move(need)) {}
  needs(std::vector<std::string> programs) : need_{std::move(programs)} {}

 private:
  void apply(boost::unit_test::test_unit& unit) override;
  boost::unit_test::decorator::base_ptr clone() const override {
    return boost::unit_test::decorator::base_ptr(new needs(need_));
  }
  Need need_;
};

/// Root (capturing on lo, device nodes, dropping to another user).
inline needs needs_root() { return needs(Need{{}, true}); }

/// Third-party peers: programs (a name, or a path such as a peer program
/// of the build), required under CONFORM_REQUIRE_PEERS.
inline needs needs_peers(std::vector<std::string> programs) {
  return needs(Need{std::move(programs), false, kRequirePeers});
}

/// `code`, the test program's own exit code, or kSkipExitCode when it is 0
/// and a test was skipped for a missing need.
int exit_code_after_skips(int code);

}  // namespace conform::test

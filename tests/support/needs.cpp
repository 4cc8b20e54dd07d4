// Skipping or failing a test for what the machine lacks.
#include "support/needs.hpp"

#include <child_process.hpp>

#include <boost/test/tree/fixture.hpp>
#include <boost/test/tree/test_unit.hpp>

#include <unistd.h>

#include <cstdlib>
#include <stdexcept>

namespace conform::test {
namespace {

// Tests skipped in this program for a missing need.
int g_skipped = 0;

bool required(const Need& need) {
  const char* value = std::getenv(need.required_by.c_str());
  return value && std::string(value) == "1";
}

}  // namespace

std::string missing(const Need& need) {
  std::string out;
  auto add = [&](const std::string& what) { out += (out.empty() ? "" : "; ") + what; };
  for (const auto& p : need.programs)
    if (external::program_path(p, {}).empty()) add(p + " is not installed");
  if (need.root && geteuid() != 0) add("not root");
  return out;
}

void needs::apply(boost::unit_test::test_unit& unit) {
  namespace decorator = boost::unit_test::decorator;
  const Need need = need_;
  if (required(need)) {
    // The fixture's setup runs where the test would: a missing need is then
    // the test's failure, with the reason.
    auto fail_if_missing = [need] {
      if (const std::string why = missing(need); !why.empty())
        throw std::runtime_error(why + " (" + need.required_by + "=1 requires it)");
    };
    decorator::fixture_t fixture(boost::unit_test::test_unit_fixture_ptr(
        new boost::unit_test::function_based_fixture(fail_if_missing, [] {})));
    static_cast<decorator::base&>(fixture).apply(unit);
    return;
  }
  decorator::precondition skip_if_missing([need](boost::unit_test::test_unit_id) {
    const std::string why = missing(need);
    if (why.empty()) return boost::test_tools::assertion_result(true);
    ++g_skipped;
    boost::test_tools::assertion_result result(false);
    result.message() << "SKIPPED: " << why << " (" << need.required_by << "=1 makes this a failure)";
    return result;
  });
  static_cast<decorator::base&>(skip_if_missing).apply(unit);
}

int exit_code_after_skips(int code) { return code == 0 && g_skipped > 0 ? kSkipExitCode : code; }

}  // namespace conform::test

// `conform checks [--json | --markdown]`: the catalogue as the checks
// declare it, and docs/checks.md's tables, which scripts/update-docs.sh
// writes from `conform checks --markdown`.
#include "check/registry.hpp"
#include "support/support.hpp"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

using namespace conform;
using namespace conform::test;

namespace {

// Counted by hand: a check whose file stops registering it (or a file the
// build stops seeing) changes the catalogue and this number apart.
constexpr std::size_t kChecks = 33;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// The text between `<!-- generated: checks -->` and its end marker, and
// the line of the file where it starts.
std::pair<std::string, std::size_t> generated_block(const std::string& doc) {
  const std::string begin = "<!-- generated: checks -->\n", end = "<!-- end generated: checks -->";
  const auto b = doc.find(begin), e = doc.find(end);
  if (b == std::string::npos || e == std::string::npos || e < b) return {"(no generated block)", 0};
  const auto first_line = std::size_t(std::count(doc.begin(), doc.begin() + std::ptrdiff_t(b), '\n')) + 2;
  return {doc.substr(b + begin.size(), e - b - begin.size()), first_line};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(checks_command_test)

BOOST_AUTO_TEST_CASE(json_lists_every_registered_check) {
  const auto r = run_conform({"checks", "--json"});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  const auto doc = nlohmann::json::parse(r.out);
  std::vector<std::string> names;
  for (const auto& c : doc) names.push_back(c.at("name").get<std::string>());
  BOOST_TEST(names == CheckRegistry::builtin().names(), boost::test_tools::per_element());
  BOOST_TEST(names.size() == kChecks);

  const auto& m = *std::find_if(doc.begin(), doc.end(), [](const auto& c) { return c["name"] == "max_streams_extended"; });
  BOOST_TEST(m["transport"] == "QUIC");
  BOOST_TEST(m["level"] == "expectation");
  BOOST_TEST(m["rfc"] == "RFC 9000 §4.6 (expected practice, no MUST), §19.11");
  BOOST_TEST(m["params"][0]["name"] == "by");
  BOOST_TEST(m["params"][0]["type"] == "string");
  BOOST_TEST(m["params"][0].count("default") == 0u);  // required
  BOOST_TEST(m["params"][0]["one_of"] == nlohmann::json({"client", "server"}));
  BOOST_TEST(m["params"][2]["name"] == "expected");
  BOOST_TEST(m["params"][2]["default"] == -1);
  const auto& t = *std::find_if(doc.begin(), doc.end(), [](const auto& c) { return c["name"] == "no_stalls"; });
  BOOST_TEST(t["transport"] == "TCP");
  BOOST_TEST(t["level"] == "MUST");
  const auto& udp = *std::find_if(doc.begin(), doc.end(), [](const auto& c) { return c["name"] == "datagrams_captured"; });
  BOOST_TEST(udp["transport"] == "UDP");
  // A float's bounds, as the loader holds values to them: (0, 100].
  const auto& tt = *std::find_if(doc.begin(), doc.end(), [](const auto& c) { return c["name"] == "transfer_time"; });
  const auto& pct = *std::find_if(tt["params"].begin(), tt["params"].end(),
                                  [](const auto& p) { return p["name"] == "percentile"; });
  BOOST_TEST(pct["min"] == 0.0);
  BOOST_TEST(pct["max"] == 100.0);
  BOOST_TEST(pct["min_excluded"] == true);
}

BOOST_AUTO_TEST_CASE(text_lists_every_check_with_its_parameters) {
  const auto r = run_conform({"checks"});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  for (const auto& name : CheckRegistry::builtin().names())
    BOOST_TEST((r.out.find("\n" + name + "  ") != std::string::npos || r.out.rfind(name + "  ", 0) == 0), name);
  BOOST_TEST(r.out.find("server_initial_padded  QUIC  MUST  RFC 9000 §14.1 (MUST)\n") != std::string::npos, r.out);
  BOOST_TEST(r.out.find("    grace_ms (float) = 0.0  a wait at the limit") != std::string::npos);
  BOOST_TEST(r.out.find("\n" + std::to_string(kChecks) + " checks\n") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(docs_checks_md_holds_the_generated_tables) {
  const auto r = run_conform({"checks", "--markdown"});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  const auto [block, first_line] = generated_block(read_file(std::string(CONFORM_SOURCE_DIR) + "/docs/checks.md"));
  const auto doc = lines_of(block);
  const auto want = lines_of(r.out);
  for (std::size_t i = 0; i < std::max(doc.size(), want.size()); ++i) {
    const std::string have = i < doc.size() ? doc[i] : "(end of block)";
    const std::string gen = i < want.size() ? want[i] : "(end of output)";
    if (have != gen) {
      BOOST_ERROR("docs/checks.md:" << first_line + i << " differs from `conform checks --markdown` (run "
                  "scripts/update-docs.sh):\n  doc:       " << have
                  << "\n  generated: " << gen);
      break;
    }
  }
  BOOST_TEST(want.size() > kChecks);
}

BOOST_AUTO_TEST_SUITE_END()

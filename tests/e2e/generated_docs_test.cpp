// The docs' generated sections (scripts/update-docs.sh: the network table of
// docs/suites.md, the knob tables of docs/plugins.md, ...) equal what the
// build's declarations generate, and the check names the doc and the first
// line that differs.
#include "support/support.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <filesystem>

using namespace conform::test;
namespace fs = std::filesystem;

namespace {

const std::string kScript = std::string(CONFORM_SOURCE_DIR) + "/scripts/update-docs.sh";

std::string build_dir() { return fs::path(CONFORM_BINARY).parent_path().string(); }

CommandResult update_docs(const std::vector<std::string>& args, const std::vector<std::string>& env = {}) {
  std::vector<std::string> argv = {kScript};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_program("/bin/bash", argv, ".", env);
}

// A copy of the checkout's docs (and the script's own folder layout) in `dir`.
std::string copy_docs(const std::string& dir) {
  fs::copy(std::string(CONFORM_SOURCE_DIR) + "/docs", dir + "/docs", fs::copy_options::recursive);
  return dir;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(generated_docs_test)

BOOST_AUTO_TEST_CASE(the_committed_docs_equal_the_generated_sections) {
  const auto r = update_docs({"--check", build_dir()});
  BOOST_TEST(r.exit_code == 0, r.out + r.err);
}

BOOST_AUTO_TEST_CASE(a_stale_section_is_named_with_its_doc_and_first_differing_line) {
  const std::string root = copy_docs(scratch_dir("generated_docs_stale"));
  const std::string doc = root + "/docs/suites.md";
  std::string text = read_file(doc);
  const std::string row = "| `loss_rate` | float |";
  const auto at = text.find(row);
  BOOST_REQUIRE(at != std::string::npos);
  const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n');
  text.replace(at, row.size(), "| `loss_rate` | integer |");
  write_file(doc, text);

  auto r = update_docs({"--check", build_dir()}, {"DOCS_ROOT=" + root});
  BOOST_TEST(r.exit_code == 1, r.out + r.err);
  BOOST_TEST(r.err.find("docs/suites.md:" + std::to_string(line) +
                        ": section 'network' differs from `conform plugins --markdown network`") == 0u,
             r.err);
  BOOST_TEST(r.err.find("  committed: | `loss_rate` | integer |") != std::string::npos, r.err);

  // Without --check the section is rewritten, and then it holds.
  r = update_docs({build_dir()}, {"DOCS_ROOT=" + root});
  BOOST_TEST(r.exit_code == 0, r.out + r.err);
  BOOST_TEST(r.out == "updated docs/suites.md (network)\n", r.out);
  BOOST_TEST(read_file(doc) == read_file(std::string(CONFORM_SOURCE_DIR) + "/docs/suites.md"));
}

BOOST_AUTO_TEST_SUITE_END()

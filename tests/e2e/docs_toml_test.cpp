// Every ```toml block of docs/*.md and README.md loads with the suite
// loader as a user would load it (`conform list FILE`, the build's
// plugins). A block that is deliberately a fragment starts with a comment
// line `# fragment...`; one that is deliberately wrong starts with
// `# error: TEXT` and must be refused (exit 2) with TEXT in the message.
#include "support/support.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <filesystem>
#include <sstream>

using namespace conform::test;
namespace fs = std::filesystem;

namespace {

struct Block {
  std::string doc;  // relative to the checkout
  int line = 0;     // of the opening fence, from 1
  std::string text;
};

std::vector<Block> toml_blocks(const std::string& doc) {
  std::vector<Block> out;
  std::istringstream in(read_file(std::string(CONFORM_SOURCE_DIR) + "/" + doc));
  int n = 0;
  Block* open = nullptr;
  for (std::string line; std::getline(in, line);) {
    ++n;
    if (!open && line == "```toml") {
      out.push_back({doc, n, ""});
      open = &out.back();
    } else if (open && line.rfind("```", 0) == 0) {
      open = nullptr;
    } else if (open) {
      open->text += line + "\n";
    }
  }
  return out;
}

std::vector<Block> all_blocks() {
  std::vector<std::string> docs;
  for (const auto& e : fs::directory_iterator(std::string(CONFORM_SOURCE_DIR) + "/docs"))
    if (e.path().extension() == ".md") docs.push_back("docs/" + e.path().filename().string());
  std::sort(docs.begin(), docs.end());
  docs.push_back("README.md");
  std::vector<Block> out;
  for (const auto& doc : docs)
    for (auto& b : toml_blocks(doc)) out.push_back(std::move(b));
  return out;
}

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

}  // namespace

BOOST_AUTO_TEST_SUITE(docs_toml_test)

BOOST_AUTO_TEST_CASE(every_toml_block_of_the_docs_loads_or_fails_as_its_marker_says) {
  const std::string dir = scratch_dir("docs_toml");
  int loaded = 0, refused = 0, fragments = 0;
  for (const Block& b : all_blocks()) {
    const std::string where = b.doc + ":" + std::to_string(b.line);
    const std::string head = first_line(b.text);
    if (head.rfind("# fragment", 0) == 0) {
      ++fragments;
      continue;
    }
    std::string file = b.doc + "-" + std::to_string(b.line) + ".toml";
    std::replace(file.begin(), file.end(), '/', '-');
    const std::string path = write_file(dir + "/" + file, b.text);
    const auto r = run_conform({"list", path}, ".", {build_plugins_env()});
    const std::string error_marker = "# error: ";
    if (head.rfind(error_marker, 0) == 0) {
      ++refused;
      const std::string want = head.substr(error_marker.size());
      BOOST_TEST(r.exit_code == 2, where << ": " << r.out << r.err);
      BOOST_TEST(r.err.find(want) != std::string::npos, where << " wants '" << want << "': " << r.err);
    } else {
      ++loaded;
      BOOST_TEST(r.exit_code == 0, where << ": " << r.err);
    }
  }
  // The docs hold whole suites, refusals and fragments: none may vanish
  // unnoticed (a fence spelled differently would skip its block).
  BOOST_TEST(loaded >= 2);
  BOOST_TEST(refused >= 1);
  BOOST_TEST(fragments >= 3);
}

BOOST_AUTO_TEST_SUITE_END()

// UnitSource: a capture's QUIC units kept as lines of one file, each read
// back by its unit's folder name.
#include "capture/unit_source.hpp"
#include "common/input_error.hpp"
#include "support/support.hpp"

#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <fstream>
#include <set>

using namespace conform;
using conform::test::scratch_dir;
namespace fs = std::filesystem;

namespace {

UnitSource source(std::uint64_t first_frame, std::string keys) {
  return {"/captures/x.pcap", 1234, {first_frame, first_frame + 2}, 55, "server", std::move(keys), {}};
}

void write(const std::string& path, const std::vector<std::pair<std::size_t, UnitSource>>& units) {
  UnitSourceWriter writer(path);
  for (const auto& [n, s] : units) writer.write(n, s);
  writer.close();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(unit_source_test)

BOOST_AUTO_TEST_CASE(each_unit_is_read_back_from_its_line) {
  const std::string root = scratch_dir("unit_source_lines");
  write(root + "/" + unit_sources_file(), {{1, source(1, "CLIENT_RANDOM a b\n")}, {3, source(7, "")}});
  BOOST_TEST(unit_sources_file() == "connections.jsonl");
  BOOST_TEST(unit_folder_path(root, 3) == root + "/connection-3");
  BOOST_TEST(!fs::exists(unit_folder_path(root, 3)));
  const auto third = read_unit_source(unit_folder_path(root, 3));
  BOOST_REQUIRE(third.has_value());
  BOOST_TEST(third->capture == "/captures/x.pcap");
  BOOST_TEST(third->bytes == 1234u);
  BOOST_TEST(third->frames == (std::vector<std::uint64_t>{7, 9}), boost::test_tools::per_element());
  BOOST_TEST(third->origin_ns == 55);
  BOOST_TEST(third->vantage == "server");
  BOOST_TEST(third->key_log.empty());
  BOOST_TEST(third->from == root + "/connections.jsonl:2");
  const auto first = read_unit_source(unit_folder_path(root, 1));
  BOOST_REQUIRE(first.has_value());
  BOOST_TEST(first->key_log == "CLIENT_RANDOM a b\n");
  BOOST_TEST(first->from == root + "/connections.jsonl:1");
  BOOST_TEST(!read_unit_source(unit_folder_path(root, 2)).has_value());
  BOOST_TEST(!read_unit_source(root + "/elsewhere").has_value());
}

// The jobs of a sharded check share a capture's folder, each its own file.
BOOST_AUTO_TEST_CASE(the_jobs_of_a_shard_write_files_of_their_own) {
  const std::string root = scratch_dir("unit_source_shards");
  BOOST_TEST(unit_sources_file(2, 3) == "connections.2-of-3.jsonl");
  write(root + "/" + unit_sources_file(1, 2), {{1, source(1, "")}, {3, source(5, "")}});
  write(root + "/" + unit_sources_file(2, 2), {{2, source(3, "")}});
  for (const auto& [n, frame] : std::vector<std::pair<std::size_t, std::uint64_t>>{{1, 1}, {2, 3}, {3, 5}}) {
    const auto s = read_unit_source(unit_folder_path(root, n));
    BOOST_REQUIRE(s.has_value());
    BOOST_TEST(s->frames.front() == frame, n);
  }
}

// A file rewritten (the next check into the same --out) is read anew.
BOOST_AUTO_TEST_CASE(a_rewritten_file_is_read_anew) {
  const std::string root = scratch_dir("unit_source_rewritten");
  const std::string file = root + "/" + unit_sources_file();
  write(file, {{1, source(1, "")}});
  BOOST_TEST(read_unit_source(unit_folder_path(root, 1))->frames.front() == 1u);
  write(file, {{1, source(4, "")}, {2, source(8, "")}});
  fs::last_write_time(file, fs::last_write_time(file) + std::chrono::seconds(1));
  BOOST_TEST(read_unit_source(unit_folder_path(root, 1))->frames.front() == 4u);
  BOOST_TEST(read_unit_source(unit_folder_path(root, 2))->frames.front() == 8u);
}

BOOST_AUTO_TEST_CASE(a_folder_of_an_earlier_conform_keeps_its_source_json) {
  const std::string root = scratch_dir("unit_source_folder");
  fs::create_directories(root + "/connection-1");
  std::ofstream(root + "/connection-1/source.json")
      << R"({"capture":"/c.pcap","bytes":9,"frames":[2,4],"origin_ns":3,"vantage":"client","key_log":""})";
  const auto s = read_unit_source(root + "/connection-1");
  BOOST_REQUIRE(s.has_value());
  BOOST_TEST(s->capture == "/c.pcap");
  BOOST_TEST(s->frames == (std::vector<std::uint64_t>{2, 4}), boost::test_tools::per_element());
  BOOST_TEST(s->from == root + "/connection-1/source.json");
}

// A line that names no connection costs only the connection it could be:
// one found elsewhere is read, one not found is an error naming that line.
BOOST_AUTO_TEST_CASE(a_malformed_line_is_named_by_file_and_line) {
  const std::string root = scratch_dir("unit_source_bad");
  const std::string line1 = R"({ "connection": 1, "capture":"/c.pcap","bytes":9,"frames":[2],)"
                            R"("origin_ns":3,"vantage":"client","key_log":""})";
  std::ofstream(root + "/connections.jsonl") << line1 << "\n\nnot json\n";
  BOOST_TEST(read_unit_source(root + "/connection-1")->frames.front() == 2u);
  try {
    read_unit_source(root + "/connection-2");
    BOOST_FAIL("no error");
  } catch (const InputError& e) {
    BOOST_TEST(e.diagnostics().front().str() ==
               root + "/connections.jsonl:3:1: not a unit's source: a line starts {\"connection\":N,");
  }
  std::ofstream(root + "/connections.jsonl") << R"({"connection":1,"capture":"/c.pcap","frames":[4,2],)"
                                                R"("origin_ns":3})" "\n";
  fs::last_write_time(root + "/connections.jsonl", fs::last_write_time(root + "/connections.jsonl") + std::chrono::seconds(1));
  try {
    read_unit_source(root + "/connection-1");
    BOOST_FAIL("no error");
  } catch (const InputError& e) {
    BOOST_TEST(e.diagnostics().front().str() == root + "/connections.jsonl:1: frames are not in ascending order");
  }
  // Cut short: the parser's words, without the secrets it last read.
  std::ofstream(root + "/connections.jsonl") << R"({"connection":1,"capture":"/c.pcap","key_log":"CLIENT_RANDOM 00 11)";
  fs::last_write_time(root + "/connections.jsonl", fs::last_write_time(root + "/connections.jsonl") + std::chrono::seconds(2));
  try {
    read_unit_source(root + "/connection-1");
    BOOST_FAIL("no error");
  } catch (const InputError& e) {
    const std::string said = e.diagnostics().front().str();
    BOOST_TEST(said.rfind(root + "/connections.jsonl:1: not a unit's source: ", 0) == 0, said);
    BOOST_TEST(said.find("CLIENT_RANDOM") == std::string::npos, said);
  }
}

BOOST_AUTO_TEST_CASE(a_connection_with_two_lines_is_refused) {
  const std::string root = scratch_dir("unit_source_twice");
  write(root + "/" + unit_sources_file(), {{1, source(1, "")}, {2, source(3, "")}, {1, source(5, "")}});
  BOOST_TEST(read_unit_source(unit_folder_path(root, 2))->frames.front() == 3u);
  try {
    read_unit_source(unit_folder_path(root, 1));
    BOOST_FAIL("no error");
  } catch (const InputError& e) {
    BOOST_TEST(e.diagnostics().front().str() ==
               root + "/connections.jsonl:3:1: connection 1 has a line already, line 1");
  }
}

// A job of a sharded check clears what an unsplit check or a sharding into
// another number of jobs left in the capture's folder, and keeps its peers'.
BOOST_AUTO_TEST_CASE(a_sharded_job_removes_the_files_of_other_shardings) {
  const std::string root = scratch_dir("unit_source_stale");
  for (const auto& name : {unit_sources_file(), unit_sources_file(1, 3), unit_sources_file(2, 12),
                           unit_sources_file(2, 2), unit_sources_file(1, 2)})
    write(root + "/" + name, {{1, source(1, "")}});
  std::ofstream(root + "/other.jsonl") << "x\n";
  remove_other_sources_files(root, unit_sources_file(1, 2));
  std::set<std::string> left;
  for (const auto& e : fs::directory_iterator(root)) left.insert(e.path().filename().string());
  BOOST_TEST(left == (std::set<std::string>{"connections.1-of-2.jsonl", "connections.2-of-2.jsonl", "other.jsonl"}),
             boost::test_tools::per_element());
  remove_other_sources_files(root, unit_sources_file());
  left.clear();
  for (const auto& e : fs::directory_iterator(root)) left.insert(e.path().filename().string());
  BOOST_TEST(left == (std::set<std::string>{"other.jsonl"}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_SUITE_END()

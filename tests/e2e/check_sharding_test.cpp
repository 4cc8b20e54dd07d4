// `conform check --shard K/N` and `conform merge`: the jobs of a sharded
// check, merged, give the report of the whole check; merge refuses jobs of
// other checks; capture lists by folder, pattern and @LIST.
#include "support/support.hpp"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <functional>
#include <regex>

using namespace conform::test;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const std::string kCaptures = std::string(CONFORM_SOURCE_DIR) + "/captures";
const std::vector<std::string> kEnv{std::string("CONFORM_PLUGIN_PATH=") + CONFORM_PLUGIN_DIR};

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A report without what differs from one job to another by nature: the
// time each case took, and the list of shard reports a merge adds.
json without_timings(json j) {
  if (j.is_object()) {
    j.erase("duration_s");
    j.erase("merged_from");
    for (auto& [key, value] : j.items()) value = without_timings(value);
  } else if (j.is_array()) {
    for (auto& value : j) value = without_timings(value);
  }
  return j;
}

// The ngtcp2 captures (10 files, 11 connections) with their key logs.
std::vector<std::string> ngtcp2_check(const std::string& out) {
  std::vector<std::string> args{"check", kCaptures + "/ngtcp2"}, keys;
  for (const auto& entry : fs::directory_iterator(kCaptures + "/ngtcp2"))
    if (entry.path().extension() == ".keys") keys.push_back(entry.path().string());
  std::sort(keys.begin(), keys.end());
  for (const auto& k : keys) args.insert(args.end(), {"--keylog", k});
  args.insert(args.end(), {"--out", out, "-q"});
  return args;
}

std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(check_sharding_test)

// Three jobs, captures of at least 17000 bytes split by connection (six of
// the ten, two-connections.pcap among them), all writing to one --out as
// jobs on a shared volume do: merged, the same JSON and JUnit as one job.
BOOST_AUTO_TEST_CASE(three_jobs_merge_into_the_report_of_the_whole_check) {
  const std::string dir = scratch_dir("check_sharding_whole");
  const auto check = ngtcp2_check(dir + "/out");
  const auto whole = run_conform(with(check, {"--json", dir + "/whole.json", "--junit", dir + "/whole.xml"}), ".", kEnv);
  BOOST_TEST(whole.exit_code == 1, whole.out + whole.err);
  std::vector<std::string> jobs;
  std::size_t judged = 0;
  for (int k = 1; k <= 3; ++k) {
    jobs.push_back(dir + "/job-" + std::to_string(k) + ".json");
    const auto r = run_conform(with(check, {"--shard", std::to_string(k) + "/3", "--split-bytes", "17000",
                                            "--json", jobs.back()}),
                               ".", kEnv);
    BOOST_TEST((r.exit_code == 0 || r.exit_code == 1), r.out + r.err);
    const json job = json::parse(read_file(jobs.back()));
    judged += job.at("cases").size();
    // Each job reads the split captures, and judges its own of their connections.
    std::size_t split = 0;
    for (const auto& c : job.at("check_shard").at("captures")) split += c.at("split").get<bool>();
    BOOST_TEST(split == 6u);
    BOOST_TEST(job.at("check_shard").at("captures").size() == 10u);
  }
  const json one = json::parse(read_file(dir + "/whole.json"));
  BOOST_TEST(judged == one.at("cases").size());
  BOOST_TEST(one.at("cases").size() == 66u);
  const auto merged = run_conform(with({"merge"}, with(jobs, {"--json", dir + "/merged.json", "--junit",
                                                            dir + "/merged.xml", "-q"})),
                                  ".", kEnv);
  BOOST_TEST(merged.exit_code == whole.exit_code, merged.out + merged.err);
  const json merged_report = json::parse(read_file(dir + "/merged.json"));
  BOOST_TEST(merged_report.at("merged_from").size() == 3u);
  BOOST_TEST(without_timings(merged_report).dump(1) == without_timings(one).dump(1));
  const std::regex time(R"( time="[^"]*")");
  BOOST_TEST(std::regex_replace(read_file(dir + "/merged.xml"), time, "") ==
             std::regex_replace(read_file(dir + "/whole.xml"), time, ""));
}

BOOST_AUTO_TEST_CASE(merge_refuses_jobs_of_other_checks) {
  const std::string dir = scratch_dir("check_sharding_refused");
  const auto check = ngtcp2_check(dir + "/out");
  auto job = [&](const std::string& name, const std::string& shard, const std::vector<std::string>& more = {}) {
    const std::string path = dir + "/" + name + ".json";
    const auto r = run_conform(with(with(check, {"--shard", shard, "--json", path}), more), ".", kEnv);
    BOOST_TEST((r.exit_code == 0 || r.exit_code == 1), r.out + r.err);
    return path;
  };
  const std::string one = job("one", "1/2"), two = job("two", "2/2");
  const auto merge = [&](const std::vector<std::string>& reports) {
    return run_conform(with({"merge"}, with(reports, {"--json", dir + "/merged.json"})), ".", kEnv);
  };
  BOOST_TEST(merge({one, two}).exit_code == 1);
  const auto refused = [&](const std::vector<std::string>& reports, const std::string& why) {
    fs::remove(dir + "/merged.json");
    const auto r = merge(reports);
    BOOST_TEST(r.exit_code == 2, r.out + r.err);
    BOOST_TEST(contains(r.err, why), r.err);
    BOOST_TEST(!fs::exists(dir + "/merged.json"));
  };
  refused({one}, one + ": shard 2/2 missing: the merge would not be the whole check");
  refused({one, one, two}, one + ": shard 1/2 again (also " + one + ")");
  refused({one, job("again", "1/2"), two}, dir + "/again.json: shard 1/2 again (also " + one + ")");
  refused({one, job("filtered", "2/2", {"--filter", "capture/max-*"})},
          dir + "/filtered.json: judged other cases than " + one + " (other suites, filters or sections)");
  refused({one, job("split", "2/2", {"--split-bytes", "17000"})},
          dir + "/split.json: judged other captures than " + one);
  refused({one, job("three", "2/3")}, dir + "/three.json: a job of 3 shards, but " + one + " of 2");
  // A report whose member was taken away, or written by another conform.
  json edited = json::parse(read_file(two));
  edited.erase("check_shard");
  write_file(dir + "/plain.json", edited.dump());
  refused({one, dir + "/plain.json"}, dir + "/plain.json: not a job of a sharded check");
  edited = json::parse(read_file(two));
  edited["conform_version"] = "0.0.9";
  write_file(dir + "/older.json", edited.dump());
  refused({one, dir + "/older.json"}, dir + "/older.json: written by conform 0.0.9");
  // Places edited: each refused, not merged in a wrong order.
  const auto edit = [&](const std::string& name, const std::function<void(json&)>& change) {
    json j = json::parse(read_file(two));
    change(j);
    return write_file(dir + "/" + name + ".json", j.dump());
  };
  refused({one, edit("place", [](json& j) { j["check_shard"]["judged"][0][2] = 5; })},
          dir + "/place.json: at /check_shard/judged/0/2: expected a connection's number, 1 to 1");
  refused({one, edit("case", [](json& j) { j["check_shard"]["judged"][0][0] = 999; })},
          dir + "/case.json: at /check_shard/judged/0/0: expected the index of one of the job's 6 cases (from 0)");
  refused({one, edit("swapped", [](json& j) { std::swap(j["check_shard"]["judged"][0], j["check_shard"]["judged"][1]); })},
          dir + "/swapped.json: at /check_shard/judged/1: places out of order");
  refused({one, edit("id", [](json& j) { j["cases"][0]["id"] = "capture/foo @ elsewhere.pcap#1"; })},
          dir + "/id.json: case 'capture/foo @ elsewhere.pcap#1' is placed on connection 1 of ");
  refused({one, edit("bytes", [](json& j) { j["check_shard"]["captures"][0]["bytes"] = 1; })},
          dir + "/bytes.json: its captures or cases differ from those of " + one);
  // A key log whose contents changed between the jobs.
  const std::string keys = write_file(dir + "/all.keys", read_file(kCaptures + "/ngtcp2/handshake.keys"));
  const std::string first = job("keys-1", "1/2", {"--keylog", keys});
  write_file(keys, "");
  refused({first, job("keys-2", "2/2", {"--keylog", keys})}, dir + "/keys-2.json: judged other captures than " + first);
}

// A connection of a split capture claimed by the job it is not dealt to.
BOOST_AUTO_TEST_CASE(merge_refuses_a_connection_moved_to_another_job) {
  const std::string dir = scratch_dir("check_sharding_moved");
  const std::string capture = kCaptures + "/ngtcp2/two-connections.pcap";
  std::vector<std::string> jobs;
  for (const char* k : {"1", "2"}) {
    jobs.push_back(dir + "/job-" + k + ".json");
    run_conform({"check", capture, "--shard", std::string(k) + "/2", "--split-bytes", "1", "--out", dir + "/out",
                 "--json", jobs.back(), "-q"},
                ".", kEnv);
  }
  json one = json::parse(read_file(jobs[0])), two = json::parse(read_file(jobs[1]));
  // Capture 0's connection 1 is job 1's, connection 2 job 2's.
  BOOST_TEST(one.at("check_shard").at("judged")[0] == json::parse("[0, 0, 1]"));
  BOOST_TEST(two.at("check_shard").at("judged")[0] == json::parse("[0, 0, 2]"));
  two["check_shard"]["judged"][0][2] = 1;
  two["cases"][0]["id"] = one["cases"][0]["id"];
  two["offline"]["captures"][0]["units"][0]["connection"] = 1;
  two["offline"]["captures"][0]["units"][0]["label"] = "two-connections.pcap#1";
  write_file(dir + "/moved.json", two.dump());
  const auto r = run_conform({"merge", jobs[0], dir + "/moved.json"}, ".", kEnv);
  BOOST_TEST(r.exit_code == 2, r.out + r.err);
  BOOST_TEST(contains(r.err, dir + "/moved.json: judges connection 1 of " + capture + ", which is another job's"),
             r.err);
}

// Options a job cannot run with: exit 2 before anything is read.
BOOST_AUTO_TEST_CASE(shard_options_are_refused_when_they_cannot_hold) {
  const std::string capture = kCaptures + "/ngtcp2/handshake.pcap";
  for (const auto& [args, why] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"--shard", ""}, "--shard takes K/N with 1 <= K <= N <= 10000 (e.g. 2/4), not ''"},
           {{"--shard", "1/2", "--split-bytes", "0"}, "--split-bytes: takes a whole number of bytes from 1 to 10^18, not '0'"},
           {{"--shard", "1/2", "--split-bytes", "1k"}, "not '1k'"},
           {{"--split-bytes", "100"}, "--split-bytes requires --shard"}}) {
    const auto r = run_conform(with({"check", capture, "--out", "/nonexistent/out"}, args), ".", kEnv);
    BOOST_TEST(r.exit_code == 2, r.out + r.err);
    BOOST_TEST(contains(r.err, why), r.err);
  }
}

// A list file names captures, folders and patterns (relative to its own
// folder, comments and blank lines left out); a pattern the shell left
// alone is expanded; each capture is judged once, in the order named.
BOOST_AUTO_TEST_CASE(captures_by_folder_pattern_and_list) {
  const std::string dir = scratch_dir("check_sharding_lists");
  fs::create_directories(dir + "/caps/sub");
  fs::copy_file(kCaptures + "/ngtcp2/retry.pcap", dir + "/caps/retry.pcap");
  fs::copy_file(kCaptures + "/ngtcp2/handshake.pcap", dir + "/caps/sub/handshake.pcap");
  fs::copy_file(kCaptures + "/ngtcp2/two-connections.pcap", dir + "/caps/sub/two.pcap");
  write_file(dir + "/caps/sub/.hidden.pcap", "not a capture");
  write_file(dir + "/caps/list.txt", "# the day's captures\nretry.pcap\n\n  sub/h*.pcap\n");
  const auto labels = [&](const std::vector<std::string>& inputs) {
    auto r = run_conform(with(with({"check"}, inputs), {"--out", dir + "/out", "--json", dir + "/r.json",
                                                        "--filter", "capture/stream-limits-*", "-q"}),
                         ".", kEnv);
    // No key logs: NOT JUDGED, a failure, but every capture named.
    BOOST_TEST(r.exit_code == 1, r.out + r.err);
    std::vector<std::string> out;
    const json report = json::parse(read_file(dir + "/r.json"));
    for (const auto& c : report.at("cases")) out.push_back(c.at("id"));
    return out;
  };
  const std::string at = "capture/stream-limits-within-bound @ ";
  BOOST_TEST(labels({"@" + dir + "/caps/list.txt"}) ==
                 (std::vector<std::string>{at + "retry.pcap#1", at + "handshake.pcap#1"}),
             boost::test_tools::per_element());
  BOOST_TEST(labels({dir + "/caps"}) ==
                 (std::vector<std::string>{at + "retry.pcap#1", at + "handshake.pcap#1", at + "two.pcap#1",
                                           at + "two.pcap#2"}),
             boost::test_tools::per_element());
  BOOST_TEST(labels({dir + "/caps/sub/*.pcap"}) ==
                 (std::vector<std::string>{at + "handshake.pcap#1", at + "two.pcap#1", at + "two.pcap#2"}),
             boost::test_tools::per_element());
  // The replay names the list, not its hundred captures.
  const json report = json::parse(read_file(dir + "/r.json"));
  BOOST_TEST(report.at("cases")[0].at("replay").get<std::string>().rfind(
                 "conform check '" + dir + "/caps/sub/*.pcap' ", 0) == 0,
             report.at("cases")[0].at("replay"));

  const auto bad = [&](const std::vector<std::string>& inputs, const std::string& why) {
    auto r = run_conform(with(with({"check"}, inputs), {"--out", dir + "/bad"}), ".", kEnv);
    BOOST_TEST(r.exit_code == 2, r.out + r.err);
    BOOST_TEST(contains(r.err, why), r.err);
    BOOST_TEST(!fs::exists(dir + "/bad"));
  };
  bad({dir + "/nothing/*.pcap"}, dir + "/nothing/*.pcap: matches no file");
  bad({"@" + dir + "/none.txt"}, "@" + dir + "/none.txt: no such capture list");
  write_file(dir + "/broken.txt", "caps/retry.pcap\n\n   caps/gone.pcap\n");
  bad({"@" + dir + "/broken.txt"}, dir + "/broken.txt:3:4: no such capture file: " + dir + "/caps/gone.pcap");
  bad({dir + "/caps", dir + "/caps/retry.pcap"},
      dir + "/caps/retry.pcap: " + dir + "/caps/retry.pcap given twice (also from " + dir + "/caps)");
  write_file(dir + "/mixed/s.toml", "");
  fs::copy_file(kCaptures + "/ngtcp2/retry.pcap", dir + "/mixed/retry.pcap");
  bad({dir + "/mixed"}, dir + "/mixed: " + dir + "/mixed holds both suite files (*.toml) and captures");
  bad({dir + "/caps/retry.pcap", "--shard", "3/2"}, "--shard takes K/N with 1 <= K <= N");
  fs::create_directories(dir + "/empty");
  write_file(dir + "/lists.txt", "caps/retry.pcap\nempty\nsuite.toml\n");
  bad({"@" + dir + "/lists.txt"}, dir + "/lists.txt:2:1: no captures (*.pcap, *.pcapng, *.cap) in the folder " +
                                      dir + "/empty");
  write_file(dir + "/suite.txt", "caps/retry.pcap\nsuite.toml\n");
  write_file(dir + "/suite.toml", "");
  bad({"@" + dir + "/suite.txt"}, dir + "/suite.txt:2:1: a capture list names captures, not suites: " + dir +
                                      "/suite.toml");
}

BOOST_AUTO_TEST_SUITE_END()

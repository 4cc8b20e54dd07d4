// RecordSpill: records kept on disk and read back whole, by key, in any order.
#include "offline/record_spill.hpp"

#include <boost/test/unit_test.hpp>

using namespace conform;

namespace {

RunRecord spilled_record(const std::string& summary, std::uint64_t frame) {
  RunRecord r;
  r.status = conform::Status::fail;
  r.reason = "why";
  r.duration_s = 0.25;
  r.seed = 7;
  r.mutant = "m";
  r.artifact_dir = "/out/x";
  r.captures = {{"client.pcap", "client"}};
  CheckOutcome o{"streams_delivered",
                 {{"dir", std::string("bidi")},
                  {"min", std::int64_t{3}},
                  {"ms", 1.5},
                  {"on", true},
                  {"names", std::vector<std::string>{"a", "bc"}}},
                 {},
                 RequirementLevel::must};
  o.result = {Verdict::fail, summary, {{"client.pcap", frame, 42, "here"}, {"", 0, -1, "whole"}}};
  r.checks.push_back(o);
  return r;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(record_spill_test)

BOOST_AUTO_TEST_CASE(records_come_back_whole_by_key_once) {
  RecordSpill spill;
  spill.put({0, 7, 1}, spilled_record("second", 9));
  spill.put({0, 3, 0}, spilled_record("first", 4));
  spill.judged(0, 7, {Vantage::server, true, 123});
  BOOST_TEST(spill.size() == 2u);
  auto first = spill.take({0, 3, 0});
  BOOST_TEST_REQUIRE(first.has_value());
  BOOST_TEST(first->checks.at(0).result.summary == "first");
  BOOST_TEST(first->checks.at(0).result.evidence.at(0).frame == 4u);
  BOOST_TEST(first->checks.at(0).result.evidence.at(0).time_ns == 42);
  BOOST_TEST(first->checks.at(0).result.evidence.at(1).time_ns == -1);
  BOOST_TEST(std::get<std::int64_t>(first->checks.at(0).params.at("min")) == 3);
  BOOST_TEST(std::get<double>(first->checks.at(0).params.at("ms")) == 1.5);
  BOOST_TEST(std::get<bool>(first->checks.at(0).params.at("on")));
  BOOST_TEST((std::get<std::vector<std::string>>(first->checks.at(0).params.at("names")) ==
              std::vector<std::string>{"a", "bc"}));
  BOOST_TEST(std::get<std::string>(first->checks.at(0).params.at("dir")) == "bidi");
  BOOST_TEST(first->checks.at(0).params.size() == 5u);
  BOOST_TEST(first->checks.at(0).check == "streams_delivered");
  BOOST_TEST((first->checks.at(0).result.verdict == Verdict::fail));
  BOOST_TEST(first->checks.at(0).result.evidence.at(0).capture == "client.pcap");
  BOOST_TEST(first->checks.at(0).result.evidence.at(1).text == "whole");
  BOOST_TEST(first->seed == 7u);
  BOOST_TEST(first->mutant == "m");
  BOOST_TEST(first->reason == "why");
  BOOST_TEST(first->artifact_dir == "/out/x");
  BOOST_TEST((first->captures == std::vector<std::pair<std::string, std::string>>{{"client.pcap", "client"}}));
  BOOST_TEST((first->checks.at(0).level == RequirementLevel::must));
  BOOST_TEST((first->status == conform::Status::fail));
  BOOST_TEST(first->duration_s == 0.25);
  BOOST_TEST(!spill.take({0, 3, 0}).has_value());  // taken once
  BOOST_TEST(spill.take({0, 7, 1})->checks.at(0).result.summary == "second");
  BOOST_TEST(!spill.take({1, 7, 1}).has_value());
  // Written after a reading, read back after the writing.
  spill.put({2, 1, 0}, spilled_record("third", 5));
  spill.put({2, 2, 0}, spilled_record("fourth", 6));
  BOOST_TEST(spill.take({2, 2, 0})->checks.at(0).result.summary == "fourth");
  BOOST_TEST(spill.take({2, 1, 0})->checks.at(0).result.evidence.at(0).frame == 5u);
  BOOST_TEST(spill.size() == 0u);
  const auto how = spill.how(0, 7);
  BOOST_TEST_REQUIRE(how.has_value());
  BOOST_TEST((how->vantage == Vantage::server));
  BOOST_TEST(how->rested_on_end);
  BOOST_TEST(how->observed_until_ns == 123);
  BOOST_TEST(!spill.how(0, 3).has_value());
}

BOOST_AUTO_TEST_SUITE_END()

// The check catalogue, and the `datagrams_captured` check on captures
// written here with PcapWriter.
#include "capture/pcap_writer.hpp"
#include "check/check_files.hpp"
#include "check/registry.hpp"
#include "check/udp/datagrams_captured.hpp"
#include "support/support.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <filesystem>
#include <ostream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

namespace conform {
// For Boost.Test's messages (internal linkage: other test files may add their own).
static std::ostream& operator<<(std::ostream& os, ValueType t) { return os << to_string(t); }
}  // namespace conform

using namespace conform;

namespace {

// A check that does nothing, under a chosen name.
class NamedCheck final : public Check {
 public:
  explicit NamedCheck(std::string name) : name_(std::move(name)) {}
  std::string name() const override { return name_; }
  std::string rfc() const override { return "test"; }
  RequirementLevel level() const override { return RequirementLevel::expectation; }
  std::string summary() const override { return "always passes"; }
  std::vector<ValueSpec> params() const override { return {}; }
  CheckResult evaluate(const CheckInput&) const override { return {Verdict::pass, "ok", {}}; }

 private:
  std::string name_;
};

const UdpEndpoint kClient{kClientAddress, 40000};
const UdpEndpoint kServer{kServerAddress, 4433};
const UdpEndpoint kElsewhere{0x0a000001, 53};  // 10.0.0.1: neither side

void write_pcap(const std::string& path,
                const std::vector<std::tuple<std::int64_t, UdpEndpoint, UdpEndpoint>>& records) {
  PcapWriter w(path);
  const std::vector<std::uint8_t> payload = {1, 2, 3, 4};
  for (const auto& [t, from, to] : records) w.write_udp(t, from, to, payload);
}

// A case folder with:
// client.pcap: frame 1 client->server at 1000 ns, frame 2 server->client at
//   2.5 s, frame 3 10.0.0.1->server at 2.6 s, frame 4 server->client at
//   3.000000001 s, frame 5 client->server at 4 s.
// server.pcap: two datagrams, both from the client.
std::string case_folder() {
  const std::string dir = conform::test::scratch_dir("check_registry_case");
  write_pcap(dir + "/client.pcap", {{1000, kClient, kServer},
                                    {2'500'000'000, kServer, kClient},
                                    {2'600'000'000, kElsewhere, kServer},
                                    {3'000'000'001, kServer, kClient},
                                    {4'000'000'000, kClient, kServer}});
  write_pcap(dir + "/server.pcap", {{5, kClient, kServer}, {6, kClient, kServer}});
  return dir;
}

CheckResult evaluate(const std::string& dir, ValueMap params) {
  CaseSettings settings;
  settings.id = "check/test";
  DatagramsCaptured check;
  return check.evaluate({dir, settings, params});
}

ValueMap params(std::string vantage, std::string from, std::int64_t min, std::int64_t max) {
  return {{"vantage", vantage}, {"from", from}, {"min", min}, {"max", max}};
}

void check_evidence(const Evidence& e, const std::string& capture, std::uint64_t frame,
                    std::int64_t time_ns, const std::string& text) {
  BOOST_TEST(e.capture == capture);
  BOOST_TEST(e.frame == frame);
  BOOST_TEST(e.time_ns == time_ns);
  BOOST_TEST(e.text == text);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(check_registry_test)

BOOST_AUTO_TEST_CASE(registry_adds_finds_and_lists_sorted) {
  CheckRegistry r;
  BOOST_TEST(r.names().empty());
  BOOST_TEST(r.find("zeta") == nullptr);
  r.add(std::make_unique<NamedCheck>("zeta"));
  r.add(std::make_unique<NamedCheck>("alpha"));
  r.add(std::make_unique<NamedCheck>("mid"));
  BOOST_TEST(r.names() == (std::vector<std::string>{"alpha", "mid", "zeta"}),
             boost::test_tools::per_element());
  const Check* zeta = r.find("zeta");
  BOOST_REQUIRE(zeta != nullptr);
  BOOST_TEST(zeta->name() == "zeta");
  BOOST_TEST(r.find("alpha")->name() == "alpha");
  BOOST_TEST(r.find("Alpha") == nullptr);
  BOOST_TEST(r.find("") == nullptr);
}

BOOST_AUTO_TEST_CASE(adding_a_name_twice_throws_logic_error) {
  CheckRegistry r;
  r.add(std::make_unique<NamedCheck>("dup"));
  const Check* first = r.find("dup");
  try {
    r.add(std::make_unique<NamedCheck>("dup"));
    BOOST_FAIL("a second 'dup' was accepted");
  } catch (const std::logic_error& e) {
    BOOST_TEST(std::string(e.what()) == "check registered twice: dup");
  }
  // The first registration is kept.
  BOOST_TEST(r.find("dup") == first);
  BOOST_TEST(r.names().size() == 1u);
}

BOOST_AUTO_TEST_CASE(builtin_catalogue_holds_datagrams_captured) {
  const CheckRegistry& r = CheckRegistry::builtin();
  BOOST_TEST(&r == &CheckRegistry::builtin());
  const auto names = r.names();
  BOOST_TEST((std::find(names.begin(), names.end(), "datagrams_captured") != names.end()));
  const Check* c = r.find("datagrams_captured");
  BOOST_REQUIRE(c != nullptr);
  BOOST_TEST(c->name() == "datagrams_captured");
  BOOST_TEST(c->rfc() == "none (capture sanity)");
  BOOST_TEST(dynamic_cast<const DatagramsCaptured*>(c) != nullptr);
}

// Read from the source tree, not from the generated list the catalogue is
// built from: a check file the build missed fails here.
BOOST_AUTO_TEST_CASE(builtin_catalogue_holds_the_check_of_every_check_file) {
  std::vector<std::string> stems;
  for (const char* folder : {"quic", "tcp", "udp"})
    for (const auto& entry :
         std::filesystem::directory_iterator(std::filesystem::path(CONFORM_SOURCE_DIR) / "framework/src/check" / folder))
      if (entry.path().extension() == ".cpp") stems.push_back(entry.path().stem().string());
  std::sort(stems.begin(), stems.end());
  BOOST_TEST(stems.size() >= 29u);
  const auto names = CheckRegistry::builtin().names();
  BOOST_TEST(names == stems, boost::test_tools::per_element());
  BOOST_TEST(check_files().size() == stems.size());
}

BOOST_AUTO_TEST_CASE(every_builtin_check_says_what_it_judges) {
  const CheckRegistry& r = CheckRegistry::builtin();
  for (const auto& name : r.names()) {
    BOOST_TEST_CONTEXT(name) {
      const Check* c = r.find(name);
      BOOST_TEST(c->rfc().size() > 3u);
      BOOST_TEST(c->summary().size() > 20u);
      BOOST_TEST((c->transport() == "QUIC" || c->transport() == "TCP" || c->transport() == "UDP" ||
                  c->transport().empty()));
      for (const ValueSpec& p : c->params()) BOOST_TEST(!p.doc.empty(), p.name);
    }
  }
}

// A scenario parameter that is no parameter would never make an instance
// NOT APPLICABLE: the declaration would say something the check ignores.
BOOST_AUTO_TEST_CASE(every_scenario_parameter_is_a_parameter_of_its_check) {
  const CheckRegistry& r = CheckRegistry::builtin();
  std::size_t declared = 0;
  for (const auto& name : r.names()) {
    const Check* c = r.find(name);
    const auto specs = c->params();
    for (const auto& [param, part] : c->scenario_params()) {
      BOOST_TEST(std::any_of(specs.begin(), specs.end(), [&](const ValueSpec& s) { return s.name == param; }),
                 name << " declares " << param);
      ++declared;
    }
  }
  BOOST_TEST(declared >= 20u);
}

BOOST_AUTO_TEST_CASE(datagrams_captured_declares_its_parameters) {
  const auto specs = DatagramsCaptured().params();
  BOOST_REQUIRE_EQUAL(specs.size(), 4u);
  BOOST_TEST(specs[0].name == "vantage");
  BOOST_TEST(specs[0].type == ValueType::string);
  BOOST_TEST(!specs[0].default_value.has_value());  // required
  BOOST_TEST(specs[0].one_of == (std::vector<std::string>{"client", "server"}),
             boost::test_tools::per_element());
  BOOST_TEST(specs[1].name == "from");
  BOOST_TEST(std::get<std::string>(specs[1].default_value.value()) == "any");
  BOOST_TEST(specs[1].one_of == (std::vector<std::string>{"any", "client", "server"}),
             boost::test_tools::per_element());
  BOOST_TEST(specs[2].name == "min");
  BOOST_TEST(specs[2].type == ValueType::integer);
  BOOST_TEST(std::get<std::int64_t>(specs[2].default_value.value()) == 1);
  BOOST_TEST(specs[3].name == "max");
  BOOST_TEST(std::get<std::int64_t>(specs[3].default_value.value()) == -1);
}

BOOST_AUTO_TEST_CASE(counts_every_datagram_from_any) {
  const std::string dir = case_folder();
  auto r = evaluate(dir, params("client", "any", 1, -1));
  BOOST_TEST((r.verdict == Verdict::pass));
  BOOST_TEST(r.summary == "client.pcap holds 5 datagrams from any (required >= 1)");
  BOOST_REQUIRE_EQUAL(r.evidence.size(), 2u);
  check_evidence(r.evidence[0], "client.pcap", 1, 1000, "first counted datagram");
  check_evidence(r.evidence[1], "client.pcap", 5, 4'000'000'000, "last counted datagram");
}

BOOST_AUTO_TEST_CASE(counts_only_the_side_named_by_from) {
  const std::string dir = case_folder();
  auto server = evaluate(dir, params("client", "server", 2, 2));
  BOOST_TEST((server.verdict == Verdict::pass));
  BOOST_TEST(server.summary == "client.pcap holds 2 datagrams from server (required 2..2)");
  BOOST_REQUIRE_EQUAL(server.evidence.size(), 2u);
  check_evidence(server.evidence[0], "client.pcap", 2, 2'500'000'000, "first counted datagram");
  check_evidence(server.evidence[1], "client.pcap", 4, 3'000'000'001, "last counted datagram");

  // 10.0.0.1 is neither side: only "any" counts it.
  auto client = evaluate(dir, params("client", "client", 2, 2));
  BOOST_TEST((client.verdict == Verdict::pass));
  BOOST_TEST(client.summary == "client.pcap holds 2 datagrams from client (required 2..2)");
  BOOST_REQUIRE_EQUAL(client.evidence.size(), 2u);
  BOOST_TEST(client.evidence[0].frame == 1u);
  BOOST_TEST(client.evidence[1].frame == 5u);
}

BOOST_AUTO_TEST_CASE(single_counted_datagram_gives_one_piece_of_evidence) {
  const std::string dir = conform::test::scratch_dir("check_registry_single");
  write_pcap(dir + "/server.pcap", {{10, kClient, kServer}, {77'000, kServer, kClient}});
  auto r = evaluate(dir, params("server", "server", 1, 1));
  BOOST_TEST((r.verdict == Verdict::pass));
  BOOST_TEST(r.summary == "server.pcap holds 1 datagrams from server (required 1..1)");
  BOOST_REQUIRE_EQUAL(r.evidence.size(), 1u);
  check_evidence(r.evidence[0], "server.pcap", 2, 77'000, "first counted datagram");
}

BOOST_AUTO_TEST_CASE(bounds_are_inclusive_and_fail_outside) {
  const std::string dir = case_folder();
  BOOST_TEST((evaluate(dir, params("client", "any", 5, 5)).verdict == Verdict::pass));
  BOOST_TEST((evaluate(dir, params("client", "any", 0, 5)).verdict == Verdict::pass));
  BOOST_TEST((evaluate(dir, params("client", "any", 5, -1)).verdict == Verdict::pass));

  auto too_few = evaluate(dir, params("client", "any", 6, -1));
  BOOST_TEST((too_few.verdict == Verdict::fail));
  BOOST_TEST(too_few.summary == "client.pcap holds 5 datagrams from any (required >= 6)");
  // Evidence still points at what was counted.
  BOOST_TEST(too_few.evidence.size() == 2u);

  auto too_many = evaluate(dir, params("client", "any", 1, 4));
  BOOST_TEST((too_many.verdict == Verdict::fail));
  BOOST_TEST(too_many.summary == "client.pcap holds 5 datagrams from any (required 1..4)");

  auto below = evaluate(dir, params("client", "server", 3, 10));
  BOOST_TEST((below.verdict == Verdict::fail));
  BOOST_TEST(below.summary == "client.pcap holds 2 datagrams from server (required 3..10)");
}

BOOST_AUTO_TEST_CASE(no_datagram_from_the_side_says_how_many_there_were) {
  const std::string dir = case_folder();
  auto r = evaluate(dir, params("server", "server", 1, -1));
  BOOST_TEST((r.verdict == Verdict::fail));
  BOOST_TEST(r.summary == "server.pcap holds 0 datagrams from server (required >= 1)");
  BOOST_REQUIRE_EQUAL(r.evidence.size(), 1u);
  check_evidence(r.evidence[0], "server.pcap", 0, -1, "2 datagrams in the file, none from server");

  // With min 0 and max 0, none is exactly right.
  auto none_allowed = evaluate(dir, params("server", "server", 0, 0));
  BOOST_TEST((none_allowed.verdict == Verdict::pass));
  BOOST_TEST(none_allowed.summary == "server.pcap holds 0 datagrams from server (required 0..0)");
}

BOOST_AUTO_TEST_CASE(empty_capture_counts_zero) {
  const std::string dir = conform::test::scratch_dir("check_registry_empty");
  write_pcap(dir + "/client.pcap", {});
  auto r = evaluate(dir, params("client", "any", 1, -1));
  BOOST_TEST((r.verdict == Verdict::fail));
  BOOST_TEST(r.summary == "client.pcap holds 0 datagrams from any (required >= 1)");
  BOOST_REQUIRE_EQUAL(r.evidence.size(), 1u);
  BOOST_TEST(r.evidence[0].text == "0 datagrams in the file, none from any");
}

BOOST_AUTO_TEST_CASE(defaults_apply_when_params_are_missing) {
  // The suite loader fills defaults in; evaluate falls back to the same ones.
  const std::string dir = case_folder();
  auto r = evaluate(dir, {{"vantage", std::string("server")}});
  BOOST_TEST((r.verdict == Verdict::pass));
  BOOST_TEST(r.summary == "server.pcap holds 2 datagrams from any (required >= 1)");
}

BOOST_AUTO_TEST_CASE(missing_capture_is_a_failed_verdict_naming_the_file) {
  const std::string dir = conform::test::scratch_dir("check_registry_missing");
  auto r = evaluate(dir, params("client", "any", 0, -1));
  BOOST_TEST((r.verdict == Verdict::fail));  // even with min 0: an unreadable capture never passes
  const std::string prefix = "client.pcap: cannot read capture: ";
  BOOST_TEST(r.summary.rfind(prefix, 0) == 0u, r.summary);
  BOOST_TEST(r.summary.find("No such file or directory") != std::string::npos, r.summary);
  BOOST_TEST(r.evidence.empty());
}

BOOST_AUTO_TEST_CASE(unreadable_capture_is_a_failed_verdict_naming_the_file) {
  const std::string dir = conform::test::scratch_dir("check_registry_garbage");
  conform::test::write_file(dir + "/server.pcap", "this is not a capture at all, just text\n");
  auto r = evaluate(dir, params("server", "any", 0, -1));
  BOOST_TEST((r.verdict == Verdict::fail));
  BOOST_TEST(r.summary.rfind("server.pcap: cannot read capture: ", 0) == 0u, r.summary);
  BOOST_TEST(r.evidence.empty());
}

BOOST_AUTO_TEST_CASE(builtin_check_evaluates_like_a_fresh_one) {
  const std::string dir = case_folder();
  CaseSettings settings;
  const ValueMap p = params("client", "server", 1, -1);
  auto r = CheckRegistry::builtin().find("datagrams_captured")->evaluate({dir, settings, p});
  BOOST_TEST((r.verdict == Verdict::pass));
  BOOST_TEST(r.summary == "client.pcap holds 2 datagrams from server (required >= 1)");
}

BOOST_AUTO_TEST_SUITE_END()

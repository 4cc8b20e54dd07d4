// CaseContext::adopt_capture: a plugin's own capture file becomes the run's
// capture of a vantage point; anything else is refused with a reason.
#include "capture/pcap_writer.hpp"
#include "run/case_context.hpp"
#include "support/support.hpp"

#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <stdexcept>

using namespace conform;
namespace fs = std::filesystem;

BOOST_AUTO_TEST_SUITE(case_context_test)

BOOST_AUTO_TEST_CASE(a_capture_file_is_moved_into_the_artifact_folder) {
  const std::string dir = test::scratch_dir("case_context_adopt");
  const std::string own = dir + "/own.pcap";
  { PcapWriter w(own); }
  CaseContext ctx({}, {}, dir + "/run");
  BOOST_TEST(ctx.adopt_capture("loopback", own) == "");
  BOOST_TEST(fs::exists(dir + "/run/loopback.pcap"));
  BOOST_TEST(!fs::exists(own));
  BOOST_CHECK_THROW(ctx.capture("loopback"), std::logic_error);
}

BOOST_AUTO_TEST_CASE(a_file_that_is_not_a_capture_is_refused) {
  const std::string dir = test::scratch_dir("case_context_refuse");
  const std::string text = test::write_file(dir + "/notes.txt", "not a capture\n");
  CaseContext ctx({}, {}, dir + "/run");
  const std::string why = ctx.adopt_capture("loopback", text);
  BOOST_TEST(why.rfind(text + ": ", 0) == 0u, why);
  BOOST_TEST(!fs::exists(dir + "/run/loopback.pcap"));
  BOOST_TEST(ctx.adopt_capture("loopback", dir + "/missing.pcap") != "");
}

BOOST_AUTO_TEST_CASE(a_vantage_takes_one_capture_only) {
  const std::string dir = test::scratch_dir("case_context_twice");
  { PcapWriter a(dir + "/a.pcap"), b(dir + "/b.pcap"); }
  CaseContext ctx({}, {}, dir + "/run");
  ctx.capture("client");
  BOOST_TEST(ctx.adopt_capture("client", dir + "/a.pcap") == "capture 'client' already exists");
  BOOST_TEST(ctx.adopt_capture("loopback", dir + "/a.pcap") == "");
  BOOST_TEST(ctx.adopt_capture("loopback", dir + "/b.pcap") == "capture 'loopback' already exists");
  BOOST_TEST(fs::exists(dir + "/b.pcap"));
}

BOOST_AUTO_TEST_SUITE_END()

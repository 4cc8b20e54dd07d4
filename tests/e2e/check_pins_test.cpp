// `conform check` on every capture in captures/, pinned: each case's
// status, each check's verdict, summary and evidence (capture file, frame
// number, time), and what the split said of the capture (its connections,
// their addresses and frame counts, notes, warnings, vantage). A change to
// how `conform check` reads, splits or judges a capture (issue 36's
// streaming pipeline) must leave all of it as it was.
//
// These pins are a before/after record of conform's own output, not ground
// truth: what each verdict on a real capture should be comes from tshark
// and the RFC, in captures/third-party/*/expected.toml
// (third_party_captures_test.cpp). A deliberate change of a check's wording
// or verdict rewrites them with
//   CONFORM_UPDATE_PINS=1 ./build/tests/e2e_tests --run_test=check_pins_test
// and the diff of tests/data/check-pins/ shows what changed.
#include "support/support.hpp"

#include <boost/test/unit_test.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <sstream>

using namespace conform::test;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// Every capture under captures/, relative to it, in a stable order.
std::vector<std::string> captures() {
  const fs::path root = fs::path(CONFORM_SOURCE_DIR) / "captures";
  std::vector<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(root))
    if (e.path().extension() == ".pcap" || e.path().extension() == ".pcapng")
      out.push_back(fs::relative(e.path(), root).string());
  std::sort(out.begin(), out.end());
  return out;
}

std::string one_line(std::string text) {
  std::replace(text.begin(), text.end(), '\n', ' ');
  return text;
}

// The report with what varies between runs (durations, folders) left out.
std::string pinned(const json& report) {
  std::ostringstream out;
  for (const auto& capture : report.at("offline").at("captures")) {
    out << "capture " << fs::path(capture.at("file").get<std::string>()).filename().string() << " vantage "
        << capture.at("vantage").get<std::string>() << " (" << capture.at("vantage_from").get<std::string>()
        << ")\n";
    for (const auto& u : capture.at("units"))
      out << fmt::format("  unit {} {} client {} server {} frames {} roles from {}\n", u.at("label").get<std::string>(),
                         u.at("transport").get<std::string>(), u.at("client").get<std::string>(),
                         u.at("server").get<std::string>(), u.at("frames").dump(),
                         u.at("roles_from").get<std::string>());
    for (const auto& n : capture.at("notes")) out << "  note " << one_line(n.get<std::string>()) << '\n';
    for (const auto& w : capture.at("warnings")) out << "  warning " << one_line(w.get<std::string>()) << '\n';
  }
  for (const auto& c : report.at("cases")) {
    out << "case " << c.at("id").get<std::string>() << ": " << c.at("status").get<std::string>() << '\n';
    for (const auto& run : c.at("runs")) {
      out << "  reason " << one_line(run.at("reason").get<std::string>()) << '\n';
      for (const auto& k : run.at("checks")) {
        out << "  " << k.at("check").get<std::string>() << " " << k.at("verdict").get<std::string>() << ": "
            << one_line(k.at("summary").get<std::string>()) << '\n';
        for (const auto& e : k.at("evidence"))
          out << fmt::format("    {} frame {} at {} ns: {}\n",
                             fs::path(e.value("capture", std::string())).filename().string(),
                             e.value("frame", json()).dump(), e.value("time_ns", json()).dump(),
                             one_line(e.value("text", std::string())));
      }
    }
  }
  return out.str();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(check_pins_test)

BOOST_AUTO_TEST_CASE(every_capture_is_judged_as_pinned) {
  const fs::path root = fs::path(CONFORM_SOURCE_DIR) / "captures";
  const fs::path pins = fs::path(CONFORM_TEST_DATA_DIR) / "check-pins";
  const bool update = std::getenv("CONFORM_UPDATE_PINS") != nullptr;
  const auto all = captures();
  BOOST_TEST(all.size() >= 35u);
  const std::string dir = scratch_dir("pins");
  // One thread judging, and more than the machine has: the same results in
  // the same order.
  for (const std::string jobs : {"1", "3"})
  for (const auto& name : all) {
    const fs::path capture = root / name;
    const fs::path keys = fs::path(capture).replace_extension(".keys");
    const std::string suite = name.starts_with("tcp/") ? "suites/tcp" : "suites/rfc9000";
    const std::string slug = fs::path(name).replace_extension().string();
    std::string flat = slug;
    std::replace(flat.begin(), flat.end(), '/', '_');
    std::vector<std::string> args{"check", capture.string()};
    if (fs::exists(keys)) args.insert(args.end(), {"--keylog", keys.string()});
    args.insert(args.end(), {std::string(CONFORM_SOURCE_DIR) + "/" + suite, "--out", dir + "/" + flat, "--json",
                             dir + "/" + flat + ".json", "-q", "-j", jobs});
    const auto r = run_conform(args, ".", {build_plugins_env()});
    BOOST_TEST_CONTEXT(name << " -j " << jobs << ": " << r.err) {
      BOOST_TEST((r.exit_code == 0 || r.exit_code == 1));
      if (r.exit_code > 1) continue;
      const std::string got = fmt::format("exit {}\n", r.exit_code) +
                              pinned(json::parse(read_file(dir + "/" + flat + ".json")));
      const fs::path pin = pins / (slug + ".txt");
      if (update) {
        write_file(pin.string(), got);
        continue;
      }
      const std::string want = read_file(pin.string());
      BOOST_TEST(!want.empty(), "no pin " << pin.string() << ": write it with CONFORM_UPDATE_PINS=1");
      if (got == want) continue;
      // The first line that differs, not two walls of text.
      std::istringstream a(got), b(want);
      std::string la, lb;
      for (int line = 1;; ++line) {
        const bool ga = static_cast<bool>(std::getline(a, la)), gb = static_cast<bool>(std::getline(b, lb));
        if (!ga && !gb) break;
        if (ga && gb && la == lb) continue;
        BOOST_ERROR(pin.string() << ":" << line << ":\n  pinned: " << (gb ? lb : "(end)")
                                 << "\n  now:    " << (ga ? la : "(end)"));
        break;
      }
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()

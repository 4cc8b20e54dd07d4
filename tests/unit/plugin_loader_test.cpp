// Plugin loading: the fixture plugin's declarations, the one-line error of
// every kind of bad plugin file, plugin folders, duplicate names, and the
// plugin search path.
#include "common/input_error.hpp"
#include "plugin/loader.hpp"
#include "plugin/search_path.hpp"
#include "support/support.hpp"

#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace conform {
// For Boost.Test's messages (internal linkage: other test files may add their own).
static std::ostream& operator<<(std::ostream& os, ValueType t) { return os << to_string(t); }
static std::ostream& operator<<(std::ostream& os, TimeModel m) { return os << to_string(m); }
}  // namespace conform

using namespace conform;
namespace fs = std::filesystem;

namespace {

const std::string kFixture = std::string(CONFORM_TEST_PLUGIN_DIR) + "/fixture.so";
const std::string kBadDir = CONFORM_TEST_BAD_PLUGIN_DIR;

// The what() of the InputError `f` throws; fails the test when it throws
// nothing or something else.
template <typename F>
std::string input_error_of(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    BOOST_TEST(e.diagnostics().size() == 1u);
    return e.what();
  } catch (const std::exception& e) {
    BOOST_FAIL("expected InputError, got: " << e.what());
  }
  BOOST_FAIL("expected InputError, nothing was thrown");
  return {};
}

std::string load_error(const std::string& file) {
  return input_error_of([&] { load_plugin(file); });
}

// Sets (or unsets, for nullopt) CONFORM_PLUGIN_PATH for one scope and puts
// the previous value back.
class ScopedPluginPath {
 public:
  explicit ScopedPluginPath(std::optional<std::string> value) {
    if (const char* old = std::getenv("CONFORM_PLUGIN_PATH")) old_ = old;
    if (value) setenv("CONFORM_PLUGIN_PATH", value->c_str(), 1);
    else unsetenv("CONFORM_PLUGIN_PATH");
  }
  ~ScopedPluginPath() {
    if (old_) setenv("CONFORM_PLUGIN_PATH", old_->c_str(), 1);
    else unsetenv("CONFORM_PLUGIN_PATH");
  }
  ScopedPluginPath(const ScopedPluginPath&) = delete;
  ScopedPluginPath& operator=(const ScopedPluginPath&) = delete;

 private:
  std::optional<std::string> old_;
};

// The build's plugin folder (CONFORM_DEFAULT_PLUGIN_DIR is private to the
// library): `<build>/plugins`, next to the `conform` binary.
std::string default_plugin_dir() {
  return (fs::path(CONFORM_BINARY).parent_path() / "plugins").string();
}

std::vector<std::string> names_of(const std::vector<ScenarioSpec>& specs) {
  std::vector<std::string> out;
  for (const auto& s : specs) out.push_back(s.name);
  return out;
}

std::vector<std::string> names_of(const std::vector<ValueSpec>& specs) {
  std::vector<std::string> out;
  for (const auto& s : specs) out.push_back(s.name);
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(plugin_loader_test)

BOOST_AUTO_TEST_CASE(fixture_plugin_loads_with_its_declarations) {
  LoadedPlugin p = load_plugin(kFixture);
  BOOST_TEST(p.file() == kFixture);
  BOOST_TEST(p.abi_version() == kAbiVersion);
  const PluginInfo& info = p.info();
  BOOST_TEST(info.name == "fixture");
  BOOST_TEST(info.version == "1.0");
  BOOST_TEST(info.time_model == TimeModel::simulated);
  BOOST_TEST(std::string(to_string(info.time_model)) == "simulated");
  BOOST_TEST(info.roles == (std::vector<std::string>{"client", "server"}),
             boost::test_tools::per_element());
  BOOST_TEST(names_of(info.scenarios) ==
                 (std::vector<std::string>{"echo", "flaky", "crash", "abort", "hang", "hang-tree", "throw",
                                           "unsupported", "sim-echo", "sim-hang", "relay-echo"}),
             boost::test_tools::per_element());
  BOOST_TEST(info.scenarios[0].summary == "the client sends datagrams, the server echoes each");
  BOOST_TEST(names_of(info.scenarios[0].params) ==
                 (std::vector<std::string>{"datagrams", "payload_bytes", "mode"}),
             boost::test_tools::per_element());
  BOOST_TEST(info.scenarios[2].params.empty());

  const ValueSpec& mode = info.scenarios[0].params[2];
  BOOST_TEST(mode.type == ValueType::string);
  BOOST_TEST(mode.one_of == (std::vector<std::string>{"plain", "fancy"}),
             boost::test_tools::per_element());
  BOOST_REQUIRE(mode.default_value.has_value());
  BOOST_TEST(std::get<std::string>(*mode.default_value) == "plain");
  const ValueSpec& datagrams = info.scenarios[0].params[0];
  BOOST_TEST(datagrams.type == ValueType::integer);
  BOOST_TEST(std::get<std::int64_t>(*datagrams.default_value) == 3);

  BOOST_TEST(names_of(info.knobs) ==
                 (std::vector<std::string>{"echo", "initial_rtt_ms", "label"}),
             boost::test_tools::per_element());
  BOOST_TEST(info.knobs[0].type == ValueType::boolean);
  BOOST_TEST(std::get<bool>(*info.knobs[0].default_value) == true);
  BOOST_TEST(info.knobs[0].doc == "whether the server answers");
  BOOST_TEST(info.knobs[1].type == ValueType::floating);
  BOOST_TEST(std::get<double>(*info.knobs[1].default_value) == 333.0);
  BOOST_TEST(info.knobs[2].type == ValueType::string);
  BOOST_TEST(std::get<std::string>(*info.knobs[2].default_value) == "x");
}

BOOST_AUTO_TEST_CASE(loaded_plugin_survives_moves) {
  std::vector<LoadedPlugin> plugins;
  plugins.push_back(load_plugin(kFixture));
  plugins.push_back(load_plugin(kFixture));  // reallocation moves the first
  LoadedPlugin moved = std::move(plugins.front());
  BOOST_TEST(moved.info().name == "fixture");
  BOOST_TEST(plugins.back().plugin().info().scenarios.size() == 11u);
}

BOOST_AUTO_TEST_CASE(library_without_conform_symbols_is_refused) {
  const std::string file = kBadDir + "/no_symbols.so";
  BOOST_TEST(load_error(file) == file + ": not a conform plugin: no conform_abi_version symbol");
}

BOOST_AUTO_TEST_CASE(other_abi_version_is_refused_with_both_versions) {
  const std::string file = kBadDir + "/wrong_abi.so";
  BOOST_TEST(load_error(file) ==
             file + ": ABI version 999, but this conform needs " + std::to_string(kAbiVersion) +
                 "; rebuild the plugin against this conform");
}

BOOST_AUTO_TEST_CASE(library_without_factory_is_refused) {
  const std::string file = kBadDir + "/no_factory.so";
  BOOST_TEST(load_error(file) == file + ": not a conform plugin: no conform_create_plugin symbol");
}

BOOST_AUTO_TEST_CASE(factory_returning_nothing_is_refused) {
  const std::string file = kBadDir + "/null_factory.so";
  BOOST_TEST(load_error(file) == file + ": conform_create_plugin returned no plugin");
}

BOOST_AUTO_TEST_CASE(text_file_is_not_a_loadable_library) {
  const std::string file = kBadDir + "/text_file.so";
  BOOST_TEST(load_error(file) == file + ": not a loadable library (file too short)");
}

BOOST_AUTO_TEST_CASE(unresolved_symbol_is_named) {
  const std::string file = kBadDir + "/undefined_symbol.so";
  BOOST_TEST(load_error(file) ==
             file + ": not a loadable library (undefined symbol: conform_test_missing_function)");
}

BOOST_AUTO_TEST_CASE(missing_file_and_folder_are_refused) {
  const std::string missing = kBadDir + "/does_not_exist.so";
  BOOST_TEST(load_error(missing) == missing + ": no such plugin file");
  BOOST_TEST(load_error(kBadDir) == kBadDir + ": not a regular file");
}

BOOST_AUTO_TEST_CASE(relative_path_is_reported_as_given) {
  const fs::path old_cwd = fs::current_path();
  fs::current_path(CONFORM_TEST_PLUGIN_DIR);
  std::string name;
  std::string file;
  try {
    LoadedPlugin p = load_plugin("fixture.so");
    name = p.info().name;
    file = p.file();
  } catch (...) {
    fs::current_path(old_cwd);
    throw;
  }
  const std::string error = load_error("./missing.so");
  fs::current_path(old_cwd);
  BOOST_TEST(name == "fixture");
  BOOST_TEST(file == "fixture.so");
  BOOST_TEST(error == "./missing.so: no such plugin file");
}

BOOST_AUTO_TEST_CASE(load_dir_loads_every_so_in_name_order) {
  const std::string dir = conform::test::scratch_dir("plugin_loader_dir");
  fs::copy_file(kFixture, dir + "/fixture.so");
  conform::test::write_file(dir + "/README.txt", "not a plugin, and not *.so\n");
  fs::create_directories(dir + "/nested.so.d");
  PluginSet set;
  set.load_dir(dir);
  BOOST_TEST(set.names() == (std::vector<std::string>{"fixture"}),
             boost::test_tools::per_element());
  BOOST_REQUIRE_EQUAL(set.all().size(), 1u);
  BOOST_TEST(set.all()[0].file() == dir + "/fixture.so");
  const LoadedPlugin* found = set.find("fixture");
  BOOST_REQUIRE(found != nullptr);
  BOOST_TEST(found == &set.all()[0]);
  BOOST_TEST(set.find("quic") == nullptr);
  BOOST_TEST(set.find("") == nullptr);
}

BOOST_AUTO_TEST_CASE(load_dir_of_empty_folder_loads_nothing) {
  const std::string dir = conform::test::scratch_dir("plugin_loader_empty");
  PluginSet set;
  set.load_dir(dir);
  BOOST_TEST(set.names().empty());
  BOOST_TEST(set.all().empty());
}

BOOST_AUTO_TEST_CASE(load_dir_on_missing_folder_is_an_input_error) {
  const std::string dir = kBadDir + "/no-such-folder";
  PluginSet set;
  BOOST_TEST(input_error_of([&] { set.load_dir(dir); }) == dir + ": no such plugin folder");
  // A file is not a folder either.
  const std::string file = kBadDir + "/text_file.so";
  BOOST_TEST(input_error_of([&] { set.load_dir(file); }) == file + ": no such plugin folder");
  BOOST_TEST(set.names().empty());
}

BOOST_AUTO_TEST_CASE(load_dir_stops_at_the_first_bad_file_in_name_order) {
  // bad-plugins holds no_factory.so, no_symbols.so, null_factory.so,
  // text_file.so and wrong_abi.so; no_factory.so sorts first.
  PluginSet set;
  const std::string first = kBadDir + "/no_factory.so";
  BOOST_TEST(input_error_of([&] { set.load_dir(kBadDir); }) ==
             first + ": not a conform plugin: no conform_create_plugin symbol");
  BOOST_TEST(set.names().empty());
}

BOOST_AUTO_TEST_CASE(same_file_twice_is_loaded_once) {
  PluginSet set;
  set.load_file(kFixture);
  set.load_file(kFixture);
  set.load_file(fs::path(kFixture).parent_path().string() + "/../plugins/fixture.so");
  BOOST_TEST(set.names() == (std::vector<std::string>{"fixture"}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(two_files_of_one_name_in_a_folder_name_both) {
  const std::string dir = conform::test::scratch_dir("plugin_loader_dup");
  fs::copy_file(kFixture, dir + "/b.so");
  fs::copy_file(kFixture, dir + "/a.so");
  PluginSet set;
  BOOST_TEST(input_error_of([&] { set.load_dir(dir); }) ==
             dir + "/b.so: plugin 'fixture' is also provided by " + dir + "/a.so");
  BOOST_REQUIRE_EQUAL(set.all().size(), 1u);
  BOOST_TEST(set.all()[0].file() == dir + "/a.so");
}

BOOST_AUTO_TEST_CASE(load_file_reports_bad_files_like_load_plugin) {
  PluginSet set;
  const std::string file = kBadDir + "/null_factory.so";
  BOOST_TEST(input_error_of([&] { set.load_file(file); }) ==
             file + ": conform_create_plugin returned no plugin");
  BOOST_TEST(set.all().empty());
}

BOOST_AUTO_TEST_CASE(search_path_prefers_cli_dirs) {
  ScopedPluginPath env("/from/env");
  const std::vector<std::string> cli = {"/one", "relative/two"};
  BOOST_TEST(plugin_search_path(cli) == cli, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(search_path_splits_the_environment_variable) {
  {
    ScopedPluginPath env("/a:/b/c");
    BOOST_TEST(plugin_search_path({}) == (std::vector<std::string>{"/a", "/b/c"}),
               boost::test_tools::per_element());
  }
  {
    // Empty entries are dropped.
    ScopedPluginPath env(":/a::/b:");
    BOOST_TEST(plugin_search_path({}) == (std::vector<std::string>{"/a", "/b"}),
               boost::test_tools::per_element());
  }
  {
    ScopedPluginPath env("single");
    BOOST_TEST(plugin_search_path({}) == (std::vector<std::string>{"single"}),
               boost::test_tools::per_element());
  }
}

BOOST_AUTO_TEST_CASE(search_path_falls_back_to_the_build_plugin_folder) {
  const std::vector<std::string> fallback = {default_plugin_dir()};
  {
    ScopedPluginPath env(std::nullopt);
    BOOST_TEST(plugin_search_path({}) == fallback, boost::test_tools::per_element());
  }
  {
    ScopedPluginPath env("");
    BOOST_TEST(plugin_search_path({}) == fallback, boost::test_tools::per_element());
  }
  {
    ScopedPluginPath env(":::");
    BOOST_TEST(plugin_search_path({}) == fallback, boost::test_tools::per_element());
  }
}

BOOST_AUTO_TEST_SUITE_END()

// Installed versions, from the package managers' own records: no program is
// started, so loading the plugin stays fast.
#include "stack_version.hpp"

#include "profile.hpp"

#include <conform/label.hpp>
#include <nlohmann/json.hpp>

#include <cctype>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string_view>
#include <utility>

namespace external {
namespace {

constexpr const char* kDpkgStatus = "/var/lib/dpkg/status";
// Debian's longest versions are a few dozen bytes.
constexpr std::size_t kMaxVersionBytes = 100;

// dpkg's status file is stanzas of "Field: value" lines separated by blank
// lines; a package is installed when its Status ends in "installed".
std::string debian_version(const std::string& package) {
  std::ifstream in(kDpkgStatus);
  std::string line, name, status, version;
  auto found = [&] { return name == package && status.size() >= 10 && status.ends_with(" installed"); };
  while (std::getline(in, line)) {
    if (line.empty()) {
      if (found()) return version;
      name.clear(), status.clear(), version.clear();
    } else if (line.starts_with("Package: ")) {
      name = line.substr(9);
    } else if (line.starts_with("Status: ")) {
      status = line.substr(8);
    } else if (line.starts_with("Version: ")) {
      version = line.substr(9);
    }
  }
  return found() ? version : "";
}

InstalledVersion debian_installed(const std::string& package) {
  std::string version = debian_version(package);
  return version.empty() ? InstalledVersion{"", "not installed"} : InstalledVersion{version, ""};
}

// A package.json is small; a larger file is not one to read whole.
constexpr std::uintmax_t kMaxPackageJson = 1 << 20;

InstalledVersion npm_version(const std::string& package, const std::string& tools) {
  const std::string path = tools + "/peers/node_modules/" + package + "/package.json";
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (!std::filesystem::exists(status)) return {"", "not installed"};
  // A FIFO would block the open, a folder throw from the read.
  if (!std::filesystem::is_regular_file(status) || std::filesystem::file_size(path, ec) > kMaxPackageJson)
    return {"", "package.json is not a regular file of at most 1 MiB"};
  std::ifstream in(path);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto j = nlohmann::json::parse(text, nullptr, false);
  if (!j.is_object() || !j.contains("version") || !j["version"].is_string())
    return {"", "package.json has no version string"};
  return {j["version"].get<std::string>(), ""};
}

// A package name as Debian and npm allow them: letters, digits and
// ".+-_~@"; npm's scoped names hold one '/' ("@scope/name"). Nothing that
// could climb out of node_modules.
bool package_name(const std::string& name, bool npm) {
  if (name.empty() || name.front() == '.' || name.find("..") != std::string::npos) return false;
  // npm: "@scope/name" or a name without '@' or '/'.
  const auto slash = name.find('/');
  if (npm && (name.front() == '@') != (slash != std::string::npos)) return false;
  if (slash != std::string::npos && (!npm || slash == 1 || name.find('/', slash + 1) != std::string::npos ||
                                     slash + 1 == name.size()))
    return false;
  for (char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && std::string_view(".+-_~@/").find(c) == std::string_view::npos)
      return false;
  return true;
}

}  // namespace

std::optional<VersionSource> parse_version_source(const std::string& text, std::string& error) {
  if (text == "conform") return VersionSource{VersionSource::Kind::conform, ""};
  for (auto [prefix, kind] : {std::pair{std::string("debian:"), VersionSource::Kind::debian},
                              std::pair{std::string("npm:"), VersionSource::Kind::npm}}) {
    if (!text.starts_with(prefix)) continue;
    const std::string package = text.substr(prefix.size());
    if (!package_name(package, kind == VersionSource::Kind::npm)) {
      error = (conform::is_one_line(package) ? "'" + package + "'" : std::string("the text")) +
              " is not a package name after '" + prefix + "'";
      return std::nullopt;
    }
    return VersionSource{kind, package};
  }
  error = "version_from must be \"debian:PACKAGE\", \"npm:PACKAGE\" or \"conform\"" +
          (conform::is_one_line(text) ? ", not \"" + text + "\"" : std::string());
  return std::nullopt;
}

InstalledVersion installed_version(const VersionSource& source, const std::string& tools) {
  InstalledVersion v;
  switch (source.kind) {
    case VersionSource::Kind::debian: v = debian_installed(source.package); break;
    case VersionSource::Kind::npm: v = npm_version(source.package, tools); break;
    case VersionSource::Kind::conform: v = {CONFORM_VERSION, ""}; break;
  }
  // It goes into a table row: a version that could break one is not shown.
  if (v.problem.empty() && (!conform::is_one_line(v.version) || v.version.size() > kMaxVersionBytes))
    v = {"", "its version is not one line of at most 100 bytes"};
  return v;
}

std::string stack_label(const Profile& p, const std::string& tools) {
  std::string label = p.name;
  if (!p.version.empty()) label += " " + p.version;
  if (!p.version_from) return label;
  const VersionSource& from = *p.version_from;
  const InstalledVersion installed = installed_version(from, tools);
  switch (from.kind) {
    case VersionSource::Kind::conform: label += " (conform"; break;
    case VersionSource::Kind::debian: label += " (Debian " + from.package; break;
    case VersionSource::Kind::npm: label += " (npm " + from.package; break;
  }
  return label + (installed.problem.empty() ? " " + installed.version : ": " + installed.problem) + ")";
}

}  // namespace external

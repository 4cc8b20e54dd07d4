// Installed versions, from the package managers' own records: no program is
// started, so loading the plugin stays fast.
#include "stack_version.hpp"

#include "profile.hpp"

#include <nlohmann/json.hpp>

#include <cctype>
#include <fstream>
#include <string_view>
#include <utility>

namespace external {
namespace {

constexpr const char* kDpkgStatus = "/var/lib/dpkg/status";

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

std::string npm_version(const std::string& package, const std::string& tools) {
  std::ifstream in(tools + "/peers/node_modules/" + package + "/package.json");
  if (!in) return "";
  const auto j = nlohmann::json::parse(in, nullptr, false);
  if (!j.is_object() || !j.contains("version") || !j["version"].is_string()) return "";
  return j["version"].get<std::string>();
}

// A package name as Debian and npm allow them: letters, digits and
// ".+-_~@"; npm's scoped names hold one '/' ("@scope/name"). Nothing that
// could climb out of node_modules.
bool package_name(const std::string& name, bool npm) {
  if (name.empty() || name.front() == '.' || name.find("..") != std::string::npos) return false;
  const auto slash = name.find('/');
  if (slash != std::string::npos && (!npm || name.front() != '@' || name.find('/', slash + 1) != std::string::npos ||
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
      error = "'" + package + "' is not a package name after '" + prefix + "'";
      return std::nullopt;
    }
    return VersionSource{kind, package};
  }
  error = "version_from must be \"debian:PACKAGE\", \"npm:PACKAGE\" or \"conform\", not \"" + text + "\"";
  return std::nullopt;
}

std::string installed_version(const VersionSource& source, const std::string& tools) {
  switch (source.kind) {
    case VersionSource::Kind::debian: return debian_version(source.package);
    case VersionSource::Kind::npm: return npm_version(source.package, tools);
    case VersionSource::Kind::conform: return CONFORM_VERSION;
  }
  return "";
}

std::string stack_label(const Profile& p, const std::string& tools) {
  std::string label = p.name;
  if (!p.version.empty()) label += " " + p.version;
  if (!p.version_from) return label;
  const VersionSource& from = *p.version_from;
  const std::string installed = installed_version(from, tools);
  switch (from.kind) {
    case VersionSource::Kind::conform: return label + " (conform " + installed + ")";
    case VersionSource::Kind::debian: label += " (Debian " + from.package; break;
    case VersionSource::Kind::npm: label += " (npm " + from.package; break;
  }
  return label + (installed.empty() ? ": not installed)" : " " + installed + ")");
}

}  // namespace external

// The version of the stack a profile plays, as reports name it: the
// profile's own `version` (the stack's, where its package does not say it)
// and the version installed here of what `version_from` names, read each
// time the plugin loads so that a package upgraded under a committed
// profile shows in the next report.
//   version_from = "debian:chromium"     dpkg's status file
//   version_from = "npm:@matrixai/quic"  build/peers/node_modules/<name>/package.json
//   version_from = "conform"             this build of conform
#pragma once

#include <optional>
#include <string>

namespace external {

struct Profile;

struct VersionSource {
  enum class Kind { debian, npm, conform };
  Kind kind = Kind::conform;
  /// The package, for debian and npm.
  std::string package;
};

/// `text` read as a version_from value, or the reason it is not one.
std::optional<VersionSource> parse_version_source(const std::string& text, std::string& error);

/// A version read, or why there is none ("not installed", a package.json
/// that cannot be read, a version that is not one line of text).
struct InstalledVersion {
  std::string version;
  std::string problem;
};

/// The version of `source` installed here. `tools` is the build folder
/// (npm packages are under tools/peers).
InstalledVersion installed_version(const VersionSource& source, const std::string& tools);

/// "quiche 0.18.0 (npm @matrixai/quic 2.0.9)", "chromium (Debian chromium
/// 156.0.8078.114-1~deb12u1)", "lsquic (npm @oven/bun-linux-x64: not
/// installed)", or the bare name for a profile that says nothing of its
/// version. One line (conform::is_one_line): the profile's texts are
/// checked when read, the installed version here.
std::string stack_label(const Profile& p, const std::string& tools);

}  // namespace external

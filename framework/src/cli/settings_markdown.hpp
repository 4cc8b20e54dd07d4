// The settings tables of the docs, generated from their declarations: the
// `network` table (net/net_config.cpp's rows) for docs/suites.md and each
// plugin's knobs for docs/plugins.md, printed by
// `conform plugins --markdown NAME` and written between the docs' markers
// `<!-- generated: NAME -->` and `<!-- end generated: NAME -->` by
// scripts/update-docs.sh.
#pragma once

#include <conform/plugin.hpp>

#include <string>
#include <vector>

namespace conform {

/// The names `--markdown` accepts: "network", then "knobs-<plugin>" for
/// each of `plugins` that has knobs.
std::vector<std::string> markdown_sections(const std::vector<const PluginInfo*>& plugins);

/// The Markdown table of section `name` (one of markdown_sections), each
/// line ending in a newline. Throws InputError for another name.
std::string settings_markdown(const std::string& name, const std::vector<const PluginInfo*>& plugins);

/// `text` as the content of a Markdown table cell: a bare `|` would end the
/// cell and a backslash before one would be read as escaping itself, so
/// both are escaped, and a control character (a line break would end the
/// row) becomes a space (`conform checks --markdown` uses it too).
std::string markdown_cell(const std::string& text);

}  // namespace conform

// `conform checks [--json | --markdown]`: the check catalogue as each check
// declares it in its own file (check/registrar.hpp): name, transport, level,
// RFC source, summary and typed parameters.
#pragma once

#include "check/registry.hpp"

#include <CLI/CLI.hpp>

#include <string>

namespace conform {

struct ChecksCommandOptions {
  bool json = false;
  /// The tables of docs/checks.md, as scripts/update-docs.sh writes them.
  bool markdown = false;
};

/// Declares the sub-command on `app`.
CLI::App* add_checks_command(CLI::App& app, ChecksCommandOptions& options);

/// Prints `registry`; always 0.
int command_checks(const ChecksCommandOptions& options, const CheckRegistry& registry = CheckRegistry::builtin());

/// The catalogue as JSON: an array of {name, transport ("" for any), level,
/// rfc, summary, params: [{name, type, default (absent when required),
/// one_of, min, max, doc}]}, sorted by name.
std::string checks_json(const CheckRegistry& registry);

/// The catalogue as Markdown: one table per transport (QUIC, TCP, any).
std::string checks_markdown(const CheckRegistry& registry);

}  // namespace conform

// The inputs of `conform check` told apart: captures and suites. A capture
// list may be given as files, folders of captures, glob patterns (for when
// the shell did not expand them, as in a CI job's quoted argument) or
// `@LIST`, a file naming one capture, folder or pattern per line; a job of
// a sharded check over a day of captures names them with one argument.
#pragma once

#include <string>
#include <vector>

namespace conform {

struct CheckInputs {
  /// Capture files, in the order given; a folder's in path order.
  std::vector<std::string> captures;
  /// Suite files and folders, in the order given.
  std::vector<std::string> suites;
  /// The inputs that gave the captures, as given (`@LIST`, a folder): what
  /// a replay command names.
  std::vector<std::string> capture_inputs;
};

/// File name endings of captures in a folder.
inline constexpr const char* kCaptureExtensions = "*.pcap, *.pcapng, *.cap";

/// Sorts `inputs` into captures and suites:
/// - `*.toml` files and folders holding them are suites;
/// - folders holding captures (kCaptureExtensions, hidden files left out)
///   and no `*.toml` give their captures, recursively, in path order;
/// - `@LIST` gives what its lines name (blank lines and `#` comments left
///   out; a relative path is from the list's folder), each sorted as here;
/// - a pattern with `*`, `?` or `[` that names no file is expanded (glob(7)),
///   its matches in path order;
/// - any other file is a capture.
/// Throws InputError naming the input (and the list's line) for a pattern
/// that matches nothing, a list that cannot be read or names a path that is
/// not there, a folder holding both suites and captures, or a capture
/// reached twice.
CheckInputs sort_check_inputs(const std::vector<std::string>& inputs);

}  // namespace conform

// The results an earlier `conform run` left in an artifact folder: every
// folder holding a verdict.json that conform wrote (it reads back as a run
// record), so that a run into the same --out leaves only its own cases
// there. Nothing else in the folder is touched: a user's files, the lock,
// `conform check`'s @check/.
#pragma once

#include <string>
#include <vector>

namespace conform {

/// The run folders below `out_dir` (relative to it, outermost first; none
/// inside another), each with a verdict.json in conform's shape. Symbolic
/// links are not followed.
std::vector<std::string> earlier_results(const std::string& out_dir);

/// Removes `folders` (relative to `out_dir`, as earlier_results gives them)
/// and the parents they leave empty, up to `out_dir` itself, which stays.
void remove_earlier_results(const std::string& out_dir, const std::vector<std::string>& folders);

/// Removes `dir` if it is empty, then each parent while empty, up to
/// `out_dir` (absolute, as `dir`), which stays.
void remove_empty_folders(const std::string& dir, const std::string& out_dir);

}  // namespace conform

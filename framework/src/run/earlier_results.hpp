// The results an earlier `conform run` left in an artifact folder, as that
// run listed them in the folder's manifest: each run folder it wrote and
// the files it wrote there. A run into the same --out removes exactly
// those, so the folder holds only its own cases, and nothing else in it is
// touched: a user's files (even inside a case folder), another run's --out
// below this one (it has a manifest of its own), the lock, `conform
// check`'s @check/.
#pragma once

#include <string>
#include <vector>

namespace conform {

/// The manifest's name in an artifact folder: a JSON object per line,
/// `{"folder": "<run folder relative to the artifact folder>", "files":
/// ["verdict.json", "client.pcap", ...]}`, appended as each run ends.
inline constexpr const char* kResultsManifest = ".conform-results.jsonl";

/// One run folder an earlier run recorded, and the files it wrote there.
struct EarlierRun {
  std::string folder;              // relative to the artifact folder
  std::vector<std::string> files;  // relative to `folder`
};

/// Appends to `out_dir`'s manifest the run folder `run_dir` (below
/// `out_dir`) with the regular files now in it and its subfolders, those
/// of its @seed-/@mutant- run folders left out (they are recorded as runs
/// of their own).
void record_results(const std::string& out_dir, const std::string& run_dir);

/// The runs `out_dir`'s manifest lists; none without a manifest. A line
/// that does not parse, or names a path outside `out_dir`, is passed over.
std::vector<EarlierRun> earlier_results(const std::string& out_dir);

/// Removes each run's listed files that are still regular files (never
/// through a link), the folders that leaves empty up to `out_dir`, which
/// stays, and the manifest.
void remove_earlier_results(const std::string& out_dir, const std::vector<EarlierRun>& runs);

/// Removes `dir` if it is empty, then each parent while empty, up to
/// `out_dir` (absolute, as `dir`), which stays.
void remove_empty_folders(const std::string& dir, const std::string& out_dir);

}  // namespace conform

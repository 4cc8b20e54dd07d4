// Where a command may write its reports: checked before any work, so a run
// is never lost to an unwritable path or overwrites what it read. Errors
// are InputError (exit 2) naming the option and the path.
#pragma once

#include <string>
#include <vector>

namespace conform {

/// Throws InputError when a report cannot be written at `path` (its folder
/// is missing, it is a folder, or the folder is not writable), naming
/// `option`; does nothing for an empty path.
void check_writable(const std::string& path, const char* option);
/// A report file to write: the option that names it and its path (empty
/// for none).
struct OutputFile {
  const char* option;
  std::string path;
};
/// Throws InputError when two `outputs` are the same file, or an output is
/// the same file as one of `inputs` (a suite, capture, key log, baseline or
/// report read): writing it would lose the other. The same file: by
/// filesystem::equivalent when both exist (links, "./a" and "a"), else by
/// normalised absolute path. Also when an output (a report file or the
/// `--out` folder) is an input folder or lies below one, by
/// filesystem::weakly_canonical paths: outputs never land among inputs.
void refuse_overwriting(const std::vector<OutputFile>& outputs, const std::vector<std::string>& inputs);
/// Throws InputError naming the path and both positions (from 1) when two
/// of `inputs` are the same file, as refuse_overwriting tells: its results
/// could not be told apart.
void refuse_repeated(const std::vector<std::string>& inputs);

/// What names one file however spelled, as refuse_overwriting tells: its
/// device and inode when it exists, else its normalised absolute path.
/// Equal identities are the same file, so a list of thousands of inputs is
/// checked for repeats in one pass.
std::string file_identity(const std::string& path);

}  // namespace conform

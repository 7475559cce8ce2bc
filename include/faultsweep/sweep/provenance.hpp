#pragma once
// Input provenance: which files a job read, with their size and SHA-256, stored in every results
// file under /inputs/<i> (attributes path, size_bytes, sha256) so that a result can be tied to
// its data; with each file, what its reader kept, dropped or changed (/inputs/<i>/read/<j>).
// Also used by `run --overwrite` to refuse replacing an input file.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "faultsweep/core/input_reading.hpp"
#include "faultsweep/sweep/job.hpp"

namespace faultsweep::sweep {

struct InputFile {
  std::string path;  // as the model resolved it (relative to the current directory or absolute)
  std::uint64_t size_bytes = 0;
  std::string sha256;  // 64 lowercase hex digits
  // What the model's readers made of the file: one entry per distinct way the job's points
  // read it (reader options), usually one; empty if the model reports nothing for it.
  std::vector<InputReading> read;
};

// The distinct input files of all points of the job (model->input_files), in first-seen order;
// a folder is replaced by the regular files in it (sorted by name, not recursive).
std::vector<std::filesystem::path> job_input_paths(const JobSpec& job);

// Size and SHA-256 of each file (read through mmap). Throws IoError if one cannot be read.
std::vector<InputFile> describe_inputs(const std::vector<std::filesystem::path>& paths);

// Adds to each file the distinct readings (by options) that model->input_readings reports over
// all points of the job; a reading of a file not in `files` is appended as a file of its own.
void attach_readings(const JobSpec& job, std::vector<InputFile>& files);

// describe_inputs(job_input_paths(job)) with attach_readings.
std::vector<InputFile> describe_job_inputs(const JobSpec& job);

// The job's text with the Python policy sources among its inputs appended as TOML comments
// (path relative to the job file, SHA-256, and the whole text), unless the text holds them
// already: the results file and the journal keep them with the job, and a change to a source
// blocks --resume like a change to the job (source_differences). Throws InputError if a
// source cannot be read.
std::string with_policy_sources(const JobSpec& job);
// Gives this process the policy sources a job text holds (rank 0's bytes, read once), before
// the text is parsed: a rank other than 0 then runs exactly what the results file stores,
// whatever the files hold now. `job_file` locates the relative paths. InputError if a source
// does not match its recorded SHA-256, or differs from bytes this process has read already.
void adopt_policy_sources(const std::string& text, const std::filesystem::path& job_file);
// "policy source <path>: sha256 <a> -> <b>" for each source whose recorded hash differs.
std::vector<std::string> source_differences(const std::string& before_text,
                                            const std::string& now_text);

}  // namespace faultsweep::sweep

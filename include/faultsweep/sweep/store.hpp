#pragma once
// The results file (DESIGN §7, schema version 1). Written by rank 0 only, to a temporary name
// in the output's folder and renamed into place, so a reader never sees a half-written file.
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "faultsweep/sweep/job.hpp"
#include "faultsweep/sweep/provenance.hpp"
#include "faultsweep/sweep/results_version.hpp"

namespace faultsweep::sweep {

inline constexpr const char* kFileType = "faultsweep-results";
inline constexpr std::int64_t kSchemaVersion = 1;

// Results of a sweep in memory: values[m][p][r] and done[p][r] (task id = p * replicas_max + r).
struct ResultTable {
  std::size_t points = 0, replicas_max = 0, metrics = 0;
  std::vector<double> values;
  std::vector<std::uint8_t> done;

  ResultTable() = default;
  ResultTable(std::size_t p, std::size_t r, std::size_t m);
  std::size_t tasks() const { return points * replicas_max; }
  double& value(std::size_t m, std::size_t task) { return values[m * tasks() + task]; }
  double value(std::size_t m, std::size_t task) const { return values[m * tasks() + task]; }
  std::size_t done_count() const;
};

// Writes OUT atomically. `complete` is false for a partial file (interrupted sweep, or one
// slice of a sliced sweep: then `slice` is "i/n" and stored as the root attribute `slice`).
// `inputs` is stored under /inputs (provenance); null: describe the job's input files now.
void write_results(const std::filesystem::path& out, const JobSpec& job, const ResultTable& t,
                   bool complete, const std::string& slice = "",
                   const std::vector<InputFile>* inputs = nullptr,
                   const std::vector<std::string>& notices = {},
                   const std::map<std::uint64_t, std::vector<unsigned char>>* records = nullptr,
                   std::int64_t results_version = kResultsVersion);

struct StoredResults {
  std::string model, job_file_name, job_text, job_sha256, created_utc, git_sha, version;
  std::string slice;  // "i/n" for a slice's file, else empty
  std::uint64_t master_seed = 0;
  std::int64_t results_version = 1;  // root attribute results_version (1 when absent)
  bool complete = false;
  std::vector<std::string> axes;      // /points dataset names, in order
  std::vector<std::string> metrics;   // in the model's order
  std::vector<std::string> units;     // per metric
  std::vector<InputFile> inputs;      // /inputs (empty in files written before it existed)
  std::vector<std::string> warnings;  // /warnings (sweep/warnings.hpp; empty if none)
  ResultTable table;
  std::map<std::uint64_t, std::vector<unsigned char>> records;  // /records (record_store.hpp)
};

// Reads a results file; checks filetype and schema_version first. Throws IoError with the path.
StoredResults read_results(const std::filesystem::path& path);

}  // namespace faultsweep::sweep

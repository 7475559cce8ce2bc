#pragma once
// What an input reader kept, dropped or changed in one file (DESIGN §8: nothing dropped
// silently). Printed as one line at load time and stored in the results file under
// /inputs/<i>/read/<j>, beside the file's size and SHA-256, so a result says what of its data
// it used.
#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace faultsweep {

struct InputReading {
  std::filesystem::path path;  // the file, resolved against the job file's folder
  std::string options;         // how it was read (reader options): tells readings apart
  std::vector<std::pair<std::string, std::int64_t>> counts;  // by name, e.g. {"bad_lines", 3}
  std::string summary;                                       // the one line printed at load time
  // Failure logs that name or renumber their nodes (lanl, fta, pnnl): node_names[i] is the
  // log's name of node i (before node_offset); empty where node i is the log's own number i.
  std::vector<std::string> node_names;
};

}  // namespace faultsweep

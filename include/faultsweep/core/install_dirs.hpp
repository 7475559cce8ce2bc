#pragma once
// Where an installed faultsweep keeps its bundled files (jobs, inputs, Slurm scripts): beside the
// binary, in <prefix>/share/faultsweep when the binary is <prefix>/bin/faultsweep.
#include <filesystem>
#include <string>

namespace faultsweep {

// <folder of the running binary>/../share/faultsweep, or empty when that folder does not exist
// (e.g. a binary run from its build tree).
std::filesystem::path share_dir();

// PATH itself when it exists, is absolute, or there is no share folder; otherwise the bundled
// file share_dir()/PATH when that exists (so `faultsweep run jobs/quickstart.toml` works from any
// folder with an installed binary). Jobs name their inputs relative to the job file, so a bundled
// job finds the bundled inputs.
std::string bundled_path(const std::string& path);

}  // namespace faultsweep

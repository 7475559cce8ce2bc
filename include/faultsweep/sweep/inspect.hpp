#pragma once
#include <cstdio>
#include <string>

namespace faultsweep::sweep {

// Prints what a results file holds; returns an exit code. Throws IoError for unreadable files.
int inspect_file(const std::string& path, std::FILE* out);

}  // namespace faultsweep::sweep

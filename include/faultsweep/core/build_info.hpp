#pragma once
// Build provenance compiled in by CMake (src/core/build_info.cpp.in).
namespace faultsweep {
const char* version();
const char* git_sha();
const char* compiler();
}  // namespace faultsweep

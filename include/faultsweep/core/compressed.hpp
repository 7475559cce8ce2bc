#pragma once
// Compressed input files (.gz, .xz) decompressed in memory with zlib and liblzma. No child
// process: the readers run inside MPI ranks, where forking `xz` is unsafe, and a missing `xz`
// binary must not decide whether a job runs.
#include <filesystem>
#include <string>
#include <string_view>

namespace faultsweep {

enum class Compression { none, gzip, xz };

// The compression of `bytes` by their magic bytes (gzip 1f 8b, xz fd 37 7a 58 5a 00).
Compression compression_of(std::string_view bytes);

// The decompressed data. Every stream of a multi-stream file is read (as `gzip -d` / `xz -d`
// do). Corrupt or truncated data, or bytes after the last stream that do not start another,
// throw InputError naming `file` and saying what is wrong.
std::string gunzip(std::string_view in, const std::string& file);
std::string unxz(std::string_view in, const std::string& file);

// The text of a file that may be compressed: a name ending in ".gz" or ".xz" must hold that
// format (else "corrupt"), other names are decompressed when their magic bytes say so. `bytes`
// are the file's raw bytes.
std::string decompress(std::string bytes, const std::filesystem::path& file);

}  // namespace faultsweep

#pragma once
// Checks on the raw bytes of a TOML input before the TOML parser sees them. toml11 3.7 (Debian
// 12) reads past its buffer on some invalid UTF-8 and recurses once per nesting level, so a
// hostile or damaged file could crash it; these checks turn both into an InputError naming
// file:line. (toml++ would do this itself; see docs/limits.md.)
#include <cstddef>
#include <filesystem>
#include <string>

namespace faultsweep {

// Arrays and inline tables nested deeper than this are refused.
inline constexpr int kMaxTomlNesting = 64;
// Dotted keys and table headers with more parts than this are refused.
inline constexpr int kMaxTomlKeyParts = 64;
// Input text files (job files, Plank tables) larger than this are refused.
inline constexpr std::size_t kMaxTomlBytes = std::size_t{4} << 20;

// Throws InputError("file:line: ...") if `text` is not valid UTF-8 (RFC 3629: no overlong forms,
// no surrogates, nothing above U+10FFFF), holds a NUL byte, nests brackets or braces deeper than
// kMaxTomlNesting, or has a key with more than kMaxTomlKeyParts dotted parts.
void check_toml_text(const std::string& text, const std::string& file);

// Reads a small text input: refuses (InputError) anything that is not a regular file (a folder,
// FIFO, device such as /dev/zero) and files larger than max_bytes; IoError if it cannot be read.
std::string read_text_file(const std::filesystem::path& path, const std::string& what,
                           std::size_t max_bytes = kMaxTomlBytes);

}  // namespace faultsweep

#include "faultsweep/core/text_guard.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "faultsweep/core/error.hpp"

namespace faultsweep {
namespace {

// Length of the valid UTF-8 sequence starting at s[i], or 0 if it is not valid (RFC 3629 Table 3).
std::size_t utf8_length(const std::string& s, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
  const std::size_t left = s.size() - i;
  const unsigned char c = b(0);
  if (c < 0x80) return 1;
  const auto cont = [&](std::size_t k, unsigned char lo = 0x80, unsigned char hi = 0xBF) {
    return k < left && b(k) >= lo && b(k) <= hi;
  };
  if (c >= 0xC2 && c <= 0xDF) return cont(1) ? 2 : 0;
  if (c == 0xE0) return cont(1, 0xA0) && cont(2) ? 3 : 0;
  if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF) return cont(1) && cont(2) ? 3 : 0;
  if (c == 0xED) return cont(1, 0x80, 0x9F) && cont(2) ? 3 : 0;  // no surrogates
  if (c == 0xF0) return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0;
  if (c >= 0xF1 && c <= 0xF3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
  if (c == 0xF4) return cont(1, 0x80, 0x8F) && cont(2) && cont(3) ? 4 : 0;
  return 0;
}

}  // namespace

void check_toml_text(const std::string& text, const std::string& file) {
  int line = 1;
  const auto refuse = [&](const std::string& why) {
    throw InputError(fmt::format("{}:{}: {}", file, line, why));
  };
  for (std::size_t i = 0; i < text.size();) {
    if (text[i] == '\0') refuse("a NUL byte (is this a binary file?)");
    const std::size_t n = utf8_length(text, i);
    if (n == 0)
      refuse(fmt::format("byte 0x{:02X} at offset {} is not valid UTF-8 (TOML files are UTF-8)",
                         static_cast<unsigned char>(text[i]), i));
    if (text[i] == '\n') ++line;
    i += n;
  }
  // Brackets and braces outside strings and comments; dots between separators (key parts).
  enum { normal, comment, basic, literal, ml_basic, ml_literal } state = normal;
  int depth = 0, dots = 0;
  line = 1;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const auto starts = [&](const char* s) { return text.compare(i, std::strlen(s), s) == 0; };
    if (c == '\n') ++line;
    switch (state) {
      case comment:
        if (c == '\n') state = normal;
        break;
      case basic:
        if (c == '\\')
          ++i;  // the escaped character cannot end the string
        else if (c == '"' || c == '\n')
          state = normal;
        break;
      case literal:
        if (c == '\'' || c == '\n') state = normal;
        break;
      case ml_basic:
        if (c == '\\' && i + 1 < text.size() && text[i + 1] != '\n')
          ++i;
        else if (starts("\"\"\""))
          state = normal, i += 2;
        break;
      case ml_literal:
        if (starts("'''")) state = normal, i += 2;
        break;
      case normal:
        if (c == '#') {
          state = comment;
        } else if (starts("\"\"\"")) {
          state = ml_basic, i += 2;
        } else if (starts("'''")) {
          state = ml_literal, i += 2;
        } else if (c == '"') {
          state = basic;
        } else if (c == '\'') {
          state = literal;
        } else if (c == '[' || c == '{') {
          dots = 0;
          if (++depth > kMaxTomlNesting)
            refuse(
                fmt::format("arrays or inline tables nested more than {} deep", kMaxTomlNesting));
        } else if (c == ']' || c == '}') {
          dots = 0;
          if (depth > 0) --depth;
        } else if (c == '=' || c == ',' || c == '\n') {
          dots = 0;
        } else if (c == '.' && ++dots >= kMaxTomlKeyParts) {
          refuse(fmt::format("a key with more than {} dotted parts", kMaxTomlKeyParts));
        }
        break;
    }
  }
}

std::string read_text_file(const std::filesystem::path& path, const std::string& what,
                           std::size_t max_bytes) {
  const std::string p = path.string();
  struct stat st {};
  if (::stat(p.c_str(), &st) != 0) {
    if (errno == ENOENT || errno == ENOTDIR)
      throw InputError(fmt::format("{}: no such {}", p, what));
    throw InputError(fmt::format("{}: cannot read the {}: {}", p, what, std::strerror(errno)));
  }
  if (S_ISDIR(st.st_mode)) throw InputError(fmt::format("{}: is a folder, not a {}", p, what));
  if (!S_ISREG(st.st_mode))
    throw InputError(
        fmt::format("{}: is not a regular file (a device, FIFO or socket); a {} "
                    "must be a regular file",
                    p, what));
  if (static_cast<std::uint64_t>(st.st_size) > max_bytes)
    throw InputError(fmt::format("{}: {} bytes; a {} may have at most {} bytes", p, st.st_size,
                                 what, max_bytes));
  // O_NONBLOCK: should the file be swapped for a FIFO after the check, open() must not block.
  const int fd = ::open(p.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0)
    throw InputError(fmt::format("{}: cannot read the {}: {}", p, what, std::strerror(errno)));
  std::string text;
  char buf[1 << 15];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      ::close(fd);
      throw IoError(fmt::format("{}: cannot read the {}: {}", p, what, std::strerror(err)));
    }
    if (n == 0) break;
    text.append(buf, static_cast<std::size_t>(n));
    if (text.size() > max_bytes) {
      ::close(fd);
      throw InputError(fmt::format("{}: more than {} bytes; a {} may have at most {} bytes", p,
                                   max_bytes, what, max_bytes));
    }
  }
  ::close(fd);
  return text;
}

}  // namespace faultsweep

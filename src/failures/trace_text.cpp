#include "faultsweep/failures/trace_text.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>

#include "faultsweep/core/error.hpp"

extern char** environ;

namespace faultsweep::failures::text {
namespace {

constexpr std::size_t kMaxBadMessages = 10;

std::string read_plain(const std::string& name) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(name.c_str(), "rb"), &std::fclose);
  if (!f) throw IoError(fmt::format("{}: cannot open: {}", name, std::strerror(errno)));
  std::string buf;
  std::array<char, 1 << 16> chunk;
  std::size_t n;
  while ((n = std::fread(chunk.data(), 1, chunk.size(), f.get())) > 0) buf.append(chunk.data(), n);
  if (std::ferror(f.get())) throw IoError(fmt::format("{}: read error", name));
  return buf;
}

// Closes a pipe end once.
struct Fd {
  int fd = -1;
  ~Fd() { reset(); }
  void reset() {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
};

// `xz -dc -- name`: its output, or an error that says whether xz is missing or failed (and
// what it said on stderr). Both pipes are drained together, so a chatty stderr cannot block.
std::string read_xz(const std::string& name) {
  Fd out_r, out_w, err_r, err_w;
  int p[2];
  if (::pipe2(p, O_CLOEXEC) != 0) throw IoError(fmt::format("{}: pipe: {}", name, strerror(errno)));
  out_r.fd = p[0], out_w.fd = p[1];
  if (::pipe2(p, O_CLOEXEC) != 0) throw IoError(fmt::format("{}: pipe: {}", name, strerror(errno)));
  err_r.fd = p[0], err_w.fd = p[1];
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out_w.fd, 1);  // dup2 clears O_CLOEXEC
  posix_spawn_file_actions_adddup2(&actions, err_w.fd, 2);
  std::string arg0 = "xz", arg1 = "-dc", arg2 = "--", arg3 = name;
  char* argv[] = {arg0.data(), arg1.data(), arg2.data(), arg3.data(), nullptr};
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, "xz", &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  out_w.reset();
  err_w.reset();
  if (rc == ENOENT)
    throw IoError(
        fmt::format("{}: cannot decompress: xz is not installed (no `xz` on PATH)", name));
  if (rc != 0) throw IoError(fmt::format("{}: cannot run xz: {}", name, std::strerror(rc)));
  std::string out, err;
  std::array<char, 1 << 16> chunk;
  while (out_r.fd >= 0 || err_r.fd >= 0) {
    pollfd fds[2] = {{out_r.fd, POLLIN, 0}, {err_r.fd, POLLIN, 0}};
    if (::poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int i = 0; i < 2; ++i) {
      Fd& fd = i == 0 ? out_r : err_r;
      if (fd.fd < 0 || fds[i].revents == 0) continue;
      const ssize_t n = ::read(fd.fd, chunk.data(), chunk.size());
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        fd.reset();
        continue;
      }
      (i == 0 ? out : err).append(chunk.data(), static_cast<std::size_t>(n));
    }
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    const std::string what = trim(err);
    throw InputError(fmt::format("{}: corrupt or unreadable .xz file: `xz -dc` {} {}{}", name,
                                 WIFEXITED(status) ? "exited with status" : "was killed by signal",
                                 WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status),
                                 what.empty() ? "" : ": " + what));
  }
  return out;
}

}  // namespace

std::string read_log(const std::filesystem::path& file) {
  const std::string name = file.string();
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec))
    throw InputError(fmt::format(
        "{}: cannot open file ({})", name,
        std::filesystem::exists(file, ec) ? "not a regular file" : "no such regular file"));
  return file.extension() == ".xz" ? read_xz(name) : read_plain(name);
}

bool Lines::next(std::string_view& line) {
  if (rest_.empty()) return false;
  const auto nl = rest_.find('\n');
  line = rest_.substr(0, nl);
  rest_.remove_prefix(nl == std::string_view::npos ? rest_.size() : nl + 1);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  ++line_no_;
  return true;
}

void split_csv(std::string_view line, std::vector<std::string>& out) {
  // Fields are assigned into the strings already in `out`, so their buffers are reused.
  std::size_t n = 0;
  auto field = [&]() -> std::string& {
    if (n == out.size()) out.emplace_back();
    std::string& f = out[n];
    f.clear();
    return f;
  };
  std::string* f = &field();
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        f->push_back('"');
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        f->push_back(c);
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      ++n;
      f = &field();
    } else {
      f->push_back(c);
    }
  }
  out.resize(n + 1);
}

void split_ws(std::string_view line, std::vector<std::string>& out) {
  out.clear();
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    const std::size_t b = i;
    while (i < line.size() && !std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    if (i > b) out.emplace_back(line.substr(b, i - b));
  }
}

std::string trim(std::string_view s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::optional<double> parse_number(std::string_view text) {
  const std::string t = trim(text);
  if (t.empty()) return std::nullopt;
  double v = 0;
  const auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec != std::errc() || ptr != t.data() + t.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::optional<std::int64_t> parse_int(std::string_view text) {
  const std::string t = trim(text);
  std::int64_t v = 0;
  const auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (t.empty() || ec != std::errc() || ptr != t.data() + t.size()) return std::nullopt;
  return v;
}

void BadRecords::report(std::int64_t line_no, const std::string& reason) {
  std::string msg = fmt::format("{}:{}: {}", file_, line_no, reason);
  if (fail_) throw InputError(std::move(msg));
  ++log_.bad;
  if (log_.bad_messages.size() < kMaxBadMessages) log_.bad_messages.push_back(std::move(msg));
}

std::int32_t NodeNames::index(const std::string& name, TraceLog& log) {
  const auto [it, added] = index_.emplace(name, static_cast<std::int32_t>(index_.size()));
  if (added) {
    log.node_names.push_back(name);
    log.nodes = static_cast<std::int64_t>(index_.size());
  }
  return it->second;
}

bool next_record(Lines& lines, std::vector<std::string>& f, std::size_t columns, TraceLog& log,
                 BadRecords& bad) {
  std::string_view line;
  while (lines.next(line)) {
    if (trim(line).empty()) continue;
    ++log.lines;
    split_csv(line, f);
    if (f.size() == columns) return true;
    bad.report(lines.line_no(), fmt::format("{} fields, expected {}", f.size(), columns));
  }
  return false;
}

void make_relative(TraceLog& log) {
  if (log.events.empty()) return;
  double origin = log.events.front().time_s;
  for (const auto& e : log.events) origin = std::min(origin, e.time_s);
  for (auto& e : log.events) e.time_s -= origin;
  log.origin_unix_s = origin;
}

}  // namespace faultsweep::failures::text

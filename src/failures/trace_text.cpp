#include "faultsweep/failures/trace_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>

#include "faultsweep/core/compressed.hpp"
#include "faultsweep/core/error.hpp"

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

}  // namespace

std::string read_log(const std::filesystem::path& file) {
  const std::string name = file.string();
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec))
    throw InputError(fmt::format(
        "{}: cannot open file ({})", name,
        std::filesystem::exists(file, ec) ? "not a regular file" : "no such regular file"));
  return decompress(read_plain(name), file);
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

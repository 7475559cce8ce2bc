#include "faultsweep/failures/trace.hpp"

#include <fmt/format.h>

#include <sys/types.h>
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>

#include "faultsweep/core/error.hpp"

namespace faultsweep::failures {
namespace {

constexpr std::size_t kMaxBadMessages = 10;

bool event_before(const FailureEvent& a, const FailureEvent& b) {
  if (a.time_s != b.time_s) return a.time_s < b.time_s;
  if (a.node != b.node) return a.node < b.node;
  return a.downtime_s < b.downtime_s;  // total order: the result never depends on the sort
}

// Lines of a plain file, or of `xz -dc file` for a name ending in ".xz".
class LineReader {
 public:
  explicit LineReader(const std::filesystem::path& file) : name_(file.string()) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec))
      throw InputError(fmt::format("{}: cannot open file (no such regular file)", name_));
    if (file.extension() == ".xz") {
      // Single-quoted for the shell; a ' inside the name becomes '\''.
      std::string quoted = "'";
      for (const char c : name_) quoted += (c == '\'') ? std::string("'\\''") : std::string(1, c);
      quoted += "'";
      const std::string cmd = "xz -dc -- " + quoted;
      fp_ = popen(cmd.c_str(), "r");
      piped_ = true;
    } else {
      fp_ = std::fopen(name_.c_str(), "r");
    }
    if (fp_ == nullptr)
      throw IoError(fmt::format("{}: cannot open: {}", name_, std::strerror(errno)));
  }
  ~LineReader() {
    close();
    std::free(buf_);
  }
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  bool next(std::string& line) {
    const ssize_t n = getline(&buf_, &cap_, fp_);  // POSIX: one call per line, buffer reused
    if (n < 0) return false;
    line.assign(buf_, static_cast<std::size_t>(n));
    if (!line.empty() && line.back() == '\n') line.pop_back();
    if (!line.empty() && line.back() == '\r') line.pop_back();
    ++line_no_;
    return true;
  }
  int line_no() const { return line_no_; }
  const std::string& name() const { return name_; }

  // Reports a failed decompression (xz missing, corrupt file) after the last line.
  void finish() {
    const int status = close();
    if (piped_ && status != 0)
      throw IoError(
          fmt::format("{}: `xz -dc` failed (exit status {}); is xz installed?", name_, status));
  }

 private:
  int close() {
    if (fp_ == nullptr) return 0;
    const int status = piped_ ? pclose(fp_) : std::fclose(fp_);
    fp_ = nullptr;
    return status;
  }
  std::string name_;
  FILE* fp_ = nullptr;
  char* buf_ = nullptr;
  std::size_t cap_ = 0;
  bool piped_ = false;
  int line_no_ = 0;
};

// Splits one CSV line (RFC 4180 quoting: "a, b" is one field, "" inside quotes is a quote).
void split_csv(const std::string& line, std::vector<std::string>& out) {
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

std::string trim(const std::string& s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::optional<double> parse_number(const std::string& text) {
  const std::string t = trim(text);
  if (t.empty()) return std::nullopt;
  double v = 0;
  const auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec != std::errc() || ptr != t.data() + t.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::optional<std::int64_t> parse_int(const std::string& text) {
  const std::string t = trim(text);
  std::int64_t v = 0;
  const auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (t.empty() || ec != std::errc() || ptr != t.data() + t.size()) return std::nullopt;
  return v;
}

// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil).
std::int64_t days_from_civil(std::int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const auto yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

class BadRecords {
 public:
  BadRecords(TraceLog& log, bool stop) : log_(log), stop_(stop) {}
  void report(const LineReader& r, const std::string& reason) {
    const std::string msg = fmt::format("{}:{}: {}", r.name(), r.line_no(), reason);
    if (stop_) throw InputError(msg);
    ++log_.bad;
    if (log_.bad_messages.size() < kMaxBadMessages) log_.bad_messages.push_back(msg);
  }

 private:
  TraceLog& log_;
  bool stop_;
};

}  // namespace

std::optional<double> parse_civil_time_s(const std::string& text) {
  const std::string t = trim(text);
  int y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0, used = 0;
  bool ok = false;
  if (std::sscanf(t.c_str(), "%d/%d/%d %d:%d%n", &mo, &d, &y, &h, &mi, &used) == 5 &&
      static_cast<std::size_t>(used) == t.size()) {
    ok = true;  // LANL: m/d/YYYY H:MM
  } else if (std::sscanf(t.c_str(), "%d-%d-%d %d:%d:%d%n", &y, &mo, &d, &h, &mi, &s, &used) == 6 &&
             static_cast<std::size_t>(used) == t.size()) {
    ok = true;
  } else if ((h = mi = s = 0,
              std::sscanf(t.c_str(), "%d-%d-%d %d:%d%n", &y, &mo, &d, &h, &mi, &used) == 5) &&
             static_cast<std::size_t>(used) == t.size()) {
    ok = true;
  } else if ((h = mi = s = 0, std::sscanf(t.c_str(), "%d-%d-%d%n", &y, &mo, &d, &used) == 3) &&
             static_cast<std::size_t>(used) == t.size()) {
    ok = true;
  }
  if (!ok || y < 1900 || y > 9999 || mo < 1 || mo > 12 || d < 1 || d > 31 || h < 0 || h > 23 ||
      mi < 0 || mi > 59 || s < 0 || s > 60)
    return std::nullopt;
  const std::int64_t days = days_from_civil(y, static_cast<unsigned>(mo), static_cast<unsigned>(d));
  return static_cast<double>(days) * 86400.0 + h * 3600.0 + mi * 60.0 + s;
}

TraceSource::TraceSource(std::vector<FailureEvent> events, std::int32_t node_offset,
                         double horizon_s)
    : events_(std::move(events)), horizon_s_(horizon_s) {
  for (auto& e : events_) {
    FS_CHECK(e.time_s >= 0 && e.downtime_s >= 0 && e.node >= 0, "trace event out of range");
    e.node += node_offset;
  }
  std::sort(events_.begin(), events_.end(), event_before);
}

FailureEvent TraceSource::next() {
  if (pos_ == events_.size() || !(events_[pos_].time_s < horizon_s_)) return FailureEvent{};
  return events_[pos_++];
}

const std::vector<std::string>& lanl_causes() {
  static const std::vector<std::string> kCauses = {"Facilities", "Hardware",     "Human Error",
                                                   "Network",    "Undetermined", "Software"};
  return kCauses;
}

TraceLog read_lanl(const std::filesystem::path& file, const LanlOptions& options) {
  TraceLog log;
  BadRecords bad(log, options.stop_on_bad);
  LineReader reader(file);
  std::string line;
  std::vector<std::string> f;
  if (!reader.next(line)) throw InputError(fmt::format("{}: empty file", reader.name()));
  split_csv(line, f);
  // Columns by header name (LANL README "Record layout"), so a reordered file still reads.
  auto column = [&](const std::string& name) {
    for (std::size_t i = 0; i < f.size(); ++i)
      if (lower(trim(f[i])) == lower(name)) return i;
    throw InputError(
        fmt::format("{}:1: no column \"{}\" in the header; is this the LANL "
                    "LA-UR-05-7318 failure data?",
                    reader.name(), name));
  };
  const std::size_t c_system = column("System"), c_node = column("nodenumz"),
                    c_started = column("Prob Started"), c_fixed = column("Prob Fixed"),
                    c_down = column("Down Time");
  std::vector<std::size_t> c_cause, c_keep;
  for (const auto& cause : lanl_causes()) c_cause.push_back(column(cause));
  for (const auto& want : options.causes) {
    bool found = false;
    for (std::size_t i = 0; i < lanl_causes().size(); ++i)
      if (lower(lanl_causes()[i]) == lower(trim(want))) c_keep.push_back(c_cause[i]), found = true;
    if (!found)
      throw InputError("cause", want,
                       "expected one of Facilities, Hardware, Human Error, Network, "
                       "Undetermined, Software");
  }
  const std::size_t n_columns = f.size();

  struct Raw {
    double start_unix_s;
    std::int64_t node;
    double downtime_s;
  };
  std::vector<Raw> raw;
  while (reader.next(line)) {
    if (trim(line).empty()) continue;
    ++log.lines;
    split_csv(line, f);
    if (f.size() != n_columns) {
      bad.report(reader, fmt::format("{} fields, expected {}", f.size(), n_columns));
      continue;
    }
    const auto system = parse_int(f[c_system]);
    if (!system) {
      bad.report(reader, fmt::format("System = \"{}\": not an integer", f[c_system]));
      continue;
    }
    if (*system != options.system) {
      ++log.other_system;
      continue;
    }
    const auto node = parse_int(f[c_node]);
    if (!node || *node < 0) {
      bad.report(reader, fmt::format("nodenumz = \"{}\": not an integer >= 0", f[c_node]));
      continue;
    }
    const auto started = parse_civil_time_s(f[c_started]);
    if (!started) {
      bad.report(reader,
                 fmt::format("Prob Started = \"{}\": expected m/d/YYYY H:MM", f[c_started]));
      continue;
    }
    double downtime_s = 0;
    if (options.downtime == LanlDowntime::down_time_column) {
      const auto minutes = parse_number(f[c_down]);
      if (!minutes || *minutes < 0) {
        bad.report(reader, fmt::format("Down Time = \"{}\": expected minutes >= 0", f[c_down]));
        continue;
      }
      downtime_s = *minutes * 60.0;
    } else {
      const auto fixed = parse_civil_time_s(f[c_fixed]);
      if (!fixed || *fixed < *started) {
        bad.report(reader, fmt::format("Prob Fixed = \"{}\": expected m/d/YYYY H:MM not before "
                                       "Prob Started",
                                       f[c_fixed]));
        continue;
      }
      downtime_s = *fixed - *started;
    }
    if (!c_keep.empty()) {
      bool keep = false;
      for (const std::size_t c : c_keep) keep = keep || !trim(f[c]).empty();
      if (!keep) {
        ++log.filtered_cause;
        continue;
      }
    }
    if (options.start_unix_s && *started < *options.start_unix_s) {
      ++log.before_start;
      continue;
    }
    raw.push_back({*started, *node, downtime_s});
  }
  reader.finish();

  // Nodes of the selected system, sorted, become 0..k-1.
  std::map<std::int64_t, std::int32_t> index;
  for (const auto& r : raw) index.emplace(r.node, 0);
  for (auto& [original, i] : index) {
    i = static_cast<std::int32_t>(log.original_node.size());
    log.original_node.push_back(original);
  }
  log.nodes = static_cast<std::int32_t>(index.size());
  double origin = options.start_unix_s.value_or(std::numeric_limits<double>::infinity());
  if (!options.start_unix_s)
    for (const auto& r : raw) origin = std::min(origin, r.start_unix_s);
  log.origin_unix_s = raw.empty() && !options.start_unix_s ? 0.0 : origin;
  log.events.reserve(raw.size());
  for (const auto& r : raw)
    log.events.push_back({r.start_unix_s - origin, index.at(r.node), r.downtime_s});
  std::sort(log.events.begin(), log.events.end(), event_before);
  return log;
}

TraceLog read_trace_csv(const std::filesystem::path& file, bool stop_on_bad) {
  TraceLog log;
  BadRecords bad(log, stop_on_bad);
  LineReader reader(file);
  std::string line;
  std::vector<std::string> f;
  bool first = true;
  while (reader.next(line)) {
    const auto hash = line.find('#');
    if (hash != std::string::npos) line.resize(hash);
    if (trim(line).empty()) continue;
    split_csv(line, f);
    if (first && !parse_number(f[0])) {  // a header line
      first = false;
      continue;
    }
    first = false;
    ++log.lines;
    if (f.size() != 3) {
      bad.report(reader, fmt::format("{} fields, expected 3 (time_s,node,downtime_s)", f.size()));
      continue;
    }
    const auto t = parse_number(f[0]);
    const auto node = parse_int(f[1]);
    const auto down = parse_number(f[2]);
    if (!t || *t < 0) {
      bad.report(reader, fmt::format("time_s = \"{}\": expected a number >= 0", f[0]));
    } else if (!node || *node < 0 || *node > std::numeric_limits<std::int32_t>::max()) {
      bad.report(reader, fmt::format("node = \"{}\": expected an integer >= 0", f[1]));
    } else if (!down || *down < 0) {
      bad.report(reader, fmt::format("downtime_s = \"{}\": expected a number >= 0", f[2]));
    } else {
      log.events.push_back({*t, static_cast<std::int32_t>(*node), *down});
      log.nodes = std::max(log.nodes, static_cast<std::int32_t>(*node + 1));
    }
  }
  reader.finish();
  std::sort(log.events.begin(), log.events.end(), event_before);
  return log;
}

}  // namespace faultsweep::failures

#include "faultsweep/failures/trace.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "faultsweep/core/error.hpp"
#include "faultsweep/failures/trace_text.hpp"

namespace faultsweep::failures {
namespace {

bool event_before(const FailureEvent& a, const FailureEvent& b) {
  if (a.time_s != b.time_s) return a.time_s < b.time_s;
  if (a.node != b.node) return a.node < b.node;
  return a.downtime_s < b.downtime_s;  // total order: the result never depends on the sort
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

int days_in_month(int y, int m) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  return m == 2 && leap ? 29 : kDays[m - 1];
}

// A strict scanner: digits only where the pattern has them (no signs, no overflow).
class Scanner {
 public:
  explicit Scanner(std::string_view s) : s_(s) {}
  // 1..max_digits digits; the count read goes to *digits.
  bool number(int max_digits, int& v, int* digits = nullptr) {
    int n = 0;
    v = 0;
    while (pos_ < s_.size() && n < max_digits && s_[pos_] >= '0' && s_[pos_] <= '9')
      v = v * 10 + (s_[pos_++] - '0'), ++n;
    if (digits) *digits = n;
    return n > 0;
  }
  bool literal(char c) { return pos_ < s_.size() && s_[pos_] == c ? (++pos_, true) : false; }
  bool spaces() {
    const std::size_t b = pos_;
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t')) ++pos_;
    return pos_ > b;
  }
  bool done() const { return pos_ == s_.size(); }

 private:
  std::string_view s_;
  std::size_t pos_ = 0;
};

}  // namespace

std::optional<double> parse_civil_time_s(const std::string& text) {
  const std::string t = text::trim(text);
  int y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0, year_digits = 0;
  bool ok = false;
  if (t.find('/') != std::string::npos) {  // LANL: m/d/YYYY H:MM or m/d/YY H:MM
    Scanner sc(t);
    ok = sc.number(2, mo) && sc.literal('/') && sc.number(2, d) && sc.literal('/') &&
         sc.number(4, y, &year_digits) && (year_digits == 2 || year_digits == 4) && sc.spaces() &&
         sc.number(2, h) && sc.literal(':') && sc.number(2, mi) && sc.done();
    if (year_digits == 2) y += y < 69 ? 2000 : 1900;  // POSIX strptime %y
  } else {                                            // YYYY-MM-DD[ HH:MM[:SS]]
    Scanner sc(t);
    ok = sc.number(4, y, &year_digits) && year_digits == 4 && sc.literal('-') && sc.number(2, mo) &&
         sc.literal('-') && sc.number(2, d);
    if (ok && !sc.done())
      ok = sc.spaces() && sc.number(2, h) && sc.literal(':') && sc.number(2, mi) &&
           (sc.done() || (sc.literal(':') && sc.number(2, s) && sc.done()));
  }
  if (!ok || y < 1900 || y > 9999 || mo < 1 || mo > 12 || d < 1 || d > days_in_month(y, mo) ||
      h > 23 || mi > 59 || s > 60)
    return std::nullopt;
  const std::int64_t days = days_from_civil(y, static_cast<unsigned>(mo), static_cast<unsigned>(d));
  return static_cast<double>(days) * 86400.0 + h * 3600.0 + mi * 60.0 + s;
}

namespace {

// Event e of a trace, node_offset added (both checked).
FailureEvent offset_event(FailureEvent e, std::int32_t node_offset) {
  FS_CHECK(e.time_s >= 0 && e.downtime_s >= 0 && e.node >= 0, "trace event out of range");
  // 64-bit sum: the factory checks that every node + offset fits the machine, so this holds.
  const std::int64_t node = std::int64_t{e.node} + node_offset;
  FS_CHECK(node >= 0 && node <= std::numeric_limits<std::int32_t>::max(),
           "trace node + node_offset out of range");
  e.node = static_cast<std::int32_t>(node);
  return e;
}

}  // namespace

bool is_sorted_events(const std::vector<FailureEvent>& events) {
  return std::is_sorted(events.begin(), events.end(), event_before);
}

void sort_events(std::vector<FailureEvent>& events) {
  std::sort(events.begin(), events.end(), event_before);
}

TraceSource::TraceSource(std::vector<FailureEvent> events, std::int32_t node_offset,
                         double horizon_s)
    : horizon_s_(horizon_s) {
  for (auto& e : events) e = offset_event(e, node_offset);
  sort_events(events);
  events_ = std::make_shared<const std::vector<FailureEvent>>(std::move(events));
}

// Adding the same offset to every node keeps the order of (time, node, downtime), so the shared
// events replay in the order the copying constructor would sort them into.
TraceSource::TraceSource(std::shared_ptr<const std::vector<FailureEvent>> sorted_events,
                         std::int32_t node_offset, double horizon_s)
    : events_(std::move(sorted_events)), node_offset_(node_offset), horizon_s_(horizon_s) {
  FS_CHECK(events_ != nullptr, "trace source without events");
}

FailureEvent TraceSource::next() {
  const std::vector<FailureEvent>& ev = *events_;
  if (pos_ == ev.size() || !(ev[pos_].time_s < horizon_s_)) return FailureEvent{};
  return offset_event(ev[pos_++], node_offset_);
}

std::vector<std::pair<std::string, std::int64_t>> TraceLog::counts() const {
  const auto n = [](std::size_t v) { return static_cast<std::int64_t>(v); };
  std::vector<std::pair<std::string, std::int64_t>> out = {{"lines", n(lines)},
                                                           {"events", n(events.size())},
                                                           {"nodes", nodes},
                                                           {"bad", n(bad)},
                                                           {"other_system", n(other_system)},
                                                           {"filtered_cause", n(filtered_cause)},
                                                           {"before_start", n(before_start)},
                                                           {"not_failure", n(not_failure)},
                                                           {"not_node", n(not_node)}};
  for (const Extra& e : extra) out.emplace_back(e.name, e.n);
  return out;
}

std::string TraceLog::summary() const {
  std::string dropped;
  const auto add = [&](std::size_t n, const char* what) {
    if (n > 0) dropped += fmt::format("{}{} {}", dropped.empty() ? "" : ", ", n, what);
  };
  add(bad, "bad");
  add(other_system, "of other systems");
  add(filtered_cause, "of other root causes");
  add(before_start, "before the start date");
  add(not_failure, "not unavailability events");
  add(not_node, "not about a node");
  std::string s =
      fmt::format("{} records, {} failures on {} nodes kept", lines, events.size(), nodes);
  if (!dropped.empty()) s += "; dropped: " + dropped;
  std::string more;
  for (const Extra& e : extra)
    if (e.n > 0) more += fmt::format("{}{} {}", more.empty() ? "" : ", ", e.n, e.what);
  if (!more.empty()) s += "; " + more;
  return s;
}

void text::finish(TraceLog& log, const std::string& file, Times times) {
  if (times == Times::absolute) make_relative(log);
  sort_events(log.events);
  if (!log.events.empty()) return;
  // Keyed "file" like the factory's other checks of the trace, so the job loader can point at
  // the job file's line as well.
  std::string msg = fmt::format("no usable failure records ({})", log.summary());
  if (log.lines > 0 && log.bad == log.lines) msg += "; every record is bad";
  if (!log.bad_messages.empty()) msg += "; first: " + log.bad_messages.front();
  throw InputError("file", "\"" + file + "\"", msg);
}

TraceLog parse_trace_csv(std::string_view data, const std::string& file, bool stop_on_bad) {
  TraceLog log;
  text::BadRecords bad(log, file, stop_on_bad);
  text::Lines lines(data);
  std::string_view raw;
  std::vector<std::string> f;
  bool first = true;
  while (lines.next(raw)) {
    const std::string_view line = raw.substr(0, raw.find('#'));
    if (text::trim(line).empty()) continue;
    text::split_csv(line, f);
    if (first && !text::parse_number(f[0])) {  // a header line
      first = false;
      continue;
    }
    first = false;
    ++log.lines;
    const auto at = lines.line_no();
    if (f.size() != 3) {
      bad.report(at, fmt::format("{} fields, expected 3 (time_s,node,downtime_s)", f.size()));
      continue;
    }
    const auto t = text::parse_number(f[0]);
    const auto node = text::parse_int(f[1]);
    const auto down = text::parse_number(f[2]);
    if (!t || *t < 0) {
      bad.report(at, fmt::format("time_s = \"{}\": expected a number >= 0", f[0]));
    } else if (!node || *node < 0 || *node > std::numeric_limits<std::int32_t>::max()) {
      bad.report(at, fmt::format("node = \"{}\": expected an integer in 0 .. 2147483647", f[1]));
    } else if (!down || *down < 0) {
      bad.report(at, fmt::format("downtime_s = \"{}\": expected a number >= 0", f[2]));
    } else {
      log.events.push_back({*t, static_cast<std::int32_t>(*node), *down});
      log.nodes = std::max(log.nodes, *node + 1);  // 64-bit: node 2^31 - 1 gives 2^31 nodes
    }
  }
  text::finish(log, file);
  return log;
}

TraceLog read_trace_csv(const std::filesystem::path& file, bool stop_on_bad) {
  return parse_trace_csv(text::read_log(file), file.string(), stop_on_bad);
}

}  // namespace faultsweep::failures

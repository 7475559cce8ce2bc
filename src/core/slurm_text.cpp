#include "faultsweep/core/slurm_text.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>

#include <fmt/format.h>

namespace faultsweep::slurm {
namespace {

bool equals_nocase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// Exactly `width` digits at s[pos] (width 0: one or more, at most 9) into `out`.
bool digits(std::string_view s, std::size_t& pos, std::size_t width, std::int64_t& out) {
  const std::size_t begin = pos;
  out = 0;
  while (pos < s.size() && is_digit(s[pos]) && (width == 0 || pos - begin < width)) {
    if (pos - begin >= 9) return false;  // keeps out far from overflow
    out = out * 10 + (s[pos] - '0');
    ++pos;
  }
  return pos > begin && (width == 0 || pos - begin == width);
}

bool expect(std::string_view s, std::size_t& pos, char c) {
  if (pos >= s.size() || s[pos] != c) return false;
  ++pos;
  return true;
}

// Days from 1970-01-01 to y-m-d (proleptic Gregorian; H. Hinnant's days_from_civil).
std::int64_t days_from_civil(std::int64_t y, std::int64_t m, std::int64_t d) {
  y -= m <= 2;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const std::int64_t yoe = y - era * 400;
  const std::int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const std::int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

int days_in_month(std::int64_t y, std::int64_t m) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  return m == 2 && leap ? 29 : kDays[m - 1];
}

}  // namespace

std::optional<double> parse_utc_offset(std::string_view t) {
  if (t.size() >= 3 && equals_nocase(t.substr(0, 3), "UTC")) t.remove_prefix(3);
  if (t.empty() || equals_nocase(t, "Z")) return 0.0;
  if (t.front() != '+' && t.front() != '-') return std::nullopt;
  const double sign = t.front() == '-' ? -1 : 1;
  std::size_t pos = 1;
  std::int64_t h = 0, m = 0;
  if (!digits(t, pos, 2, h)) return std::nullopt;
  // "+01", "+01:00" or strftime's %z form "+0100".
  const bool colon = pos < t.size() && t[pos] == ':';
  if (colon) ++pos;
  if ((colon || pos < t.size()) && !digits(t, pos, 2, m)) return std::nullopt;
  if (pos != t.size() || h > 14 || m > 59) return std::nullopt;
  return sign * static_cast<double>(h * 3600 + m * 60);
}

bool is_no_time(std::string_view t) {
  return t.empty() || equals_nocase(t, "Unknown") || equals_nocase(t, "None");
}

std::optional<double> parse_time(std::string_view s, double utc_offset_s) {
  std::size_t pos = 0;
  std::int64_t y = 0, mo = 0, d = 0, h = 0, mi = 0, se = 0;
  if (!digits(s, pos, 4, y) || !expect(s, pos, '-') || !digits(s, pos, 2, mo) ||
      !expect(s, pos, '-') || !digits(s, pos, 2, d))
    return std::nullopt;
  if (pos >= s.size() || (s[pos] != 'T' && s[pos] != ' ')) return std::nullopt;
  ++pos;
  if (!digits(s, pos, 2, h) || !expect(s, pos, ':') || !digits(s, pos, 2, mi) ||
      !expect(s, pos, ':') || !digits(s, pos, 2, se))
    return std::nullopt;
  // A zone printed with the time (SLURM_TIME_FORMAT="%FT%T%z": "+0100"; or "Z", "+01:00") is
  // that time's own offset and wins over the reader's utc_offset, so a dump across a
  // daylight-saving change reads right.
  if (pos != s.size()) {
    const auto own = parse_utc_offset(s.substr(pos));
    if (!own || (s[pos] != 'Z' && s[pos] != '+' && s[pos] != '-')) return std::nullopt;
    utc_offset_s = *own;
  }
  if (y < 1900 || mo < 1 || mo > 12 || d < 1 || d > days_in_month(y, mo) || h > 23 || mi > 59 ||
      se > 59)
    return std::nullopt;
  const std::int64_t civil = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + se;
  return static_cast<double>(civil) - utc_offset_s;
}

std::optional<Duration> parse_duration(std::string_view s) {
  if (equals_nocase(s, "UNLIMITED")) return Duration{Duration::Kind::unlimited, 0};
  if (equals_nocase(s, "Partition_Limit")) return Duration{Duration::Kind::partition_limit, 0};
  if (equals_nocase(s, "INVALID")) return Duration{Duration::Kind::invalid, 0};
  // Slurm's forms: "M", "M:S", "H:M:S", "D-H", "D-H:M", "D-H:M:S".
  std::size_t pos = 0;
  std::int64_t days = 0;
  const auto dash = s.find('-');
  if (dash != std::string_view::npos) {
    if (!digits(s, pos, 0, days) || !expect(s, pos, '-')) return std::nullopt;
  }
  std::int64_t part[3] = {0, 0, 0};
  int n = 0;
  while (true) {
    if (n == 3 || !digits(s, pos, 0, part[n])) return std::nullopt;
    ++n;
    if (pos == s.size()) break;
    if (!expect(s, pos, ':')) return std::nullopt;
  }
  std::int64_t h = 0, m = 0, sec = 0;
  if (dash != std::string_view::npos) {
    h = part[0], m = n > 1 ? part[1] : 0, sec = n > 2 ? part[2] : 0;
  } else if (n == 1) {
    m = part[0];
  } else if (n == 2) {
    m = part[0], sec = part[1];
  } else {
    h = part[0], m = part[1], sec = part[2];
  }
  // Slurm prints fields below their carry ("1-02:03:04"); a minute count of its own ("90") is
  // accepted as it is on input.
  const bool carried = dash != std::string_view::npos || n > 1;
  if (carried &&
      ((n > 1 && sec > 59) || (n == 3 && m > 59) || (dash != std::string_view::npos && h > 23)))
    return std::nullopt;
  return Duration{Duration::Kind::seconds,
                  static_cast<double>(((days * 24 + h) * 60 + m) * 60 + sec)};
}

std::optional<std::vector<std::string>> expand_hostlist(std::string_view text, std::string& why,
                                                        std::size_t max_names) {
  std::vector<std::string> out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    // One host expression up to a comma outside brackets: literal text and [ranges] groups.
    std::vector<std::string> partial = {""};
    while (pos < text.size() && text[pos] != ',') {
      if (text[pos] == ']') {
        why = fmt::format("a ']' without its '[' at character {}", pos + 1);
        return std::nullopt;
      }
      if (text[pos] != '[') {
        for (std::string& p : partial) p += text[pos];
        ++pos;
        continue;
      }
      const auto close = text.find(']', pos);
      if (close == std::string_view::npos) {
        why = fmt::format("a '[' without its ']' at character {}", pos + 1);
        return std::nullopt;
      }
      const std::string_view group = text.substr(pos + 1, close - pos - 1);
      std::vector<std::string> items;
      std::size_t g = 0;
      while (g <= group.size()) {
        const auto comma = std::min(group.find(',', g), group.size());
        const std::string_view range = group.substr(g, comma - g);
        const auto dash = range.find('-');
        const std::string_view lo_text = range.substr(0, dash);
        const std::string_view hi_text =
            dash == std::string_view::npos ? lo_text : range.substr(dash + 1);
        std::int64_t lo = 0, hi = 0;
        std::size_t p1 = 0, p2 = 0;
        if (!digits(lo_text, p1, 0, lo) || p1 != lo_text.size() || !digits(hi_text, p2, 0, hi) ||
            p2 != hi_text.size()) {
          why = fmt::format("\"{}\" in [{}] is not a number or a range a-b", range, group);
          return std::nullopt;
        }
        if (hi < lo) {
          why = fmt::format("range \"{}\" ends below its start", range);
          return std::nullopt;
        }
        if (static_cast<std::size_t>(hi - lo) >= max_names) {
          why = fmt::format("range \"{}\" names more than {} nodes", range, max_names);
          return std::nullopt;
        }
        // The group's ranges together, before any is expanded (each alone may be below it).
        if (items.size() + static_cast<std::size_t>(hi - lo) >= max_names) {
          why = fmt::format("the ranges of [{}] name more than {} nodes", group, max_names);
          return std::nullopt;
        }
        // Zero padding as written: "001-004" is three digits wide.
        for (std::int64_t v = lo; v <= hi; ++v)
          items.push_back(fmt::format("{:0{}}", v, lo_text.size()));
        g = comma + 1;
      }
      if (partial.size() * items.size() > max_names) {
        why = fmt::format("more than {} nodes", max_names);
        return std::nullopt;
      }
      std::vector<std::string> next;
      next.reserve(partial.size() * items.size());
      for (const std::string& p : partial)
        for (const std::string& i : items) next.push_back(p + i);
      partial = std::move(next);
      pos = close + 1;
    }
    for (std::string& p : partial) {
      if (p.empty()) {
        why = "an empty host name";
        return std::nullopt;
      }
      out.push_back(std::move(p));
    }
    if (out.size() > max_names) {
      why = fmt::format("more than {} nodes", max_names);
      return std::nullopt;
    }
    if (pos < text.size()) {
      ++pos;  // the comma
      if (pos == text.size()) {
        why = "an empty host name after the last comma";
        return std::nullopt;
      }
    }
  }
  if (out.empty()) {
    why = "no host name";
    return std::nullopt;
  }
  return out;
}

std::optional<std::int64_t> tres_count(std::string_view tres, std::string_view key) {
  std::size_t pos = 0;
  while (pos < tres.size()) {
    const auto comma = std::min(tres.find(',', pos), tres.size());
    const std::string_view item = tres.substr(pos, comma - pos);
    if (item.size() > key.size() && item.substr(0, key.size()) == key && item[key.size()] == '=') {
      std::int64_t v = 0;
      const std::string_view n = item.substr(key.size() + 1);
      const auto [end, ec] = std::from_chars(n.data(), n.data() + n.size(), v);
      if (ec != std::errc() || end != n.data() + n.size()) return std::nullopt;
      return v;
    }
    pos = comma + 1;
  }
  return 0;
}

bool in_list(std::string_view field, const std::vector<std::string>& names) {
  std::size_t pos = 0;
  while (pos <= field.size()) {
    const auto comma = std::min(field.find(',', pos), field.size());
    if (std::find(names.begin(), names.end(), field.substr(pos, comma - pos)) != names.end())
      return true;
    pos = comma + 1;
  }
  return false;
}

bool node_name_less(std::string_view a, std::string_view b) {
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (is_digit(a[i]) && is_digit(b[j])) {
      std::size_t ie = i, je = j;
      while (ie < a.size() && is_digit(a[ie])) ++ie;
      while (je < b.size() && is_digit(b[je])) ++je;
      // Compare the numbers without leading zeros by length, then digit by digit.
      std::size_t i0 = i, j0 = j;
      while (i0 + 1 < ie && a[i0] == '0') ++i0;
      while (j0 + 1 < je && b[j0] == '0') ++j0;
      const std::string_view na = a.substr(i0, ie - i0), nb = b.substr(j0, je - j0);
      if (na.size() != nb.size()) return na.size() < nb.size();
      if (na != nb) return na < nb;
      if (ie - i != je - j) return ie - i > je - j;  // "02" before "2"
      i = ie, j = je;
      continue;
    }
    if (a[i] != b[j]) return a[i] < b[j];
    ++i, ++j;
  }
  return a.size() - i < b.size() - j;
}

}  // namespace faultsweep::slurm

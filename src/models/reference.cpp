#include "faultsweep/models/reference.hpp"

#include <algorithm>
#include <cmath>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include <fmt/format.h>

#include "faultsweep/dist/law_registry.hpp"

namespace faultsweep::models {
namespace {

std::string_view kind_name(ParamKind k) {
  switch (k) {
    case ParamKind::integer:
      return "integer";
    case ParamKind::real:
      return "number";
    case ParamKind::duration:
      return "duration";
    case ParamKind::string:
      return "string";
    case ParamKind::boolean:
      return "boolean";
    case ParamKind::dist:
      return "distribution table";
    case ParamKind::path:
      return "path";
    case ParamKind::table:
      return "table";
  }
  return "?";
}

// --- what both forms print: sections of keys, walked once ---

// One block of keys: the model's own keys (table empty), a table's common sub-keys (no
// selectors), or the keys one choice of a selector adds (selectors: the choices leading to it,
// e.g. process = "trace", format = "lanl").
struct Section {
  std::string table;
  std::vector<std::pair<std::string, std::string>> selectors;
  std::string help;  // the choice's
  const std::vector<ParamSpec>* keys = nullptr;
};

// The sub-keys of a table key: declared by the key itself, or, for a distribution table, the
// `dist` selector of the law rows (dist/law_registry.hpp).
std::vector<ParamSpec> sub_keys(const ParamSpec& p) {
  if (p.kind == ParamKind::dist)
    return {dist::law_selector("the law (its keys below; durations take a unit)")};
  return p.keys;
}

// Per choice of each selector among `keys`, its section; nested selectors (a trace's format,
// a renewal's law) follow their choice. `parent` by value: `out` grows under it.
void choice_sections(const Section parent, const std::vector<ParamSpec>& keys,
                     std::vector<Section>& out) {
  for (const ParamSpec& k : keys)
    for (const ChoiceSpec& c : k.choice_keys) {
      Section s{parent.table, parent.selectors, c.help, &c.keys};
      s.selectors.emplace_back(k.name, c.name);
      out.push_back(s);
      choice_sections(s, c.keys, out);
    }
}

// Every section of a model: its keys, then per table key its sub-keys and their choices.
// `storage` owns the synthesised sub-key lists the sections point to.
std::vector<Section> sections(const Model& m, std::vector<std::vector<ParamSpec>>& storage) {
  std::vector<Section> out = {Section{"", {}, "", &m.params()}};
  storage.reserve(m.params().size());
  for (const ParamSpec& p : m.params()) {
    storage.push_back(sub_keys(p));
    if (storage.back().empty()) continue;
    out.push_back(Section{p.name, {}, "", &storage.back()});
    choice_sections(out.back(), storage.back(), out);
  }
  return out;
}

// `quote` around each name: "`" in Markdown, nothing in a terminal.
std::string range_of(const ParamSpec& p, std::string_view quote) {
  const std::string sep = fmt::format("{}, {}", quote, quote);
  if (!p.choices.empty())
    return fmt::format("one of {}{}{}", quote, fmt::join(p.choices, sep), quote);
  const bool lo = std::isfinite(p.min), hi = std::isfinite(p.max);
  if (lo && hi) return fmt::format("{} .. {}", p.min, p.max);
  if (lo) return fmt::format(">= {}", p.min);
  if (hi) return fmt::format("<= {}", p.max);
  if (!p.duration_keys.empty())
    return fmt::format("durations: {}{}{}", quote, fmt::join(p.duration_keys, sep), quote);
  return "";
}

// A number as its shortest text that reads back the same (0.05, not 0.050000000000000003),
// with ".0" when whole, as in a job file.
std::string value_text(const Value& v) {
  const auto* d = std::get_if<double>(&v);
  if (d == nullptr || !std::isfinite(*d)) return canonical_value(v);
  std::string s = fmt::format("{}", *d);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

// --- Markdown ---

// A table cell: no line breaks, '|' escaped.
std::string cell(std::string_view s) {
  std::string out;
  for (const char c : s) {
    if (c == '|')
      out += "\\|";
    else if (c == '\n')
      out += ' ';
    else
      out += c;
  }
  return out;
}

std::string default_of(const ParamSpec& p) {
  if (p.default_value) return "`" + value_text(*p.default_value) + "`";
  return p.optional ? "(optional)" : "**required**";
}

constexpr const char* kKeyHeader =
    "| key | type | unit | default | range / choices | meaning |\n"
    "|---|---|---|---|---|---|\n";

std::string key_rows(const std::vector<ParamSpec>& keys) {
  std::string s;
  for (const ParamSpec& p : keys)
    s += fmt::format("| `{}` | {} | {} | {} | {} | {} |\n", p.name, kind_name(p.kind),
                     p.unit.empty() ? "" : "`" + p.unit + "`", cell(default_of(p)),
                     cell(range_of(p, "`")), cell(p.help));
  return s;
}

std::string markdown_section(const Section& s) {
  if (s.selectors.empty())
    return fmt::format(
        "\n## Sub-keys of `{}`\n\nThe keys every `{}` table may hold; the sections below add "
        "the keys of each choice.\n\n{}{}",
        s.table, s.table, kKeyHeader, key_rows(*s.keys));
  std::string here;
  for (const auto& [key, choice] : s.selectors)
    here += fmt::format("{}`{} = \"{}\"`", here.empty() ? "" : ", ", key, choice);
  return fmt::format("\n### `{}` with {}\n\n{}.{}", s.table, here, cell(s.help),
                     s.keys->empty() ? " No keys of its own.\n"
                                     : "\n\n" + std::string(kKeyHeader) + key_rows(*s.keys));
}

// --- terminal ---

constexpr std::size_t kWidth = 100;

// `text` wrapped at word boundaries to kWidth columns: the first line after `first` (its own
// indentation included), the next ones indented by `indent`.
std::string wrapped(std::string_view text, std::string first, std::size_t indent) {
  std::string out, line = std::move(first);
  bool space = !line.empty() && line.back() != ' ';  // the next word needs a space before it
  bool words = false;                                // a word of `text` is on the line
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t end = std::min(text.find(' ', at), text.size());
    const std::string_view word = text.substr(at, end - at);
    at = end + 1;
    if (word.empty()) continue;
    if (words && line.size() + 1 + word.size() > kWidth) {
      out += line + "\n";
      line.assign(indent, ' ');
      space = false;
    }
    line += std::string(space ? " " : "") + std::string(word);
    space = words = true;
  }
  if (line.find_first_not_of(' ') == std::string::npos) return out;  // no text, no blank line
  return out + line + "\n";
}

std::string wrapped(std::string_view text, std::size_t indent) {
  return wrapped(text, std::string(indent, ' '), indent);
}

// "nodes      integer, required, 1 .. 16777216" (continued under the type if long) and its help,
// indented under it.
std::string text_key(const ParamSpec& p, std::size_t indent) {
  std::string head = std::string(kind_name(p.kind));
  if (!p.unit.empty()) head += fmt::format(" ({})", p.unit);
  head += p.default_value ? ", default " + value_text(*p.default_value)
          : p.optional    ? ", optional"
                          : ", required";
  const std::string range = range_of(p, "");
  if (!range.empty()) head += ", " + range;
  const std::string name = fmt::format("{}{:<22} ", std::string(indent, ' '), p.name);
  return wrapped(head, name, name.size()) + wrapped(p.help, indent + 4);
}

// A section's depth is its number of selectors: each choice indents its keys two more columns.
std::string text_section(const Section& s) {
  const std::size_t indent = 4 + 2 * s.selectors.size();
  std::string out;
  if (s.selectors.empty()) {
    out = s.table.empty()
              ? "  parameters:\n"
              : fmt::format("  sub-keys of {} (in axes: {}.<key>):\n", s.table, s.table);
  } else {
    std::string here;
    for (const auto& [key, choice] : s.selectors)
      here += fmt::format("{}{} = \"{}\"", here.empty() ? "" : ", ", key, choice);
    out = wrapped(fmt::format("{}{}", s.help, s.keys->empty() ? " (no keys)" : ""),
                  fmt::format("{}with {}:", std::string(indent - 2, ' '), here), indent + 2);
  }
  for (const ParamSpec& p : *s.keys) out += text_key(p, indent);
  return out;
}

}  // namespace

std::string reference_markdown(const Model& m) {
  std::string s = fmt::format(
      "# Model `{}`\n\n"
      "<!-- Generated by `faultsweep models {} --markdown`: do not edit by hand. -->\n\n"
      "{}\n\n{}\n\n## Keys (`[params]` or `[axes]` of a job file)\n\n"
      "Durations take a unit (`90s`, `5min`, `2h`, `3d`) or a number of seconds; a table key is "
      "an inline table whose sub-keys are named `key.sub` in axes.\n\n"
      "{}",
      m.name(), m.name(), cell(m.description()),
      m.deterministic() ? "Deterministic: one replica per point is enough."
                        : "Stochastic: replicas differ by their random streams.",
      kKeyHeader);
  std::vector<std::vector<ParamSpec>> storage;
  const std::vector<Section> all = sections(m, storage);
  s += key_rows(*all.front().keys);
  for (std::size_t i = 1; i < all.size(); ++i) s += markdown_section(all[i]);
  s += "\n## Metrics (`/results/<metric>` of the results file)\n\n"
       "| metric | unit | meaning |\n|---|---|---|\n";
  for (const MetricSpec& mt : m.metrics())
    s += fmt::format("| `{}` | `{}` | {} |\n", mt.name, mt.unit, cell(mt.description));
  return s;
}

std::string reference_text(const Model& m) {
  std::string s = fmt::format("{}{}\n", m.name(), m.deterministic() ? " (deterministic)" : "");
  s += wrapped(m.description(), 2);
  std::vector<std::vector<ParamSpec>> storage;
  for (const Section& sec : sections(m, storage)) s += text_section(sec);
  s += "  metrics:\n";
  for (const MetricSpec& mt : m.metrics())
    s += wrapped(mt.description, fmt::format("    {:<20} ({})", mt.name, mt.unit), 8);
  return s;
}

}  // namespace faultsweep::models

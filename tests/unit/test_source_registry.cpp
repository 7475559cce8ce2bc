// The registry rows of failure processes, trace formats, workload sources, speedup laws and the
// laws of a distribution table: the allowed keys, the "expected one of" of an error and the
// job-file reference are derived from them, so a row added or changed shows everywhere without a
// second list to edit.
#include <catch2/catch.hpp>

#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "faultsweep/core/error.hpp"
#include "faultsweep/dist/law_registry.hpp"
#include "faultsweep/failures/factory.hpp"
#include "faultsweep/failures/process_registry.hpp"
#include "faultsweep/models/reference.hpp"
#include "faultsweep/models/registry.hpp"
#include "faultsweep/workload/factory.hpp"
#include "faultsweep/workload/source_registry.hpp"

namespace {

using faultsweep::InputError;
using faultsweep::Params;
using faultsweep::ParamSpec;
using faultsweep::Value;

// The InputError of `f` as "key | expected" ("" if none is thrown).
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.key() + " | " + e.expected();
  }
  return "";
}

std::string names_of(const std::vector<ParamSpec>& keys) {
  std::string s;
  for (const ParamSpec& k : keys) s += (s.empty() ? "" : ", ") + k.name;
  return s;
}

std::string cluster_reference() {
  return faultsweep::models::reference_markdown(*faultsweep::models::find_model("cluster"));
}

}  // namespace

TEST_CASE("Failure processes: a row's keys are the keys its table allows", "[registry][failures]") {
  for (const auto& row : faultsweep::failures::failure_processes()) {
    if (row.allowed) continue;  // keys chosen by a selector (renewal's dist, a trace's format)
    Params t;
    t.set("process", Value(std::string(row.name)));
    t.set("no_such_key", Value(1.0));
    const std::string keys = row.keys ? names_of(row.keys()) : "";
    CHECK(error_of([&] { faultsweep::failures::validate_failures(t, 8, "."); }) ==
          "no_such_key | unknown key for process = \"" + std::string(row.name) +
              "\"; allowed keys: process" + (keys.empty() ? "" : ", " + keys));
  }
  // A trace's format row adds its keys after the common trace keys.
  Params trace;
  trace.set("process", Value(std::string("trace")));
  trace.set("format", Value(std::string("fta")));
  trace.set("system", Value(std::int64_t{20}));
  CHECK(error_of([&] { faultsweep::failures::validate_failures(trace, 8, "."); }) ==
        "system | unknown key for process = \"trace\"; allowed keys: process, file, format, "
        "node_offset, bad_lines, platform, node_prefix");
}

TEST_CASE("Failure processes: the errors' choices and the traits come from the rows",
          "[registry][failures]") {
  Params t;
  t.set("process", Value(std::string("poisson")));
  CHECK(error_of([&] { faultsweep::failures::validate_failures(t, 8, "."); }) ==
        "process | expected one of none, renewal, bathtub, zhang, trace");
  t.set("process", Value(std::string("trace")));
  t.set("file", Value(std::string("log.csv")));
  t.set("format", Value(std::string("swf")));
  CHECK(error_of([&] { faultsweep::failures::validate_failures(t, 8, "."); }) ==
        "format | expected one of lanl, csv, fta, pnnl, slurm");
  // A trace gives no failure rate for Young / Daly, is replayed whole and reads its file.
  CHECK(std::isnan(faultsweep::failures::failure_node_mtbf_s(t, 8)));
  CHECK(faultsweep::failures::failures_finite(t));
  CHECK(faultsweep::failures::failure_input_file(t, "/base") ==
        std::filesystem::path("/base/log.csv"));
  Params bathtub;
  bathtub.set("process", Value(std::string("bathtub")));
  bathtub.set("mtbf", Value(1e6));
  bathtub.set("downtime", Value(60.0));
  CHECK(faultsweep::failures::failure_node_mtbf_s(bathtub, 8) == 1e6);
  CHECK_FALSE(faultsweep::failures::failures_finite(bathtub));
  CHECK_FALSE(faultsweep::failures::failure_input_file(bathtub, "/base"));
  Params none;
  none.set("process", Value(std::string("none")));
  CHECK(std::isinf(faultsweep::failures::failure_node_mtbf_s(none, 8)));
}

TEST_CASE("Workload sources: a row's keys are the keys its table allows", "[registry][workload]") {
  for (const auto& row : faultsweep::workload::workload_sources()) {
    Params t;
    t.set("source", Value(std::string(row.name)));
    t.set("no_such_key", Value(1.0));
    const std::string message = error_of([&] { faultsweep::workload::validate_workload(t, "."); });
    CHECK_THAT(message, Catch::StartsWith("no_such_key | a key of a \"" + std::string(row.name) +
                                          "\" workload: source, "));
    CHECK_THAT(message, Catch::EndsWith(names_of(row.keys())));
  }
  Params t;
  t.set("source", Value(std::string("fars")));
  t.set("speedup", Value(std::string("linear")));
  t.set("serial_fraction", Value(0.1));
  CHECK(error_of([&] { faultsweep::workload::validate_workload(t, "."); }) ==
        "serial_fraction | only with speedup = \"amdahl\" or \"gustafson\"");
  t.set("speedup", Value(std::string("cubic")));
  CHECK(error_of([&] { faultsweep::workload::validate_workload(t, "."); }) ==
        "speedup | one of \"amdahl\", \"linear\", \"gustafson\"");
}

TEST_CASE("the law rows give each law's keys, including dist", "[registry][dist]") {
  using V = std::vector<std::string>;
  const auto keys_of = [](std::string_view name) {
    const faultsweep::dist::LawRow* law = faultsweep::dist::find_law(name);
    REQUIRE(law != nullptr);
    return faultsweep::dist::law_table_keys(*law);
  };
  CHECK(keys_of("exponential") == V{"dist", "mean", "rate"});
  CHECK(keys_of("weibull") == V{"dist", "mean", "scale", "shape"});
  CHECK(keys_of("lognormal") == V{"dist", "mean", "mu", "sigma"});
  CHECK(keys_of("constant") == V{"dist", "value"});
  CHECK(faultsweep::dist::find_law("gamma") == nullptr);

  SECTION("the dist selector lists every law with its keys, durations in seconds") {
    const ParamSpec sel = faultsweep::dist::law_selector("law");
    CHECK(sel.choices == V{"exponential", "weibull", "lognormal", "constant"});
    REQUIRE(sel.choice_keys.size() == 4);
    for (const auto& c : sel.choice_keys)
      for (const ParamSpec& k : c.keys) {
        INFO(c.name << "." << k.name);
        CHECK_FALSE(k.help.empty());
        CHECK((k.kind == faultsweep::ParamKind::duration) == (k.unit == "s"));
      }
  }
}

TEST_CASE("Duration sub-keys are derived from the rows' keys", "[registry]") {
  const auto& f = faultsweep::failures::failure_duration_keys();
  CHECK(std::set<std::string>(f.begin(), f.end()) ==
        std::set<std::string>{"downtime", "mean", "mtbf", "scale", "value"});
  CHECK(faultsweep::workload::workload_duration_keys() ==
        std::vector<std::string>{"mean_interarrival", "mean_runtime", "runtime_mean1",
                                 "runtime_mean2", "long_bound", "inject_long_runtime",
                                 "submit_all_at"});
}

TEST_CASE("The cluster reference lists every row and its keys", "[registry][reference]") {
  const std::string ref = cluster_reference();
  auto section = [&](const std::string& heading) {
    const auto at = ref.find(heading);
    REQUIRE(at != std::string::npos);
    return ref.substr(at, ref.find("\n##", at + 1) - at);
  };
  for (const auto& row : faultsweep::failures::failure_processes()) {
    const std::string s = section("### `failures` with `process = \"" + std::string(row.name));
    if (row.keys)
      for (const ParamSpec& k : row.keys()) CHECK_THAT(s, Catch::Contains("| `" + k.name + "` |"));
  }
  for (const auto& row : faultsweep::failures::trace_formats())
    CHECK_THAT(ref, Catch::Contains("`process = \"trace\"`, `format = \"" + std::string(row.name)));
  for (const auto& law : faultsweep::dist::laws()) {
    const std::string s = section("### `failures` with `process = \"renewal\"`, `dist = \"" +
                                  std::string(law.name) + "\"`");
    for (const ParamSpec& k : law.keys()) CHECK_THAT(s, Catch::Contains("| `" + k.name + "` |"));
  }
  for (const auto& row : faultsweep::workload::workload_sources()) {
    const std::string s = section("### `workload` with `source = \"" + std::string(row.name));
    for (const ParamSpec& k : row.keys()) CHECK_THAT(s, Catch::Contains("| `" + k.name + "` |"));
  }
  for (const auto& row : faultsweep::workload::speedup_laws())
    CHECK_THAT(ref, Catch::Contains("### `workload` with `speedup = \"" + std::string(row.name)));
  // Types, units, defaults and ranges, e.g. Zhang's window and a pnnl downtime.
  CHECK_THAT(ref, Catch::Contains("| `W` | integer |  | `2` | 1 .. 16777216 |"));
  CHECK_THAT(ref, Catch::Contains("| `mean_interarrival` | duration | `s` | `770.7` | >= 0 |"));
}

namespace {

// The lines of `text` from the first that starts with `heading` (after indentation) up to the
// next line indented no deeper than it.
std::string block(const std::string& text, const std::string& heading) {
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    const std::size_t start = text.find_first_not_of(' ', at);
    if (start < end && text.compare(start, heading.size(), heading) == 0) {
      const std::size_t depth = start - at;
      std::size_t stop = end;
      while (stop < text.size()) {
        const std::size_t next = text.find_first_not_of(' ', stop + 1);
        if (next == std::string::npos || next - (stop + 1) <= depth) break;
        stop = std::min(text.find('\n', stop + 1), text.size());
      }
      return text.substr(at, stop - at);
    }
    at = end + 1;
  }
  return "";
}

// Some line of `text` starts with `name` (after indentation) and a space.
bool has_key_line(const std::string& text, const std::string& name) {
  for (std::size_t at = 0; at < text.size(); at = text.find('\n', at) + 1) {
    const std::size_t start = text.find_first_not_of(' ', at);
    if (start != std::string::npos && text.compare(start, name.size() + 1, name + " ") == 0)
      return true;
    if (text.find('\n', at) == std::string::npos) break;
  }
  return false;
}

// Each key of `keys` starts a line of `text`, and each choice of a selector among them heads
// a block (`with a = "x", b = "y":`) listing the choice's keys; nested choices likewise.
void check_lists(const std::string& text, const std::vector<ParamSpec>& keys,
                 const std::string& selectors) {
  for (const ParamSpec& k : keys) {
    INFO("key " << k.name << " under [" << selectors << "]");
    CHECK(has_key_line(text, k.name));
    for (const auto& c : k.choice_keys) {
      const std::string here =
          selectors + (selectors.empty() ? "" : ", ") + k.name + " = \"" + c.name + "\"";
      const std::string b = block(text, "with " + here + ":");
      INFO("choice " << here);
      CHECK_FALSE(b.empty());
      check_lists(b, c.keys, here);
    }
  }
}

}  // namespace

TEST_CASE("The plain reference lists every sub-key and choice of every model",
          "[registry][reference]") {
  for (const auto* m : faultsweep::models::all_models()) {
    INFO("model " << m->name());
    const std::string text = faultsweep::models::reference_text(*m);
    check_lists(text, m->params(), "");
    for (const ParamSpec& p : m->params()) {
      if (p.keys.empty()) continue;
      const std::string b = block(text, "sub-keys of " + p.name + " ");
      CHECK_FALSE(b.empty());
      check_lists(b, p.keys, "");
    }
  }
  // A renewal's law keys, with type, unit and requirement, under the process and the law.
  const std::string cluster =
      faultsweep::models::reference_text(*faultsweep::models::find_model("cluster"));
  const std::string weibull = block(cluster, "with process = \"renewal\", dist = \"weibull\":");
  CHECK_THAT(weibull, Catch::Contains("shape                  number, required"));
  CHECK_THAT(weibull, Catch::Contains("scale                  duration (s), optional"));
  CHECK_THAT(block(cluster, "with process = \"trace\", format = \"lanl\":"),
             Catch::Contains("system "));
  CHECK_THAT(block(cluster, "with source = \"lublin\":"), Catch::Contains("runtime_mean2 "));
}

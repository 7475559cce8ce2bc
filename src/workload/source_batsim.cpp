// source = "batsim": a Batsim JSON workload (workload/batsim.hpp says what is read and how),
// parsed once per file and machine size, like SWF.
#include "faultsweep/workload/batsim.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>
#include <system_error>

#include "faultsweep/core/error.hpp"
#include "faultsweep/workload/source_registry.hpp"

namespace faultsweep::workload {
namespace {

using nlohmann::json;

// obj[key], or null when obj is not an object or has no such key (no copy).
const json& field(const json& obj, const std::string& key) {
  static const json null;
  const auto it = obj.find(key);
  return it == obj.end() ? null : *it;
}

std::string batsim_file(const TableReader& t) {
  if (!t.has("file")) throw InputError("file", "(missing)", "the path of a Batsim JSON workload");
  const auto* s = std::get_if<std::string>(&t.table().at("file"));
  if (!s || s->empty()) throw InputError("file", t.text("file"), "a path string");
  return *s;
}

// A value as an error message shows it: a number, a string of at most 60 characters, or the
// kind and size of an array or object (never their contents, which may be the whole file).
std::string shown(const json& v) {
  if (v.is_null()) return "(missing)";
  if (v.is_array()) return fmt::format("an array of {} values", v.size());
  if (v.is_object()) return fmt::format("an object of {} keys", v.size());
  const std::string text = v.dump(-1, ' ', false, json::error_handler_t::replace);
  return text.size() <= 60 ? text : text.substr(0, 57) + "...";
}

// Where in the file an error is: "w.json: job "7" (jobs[3])".
struct JobPlace {
  const std::string& file;
  std::size_t index;
  std::string id;
  [[noreturn]] void fail(const std::string& field, const json& value,
                         const std::string& expected) const {
    throw InputError(fmt::format("{}: job {} (jobs[{}]): {} = {}: {}", file, id, index, field,
                                 shown(value), expected));
  }
};

// A number (finite: the parser refuses a literal beyond a double's range).
double number(const json& job, const char* key, const JobPlace& at) {
  const json& v = field(job, key);
  if (!v.is_number()) at.fail(key, v, "a number");
  return v.get<double>();
}

// The job's run time from its profile; refuses every profile type but delay.
double delay_of(const json& profiles, const json& job, const JobPlace& at) {
  const json& name = field(job, "profile");
  if (!name.is_string()) at.fail("profile", name, "the name of a profile (a string)");
  const auto p = profiles.find(name.get<std::string>());
  if (p == profiles.end()) at.fail("profile", name, "a profile of the file's \"profiles\"");
  const json& type = field(*p, "type");
  if (!type.is_string()) at.fail("profile " + shown(name) + " type", type, "a string");
  const std::string t = type.get<std::string>();
  if (t != "delay" && t != "DelayProfile")
    at.fail("profile " + shown(name) + " type", type,
            "a delay profile (\"delay\" or \"DelayProfile\"): other types need Batsim's "
            "platform model");
  const json& d = field(*p, "delay");
  if (!d.is_number() || d.get<double>() > kMaxJobTimeS)
    at.fail("profile " + shown(name) + " delay", d,
            fmt::format("a number of seconds, at most {}", kMaxJobTimeText));
  return d.get<double>();
}

}  // namespace

BatsimWorkload parse_batsim(std::string_view text, const std::string& file, int nodes) {
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::exception& e) {
    // e.what() is "[json.exception.parse_error.101] parse error at line 3, column 9: ..." or,
    // for a number beyond a double's range, "[json.exception.out_of_range.406] number
    // overflow parsing '1e999'".
    const std::string what = e.what();
    const auto cut = what.find("] ");
    throw InputError(fmt::format("{}: not valid JSON: {}", file,
                                 cut == std::string::npos ? what : what.substr(cut + 2)));
  }
  if (!doc.is_object()) throw InputError(file + ": a Batsim workload is a JSON object");
  const auto top = [&](const char* key, auto ok, const char* expected) -> const json& {
    const json& v = field(doc, key);
    if (!ok(v)) throw InputError(fmt::format("{}: {} = {}: {}", file, key, shown(v), expected));
    return v;
  };
  // Unsigned integers above int64's range read as negative: they fail the range test too.
  const json& nb = top(
      "nb_res",
      [](const json& v) {
        return v.is_number_integer() && v.get<std::int64_t>() >= 1 &&
               v.get<std::int64_t>() <= std::numeric_limits<std::int32_t>::max();
      },
      "an integer from 1 to 2^31 - 1");
  const json& jobs = top(
      "jobs", [](const json& v) { return v.is_array(); }, "an array of jobs");
  const json& profiles = top(
      "profiles", [](const json& v) { return v.is_object(); }, "an object of named profiles");

  BatsimWorkload t;
  Workload& w = t.workload;
  ReadStats& st = w.stats;
  w.machine_nodes = nodes > 0 ? nodes : static_cast<std::int32_t>(nb.get<std::int64_t>());
  std::map<std::string, std::size_t> seen;  // id -> index, for duplicates
  std::vector<std::string> ids;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const json& job = jobs[i];
    ++st.lines;
    const json& idv = field(job, "id");
    JobPlace at{file, i, idv.is_null() ? "(no id)" : shown(idv)};
    if (!job.is_object()) at.fail("job", job, "an object");
    if (!idv.is_string() && !idv.is_number_integer()) at.fail("id", idv, "a string or an integer");
    const std::string id = idv.is_string() ? idv.get<std::string>() : idv.dump();
    if (const auto [it, fresh] = seen.emplace(id, i); !fresh)
      at.fail("id", idv, fmt::format("unique (jobs[{}] has it too)", it->second));
    const double sub = number(job, "subtime", at);
    if (!(sub >= 0) || sub > kMaxJobTimeS)
      at.fail("subtime", job.at("subtime"), fmt::format("a time from 0 to {}", kMaxJobTimeText));
    const json& res = field(job, "res");
    if (!res.is_number_integer() || res.get<std::int64_t>() < 1)
      at.fail("res", res, "an integer >= 1 (resources)");
    // No walltime, null or -1 (Batsim 4's "none"): no limit; Batsim 5 wants it > 0.
    double walltime = -1;
    if (!field(job, "walltime").is_null()) {
      walltime = number(job, "walltime", at);
      if ((!(walltime > 0) && walltime != -1) || walltime > kMaxJobTimeS)
        at.fail("walltime", job.at("walltime"),
                fmt::format("a time > 0 and at most {}, or -1 for none", kMaxJobTimeText));
    }
    const double delay = delay_of(profiles, job, at);
    if (!(delay > 0)) {
      ++st.no_runtime;
      continue;
    }
    if (res.get<std::int64_t>() > w.machine_nodes) {
      ++st.too_large;
      continue;
    }
    Job j;
    j.submit_s = sub;
    j.runtime_s = delay;
    j.size = static_cast<std::int32_t>(res.get<std::int64_t>());
    j.estimate_s = walltime < 0 ? delay : walltime;
    st.estimate_fixed += walltime < 0;
    if (walltime > 0 && walltime < delay) {
      j.runtime_s = walltime;
      ++t.walltime_cut;
    }
    ids.push_back(id);
    w.jobs.push_back(j);
  }
  // Numeric ids are kept (Batsim's output names jobs by them); any other string id numbers
  // every job by its place in the file instead.
  for (const std::string& id : ids)
    if (id.empty() || id.find_first_not_of("0123456789") != std::string::npos || id.size() > 18)
      t.renumbered = true;
  for (std::size_t k = 0; k < w.jobs.size(); ++k)
    w.jobs[k].id = t.renumbered ? static_cast<std::int64_t>(k + 1) : std::stoll(ids[k]);
  std::stable_sort(w.jobs.begin(), w.jobs.end(), [](const Job& a, const Job& b) {
    return a.submit_s != b.submit_s ? a.submit_s < b.submit_s : a.id < b.id;
  });
  st.jobs = static_cast<std::int64_t>(w.jobs.size());
  if (w.jobs.empty())
    throw InputError("file", "\"" + file + "\"",
                     fmt::format("no usable jobs in the Batsim workload ({})", st.summary()));
  if (t.walltime_cut > 0)
    w.notes.push_back(
        fmt::format("{} jobs with a walltime below their delay run until the "
                    "walltime (Batsim stops them there)",
                    t.walltime_cut));
  if (t.renumbered)
    w.notes.push_back("job ids are not all numbers: jobs numbered 1.. in file order");
  return t;
}

BatsimWorkload read_batsim(const std::filesystem::path& path, int nodes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(fmt::format("{}: cannot open the Batsim workload", path.string()));
  std::ostringstream text;
  text << in.rdbuf();
  return parse_batsim(text.str(), path.string(), nodes);
}

namespace {

std::shared_ptr<const BatsimWorkload> cached_batsim(const std::filesystem::path& path, int nodes) {
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const BatsimWorkload>> cache;
  std::error_code ec;
  const auto abs = std::filesystem::weakly_canonical(path, ec);
  const auto mtime = std::filesystem::last_write_time(path, ec);
  const std::string key =
      fmt::format("{}|{}|{}", (ec ? path : abs).string(), nodes, mtime.time_since_epoch().count());
  const std::lock_guard<std::mutex> lock(mutex);  // one parse for all replicas waiting on it
  auto it = cache.find(key);
  if (it == cache.end())
    it = cache.emplace(key, std::make_shared<const BatsimWorkload>(read_batsim(path, nodes))).first;
  return it->second;
}

std::vector<ParamSpec> batsim_keys() {
  return {make_param("file", ParamKind::path, "", std::nullopt,
                     "the Batsim JSON workload, relative to the job file's folder")};
}

void validate_batsim(const TableReader& r, const std::filesystem::path& base_dir) {
  const std::string file = batsim_file(r);
  const std::filesystem::path p(file);
  const auto full = p.is_absolute() ? p : base_dir / p;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(full, ec))
    throw InputError("file", "\"" + file + "\"",
                     fmt::format("an existing Batsim workload (looked for {})", full.string()));
}

Workload make_batsim(const TableReader& r, int nodes, const std::string&, const RunContext& ctx) {
  return cached_batsim(ctx.resolve(batsim_file(r)), nodes)->workload;
}

std::optional<InputReading> batsim_reading_of(const TableReader& r, int nodes,
                                              const std::filesystem::path& base_dir) {
  RunContext ctx;
  ctx.base_dir = base_dir;
  const std::filesystem::path path = ctx.resolve(batsim_file(r));
  const auto t = cached_batsim(path, nodes);
  auto counts = t->workload.stats.counts();
  counts.emplace_back("walltime_cut", t->walltime_cut);
  counts.emplace_back("ids_renumbered", t->renumbered ? 1 : 0);
  std::string summary = t->workload.stats.summary();
  for (const std::string& note : t->workload.notes) summary += "; " + note;
  return InputReading{path.lexically_normal(),
                      fmt::format("machine_nodes={}", t->workload.machine_nodes),
                      counts,
                      summary,
                      {}};
}

}  // namespace

SourceRow batsim_source() {
  SourceRow row{"batsim",
                "a Batsim JSON workload of delay profiles; the simulated machine's nodes replace "
                "nb_res (wider jobs are dropped and counted)",
                batsim_keys,
                validate_batsim,
                make_batsim,
                batsim_reading_of};
  row.traits.reads_file = true;
  return row;
}

}  // namespace faultsweep::workload

// source = "sacct": Slurm's job accounting as `sacct --parsable2` prints it
// (workload/sacct.hpp), parsed once per file and options and shared by every replica and point.
#include <map>
#include <memory>
#include <mutex>
#include <system_error>

#include <fmt/format.h>

#include "faultsweep/core/error.hpp"
#include "faultsweep/core/slurm_text.hpp"
#include "faultsweep/workload/sacct.hpp"
#include "faultsweep/workload/source_registry.hpp"

namespace faultsweep::workload {
namespace {

ParamSpec optional_key(std::string name, std::string help) {
  ParamSpec s = make_param(std::move(name), ParamKind::string, "", std::nullopt, std::move(help));
  s.optional = true;
  return s;
}

std::vector<ParamSpec> sacct_keys() {
  auto choice = [](std::string name, std::vector<std::string> choices, std::string help) {
    const std::string def = choices.front();
    return make_param(std::move(name), ParamKind::string, "", Value(def), std::move(help),
                      std::move(choices));
  };
  return {
      make_param("file", ParamKind::path, "", std::nullopt,
                 "the `sacct --parsable2` dump, relative to the job file's folder (plain, .gz, "
                 ".xz)"),
      choice("size", {"nodes", "cpus", "tres"},
             "a job's size: NNodes, NCPUS / procs_per_node, or the node= count of AllocTRES"),
      choice("submit", {"submit", "eligible"},
             "a job's submit time: Submit, or Eligible (holds and --begin times kept)"),
      choice("running", {"drop", "cut"},
             "a job still running at the dump: dropped, or cut at the dump time"),
      choice("bad_lines", {"skip", "fail"}, "a malformed record: skipped (counted) or an error"),
      make_param("procs_per_node", ParamKind::integer, "", Value(std::int64_t{1}),
                 "size = \"cpus\": CPUs per node (sizes are divided by it, rounded up)", {}, 1.0),
      make_param("utc_offset", ParamKind::string, "", Value(std::string("UTC")),
                 "the time zone of the dump's times: \"UTC\" or \"+HH:MM\" / \"-HH:MM\""),
      optional_key("partitions", "keep only jobs of these partitions (comma-separated)"),
      optional_key("start",
                   "\"YYYY-MM-DDTHH:MM:SS\": t = 0 there, jobs submitted before "
                   "dropped (default: the first kept job)"),
      optional_key("dump_time",
                   "\"YYYY-MM-DDTHH:MM:SS\": when the dump was taken (running = \"cut\"; "
                   "default: Elapsed, else the file's latest time)")};
}

std::optional<double> time_key(const TableReader& t, const std::string& key, double offset) {
  const auto s = t.string(key);
  if (!s) return std::nullopt;
  const auto v = slurm::parse_time(*s, offset);
  if (!v) throw InputError(key, t.text(key), "a time \"YYYY-MM-DDTHH:MM:SS\"");
  return v;
}

SacctOptions sacct_options(const TableReader& t, int nodes) {
  SacctOptions o;
  const std::string size = t.choice_or("size", "nodes", {"nodes", "cpus", "tres"});
  o.size = size == "nodes" ? SacctSize::nodes : size == "cpus" ? SacctSize::cpus : SacctSize::tres;
  o.submit = t.choice_or("submit", "submit", {"submit", "eligible"}) == "submit"
                 ? SacctSubmit::submit
                 : SacctSubmit::eligible;
  o.running = t.choice_or("running", "drop", {"drop", "cut"}) == "drop" ? SacctRunning::drop
                                                                        : SacctRunning::cut;
  o.bad_lines = t.choice_or("bad_lines", "skip", {"skip", "fail"}) == "skip" ? BadLines::skip
                                                                             : BadLines::fail;
  o.procs_per_node = static_cast<std::int32_t>(t.integer_or("procs_per_node", 1, 1));
  const std::string zone = t.string("utc_offset").value_or("UTC");
  const auto offset = slurm::parse_utc_offset(zone);
  if (!offset) throw InputError("utc_offset", t.text("utc_offset"), "\"UTC\" or \"+HH:MM\"");
  o.utc_offset_s = *offset;
  if (const auto parts = t.string("partitions")) {
    std::string item;
    for (const char ch : *parts + ",") {
      if (ch != ',') {
        if (ch != ' ') item += ch;
        continue;
      }
      if (item.empty())
        throw InputError("partitions", t.text("partitions"), "a comma-separated list of names");
      o.partitions.push_back(std::move(item));
      item.clear();
    }
  }
  o.start_unix_s = time_key(t, "start", o.utc_offset_s);
  o.dump_unix_s = time_key(t, "dump_time", o.utc_offset_s);
  o.machine_nodes = nodes > 0 ? nodes : 0;
  return o;
}

std::string sacct_file(const TableReader& t) {
  const auto s = t.string("file");
  if (!s || s->empty()) throw InputError("file", t.text("file"), "the path of an sacct dump");
  return *s;
}

// Parsed dumps, shared by every replica and point in the process (read-only once inserted).
std::shared_ptr<const SacctWorkload> cached_dump(const std::filesystem::path& path,
                                                 const SacctOptions& opt) {
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const SacctWorkload>> cache;
  std::error_code ec;
  const auto abs = std::filesystem::weakly_canonical(path, ec);
  const auto mtime = std::filesystem::last_write_time(path, ec);
  const std::string key = fmt::format("{}|{}|{}", (ec ? path : abs).string(), opt.key(),
                                      mtime.time_since_epoch().count());
  const std::lock_guard<std::mutex> lock(mutex);  // one parse, the other replicas wait for it
  auto it = cache.find(key);
  if (it == cache.end())
    it = cache.emplace(key, std::make_shared<const SacctWorkload>(read_sacct(path, opt))).first;
  return it->second;
}

void validate_sacct(const TableReader& r, const std::filesystem::path& base_dir) {
  (void)sacct_options(r, 0);
  const std::filesystem::path p(sacct_file(r));
  const auto full = p.is_absolute() ? p : base_dir / p;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(full, ec))
    throw InputError("file", "\"" + p.string() + "\"",
                     fmt::format("an existing sacct dump (looked for {})", full.string()));
}

Workload make_sacct(const TableReader& r, int nodes, const std::string&, const RunContext& ctx) {
  return cached_dump(ctx.resolve(sacct_file(r)), sacct_options(r, nodes))->workload;
}

std::optional<InputReading> sacct_reading_of(const TableReader& r, int nodes,
                                             const std::filesystem::path& base_dir) {
  RunContext ctx;
  ctx.base_dir = base_dir;
  const SacctOptions opt = sacct_options(r, nodes);
  const std::filesystem::path path = ctx.resolve(sacct_file(r));
  const auto dump = cached_dump(path, opt);
  return InputReading{
      path.lexically_normal(), opt.key(), dump->stats.counts(), dump->stats.summary(), {}};
}

}  // namespace

SourceRow sacct_source() {
  SourceRow row{"sacct",
                "Slurm's job accounting (`sacct --parsable2`): one job per allocation, steps "
                "skipped, states mapped, every dropped record counted (workload/sacct.hpp)",
                sacct_keys,
                validate_sacct,
                make_sacct,
                sacct_reading_of};
  row.traits.reads_file = true;
  return row;
}

}  // namespace faultsweep::workload

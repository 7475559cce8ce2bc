#include "faultsweep/sweep/store.hpp"
#include "faultsweep/sweep/warnings.hpp"

#include <fmt/chrono.h>
#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>

#include "faultsweep/core/build_info.hpp"
#include "faultsweep/core/error.hpp"
#include "faultsweep/core/hash.hpp"
#include "faultsweep/io/h5.hpp"
#include "faultsweep/io/output.hpp"
#include "faultsweep/sweep/record_store.hpp"
#include "faultsweep/sweep/space.hpp"
#include "faultsweep/sweep/stats.hpp"

namespace faultsweep::sweep {
namespace {

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  if (s.empty()) return out;
  for (std::size_t i = 0; i <= s.size(); ++i)
    if (i == s.size() || s[i] == sep) out.push_back(s.substr(start, i - start)), start = i + 1;
  return out;
}

std::string now_utc() {
  const auto t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  return fmt::format("{:%Y-%m-%dT%H:%M:%SZ}", fmt::gmtime(t));
}

void write_points(hid_t root, const JobSpec& job, const std::string& f) {
  io::Handle g = io::create_group(root, "points", f);
  const auto& pts = job.points;
  std::vector<std::string> params;
  params.reserve(pts.size());
  for (const Params& p : pts) params.push_back(p.canonical_text());
  io::write_strings(g.id(), "params", params, f);
  io::describe(g.id(), "params", "", "canonical key=value text of every parameter of each point",
               f);
  for (const Axis& axis : job.axes)
    for (const AxisMember& m : axis.members) {
      const bool is_string = std::holds_alternative<std::string>(m.values.front());
      const bool is_flag = std::holds_alternative<bool>(m.values.front());
      const auto coord_of = [&](std::size_t p) {
        return grid_coordinates(job.axes, p)[static_cast<std::size_t>(&axis - job.axes.data())];
      };
      if (is_string || is_flag) {  // a boolean axis as the job file spells it: "true" | "false"
        std::vector<std::string> col(pts.size());
        for (std::size_t p = 0; p < pts.size(); ++p) {
          const Value& v = m.values[coord_of(p)];
          col[p] = is_flag ? (std::get<bool>(v) ? "true" : "false") : std::get<std::string>(v);
        }
        io::write_strings(g.id(), m.key, col, f);
      } else {
        std::vector<double> col(pts.size());
        for (std::size_t p = 0; p < pts.size(); ++p) col[p] = pts[p].real(m.key);
        io::write_doubles(g.id(), m.key, col, {pts.size()}, f);
      }
      io::describe(g.id(), m.key, m.units,
                   axis.members.size() > 1
                       ? fmt::format("swept parameter (zipped group {})", axis.name)
                       : "swept parameter",
                   f);
    }
}

}  // namespace

ResultTable::ResultTable(std::size_t p, std::size_t r, std::size_t m)
    : points(p),
      replicas_max(r),
      metrics(m),
      values(p * r * m, std::numeric_limits<double>::quiet_NaN()),
      done(p * r, 0) {}

std::size_t ResultTable::done_count() const {
  std::size_t n = 0;
  for (auto d : done) n += d;
  return n;
}

namespace {

void write_inputs(hid_t root, const std::vector<InputFile>& inputs, const std::string& f) {
  io::Handle g = io::create_group(root, "inputs", f);
  io::write_attr(
      g.id(), "description",
      std::string("the input files the job read: path, size_bytes, sha256; read/<j>: what "
                  "the reader kept, dropped or changed (counts by name, summary, "
                  "options, and for failure logs that name their nodes node_names: the "
                  "log's name of each node index)"),
      f);
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    io::Handle e = io::create_group(g.id(), std::to_string(i), f);
    io::write_attr(e.id(), "path", inputs[i].path, f);
    io::write_attr(e.id(), "size_bytes", inputs[i].size_bytes, f);
    io::write_attr(e.id(), "sha256", inputs[i].sha256, f);
    if (inputs[i].read.empty()) continue;
    io::Handle read = io::create_group(e.id(), "read", f);
    for (std::size_t j = 0; j < inputs[i].read.size(); ++j) {
      const InputReading& r = inputs[i].read[j];
      io::Handle g = io::create_group(read.id(), std::to_string(j), f);
      io::write_attr(g.id(), "options", r.options, f);
      io::write_attr(g.id(), "summary", r.summary, f);
      for (const auto& [name, n] : r.counts) io::write_attr(g.id(), name, n, f);
      if (r.node_names.empty()) continue;
      io::write_strings(g.id(), "node_names", r.node_names, f);
      io::describe(g.id(), "node_names", "",
                   "node i of the machine (before node_offset) is the log's node node_names[i]", f);
    }
  }
}

std::vector<InputFile> read_inputs(hid_t root, const std::string& f) {
  std::vector<InputFile> out;
  if (!io::exists(root, "inputs")) return out;
  io::Handle g = io::open_group(root, "inputs", f);
  for (std::size_t i = 0; io::exists(g.id(), std::to_string(i)); ++i) {
    io::Handle e = io::open_group(g.id(), std::to_string(i), f);
    InputFile in;
    in.path = io::read_attr_string(e.id(), "path", f);
    in.size_bytes = io::read_attr_uint(e.id(), "size_bytes", f);
    in.sha256 = io::read_attr_string(e.id(), "sha256", f);
    if (io::exists(e.id(), "read")) {
      io::Handle read = io::open_group(e.id(), "read", f);
      for (std::size_t j = 0; io::exists(read.id(), std::to_string(j)); ++j) {
        io::Handle g = io::open_group(read.id(), std::to_string(j), f);
        InputReading r;
        r.path = in.path;
        r.options = io::read_attr_string(g.id(), "options", f);
        r.summary = io::read_attr_string(g.id(), "summary", f);
        in.read.push_back(std::move(r));  // the counts stay in the file (attributes by name)
      }
    }
    out.push_back(std::move(in));
  }
  return out;
}

// Everything inside the results file; every handle it opens is closed when it returns.
void write_contents(io::File& file, const JobSpec& job, const ResultTable& t, bool complete,
                    const std::string& slice, const std::vector<InputFile>& inputs,
                    const std::vector<std::string>& notices, const TaskRecords* records,
                    std::int64_t results_version) {
  const std::string& f = file.path();
  const hid_t root = file.id();
  std::vector<std::string> axis_names, metric_names;
  for (const Axis& a : job.axes)
    for (const AxisMember& m : a.members) axis_names.push_back(m.key);
  for (const auto& m : job.model->metrics()) metric_names.push_back(m.name);
  io::write_attr(root, "filetype", std::string(kFileType), f);
  io::write_attr(root, "schema_version", kSchemaVersion, f);
  io::write_attr(root, "results_version", results_version, f);
  io::write_attr(root, "faultsweep_version", std::string(version()), f);
  io::write_attr(root, "git_sha", std::string(git_sha()), f);
  io::write_attr(root, "compiler", std::string(compiler()), f);
  io::write_attr(root, "created_utc", now_utc(), f);
  io::write_attr(root, "model", job.model->name(), f);
  io::write_attr(root, "master_seed", job.seed, f);
  io::write_attr(root, "job_file", job.text, f);
  io::write_attr(root, "job_file_name", job.file, f);
  io::write_attr(root, "job_file_sha256", sha256_hex(job.text), f);
  io::write_attr(root, "complete", static_cast<std::int64_t>(complete ? 1 : 0), f);
  io::write_attr(root, "axes", fmt::format("{}", fmt::join(axis_names, ",")), f);
  io::write_attr(root, "metrics", fmt::format("{}", fmt::join(metric_names, ",")), f);
  io::write_attr(root, "replicas_max", static_cast<std::int64_t>(t.replicas_max), f);
  io::write_attr(root, "description", job.description, f);
  if (!slice.empty()) io::write_attr(root, "slice", slice, f);
  write_points(root, job, f);
  write_inputs(root, inputs, f);
  const std::vector<std::string> warnings = result_warnings(notices, job, t);
  if (!warnings.empty()) {
    io::write_strings(root, "warnings", warnings, f);
    io::describe(root, "warnings", "",
                 "what loading the job noted (inputs' dropped records, settings under which "
                 "jobs can hardly progress) and replicas flagged by a metric of unit flag",
                 f);
  }

  const std::vector<hsize_t> dims{t.points, t.replicas_max};
  io::Handle results = io::create_group(root, "results", f);
  io::write_u8(results.id(), "done", t.done, dims, f);
  io::describe(results.id(), "done", "1", "1 where the replica has run, 0 where it has not", f);
  io::Handle summary = io::create_group(root, "summary", f);
  const bool det = job.model->deterministic();
  const auto& metrics = job.model->metrics();
  for (std::size_t m = 0; m < metrics.size(); ++m) {
    const auto& spec = metrics[m];
    const std::vector<double> col(
        t.values.begin() + static_cast<std::ptrdiff_t>(m * t.tasks()),
        t.values.begin() + static_cast<std::ptrdiff_t>((m + 1) * t.tasks()));
    io::write_doubles(results.id(), spec.name, col, dims, f);
    io::describe(results.id(), spec.name, spec.unit, spec.description, f);
    io::Handle g = io::create_group(summary.id(), spec.name, f);
    io::write_attr(g.id(), "units", spec.unit, f);
    io::write_attr(g.id(), "description", spec.description, f);
    std::vector<double> n(t.points), mean(t.points), sd(t.points), sem(t.points), lo(t.points),
        hi(t.points);
    for (std::size_t p = 0; p < t.points; ++p) {
      const std::size_t first = p * t.replicas_max;
      const Summary s = summarize(col.data() + first, t.done.data() + first, t.replicas_max, det);
      n[p] = s.n, mean[p] = s.mean, sd[p] = s.std, sem[p] = s.sem, lo[p] = s.ci95_lo,
      hi[p] = s.ci95_hi;
    }
    const std::pair<const char*, const std::vector<double>*> stats[] = {
        {"n", &n},     {"mean", &mean},  {"std", &sd},
        {"sem", &sem}, {"ci95_lo", &lo}, {"ci95_hi", &hi}};
    for (const auto& [name, data] : stats) {
      io::write_doubles(g.id(), name, *data, {t.points}, f);
      io::describe(g.id(), name, std::string(name) == "n" ? "1" : spec.unit,
                   fmt::format("{} over replicas of {}", name, spec.name), f);
    }
  }
  if (records != nullptr) write_records(root, t.replicas_max, *records, t.done, f);
  file.flush();
}

}  // namespace

void write_results(const std::filesystem::path& out, const JobSpec& job, const ResultTable& t,
                   bool complete, const std::string& slice, const std::vector<InputFile>* inputs,
                   const std::vector<std::string>& notices, const TaskRecords* records,
                   std::int64_t results_version) {
  const std::vector<InputFile> described =
      inputs ? std::vector<InputFile>{} : describe_job_inputs(job);
  const std::filesystem::path tmp = out.string() + fmt::format(".tmp.{}", ::getpid());
  std::error_code ec;
  std::filesystem::remove(tmp, ec);
  io::File file = io::File::create(tmp);
  try {
    write_contents(file, job, t, complete, slice, inputs ? *inputs : described, notices, records,
                   results_version);
    file.close();  // every group and dataset handle is closed by now: the close writes the rest
  } catch (...) {
    file.discard();  // also when the disk is full: HDF5 must not be left holding the file
    throw;
  }
  std::filesystem::rename(tmp, out, ec);
  if (ec) {
    const std::string why = ec.message();  // before the remove below reuses `ec`
    std::filesystem::remove(tmp, ec);
    throw IoError(
        fmt::format("{}: cannot rename the finished file into place: {}", out.string(), why));
  }
}

StoredResults read_results(const std::filesystem::path& path) {
  const std::string f = path.string();
  io::File file = io::File::open_read(path);
  const hid_t root = file.id();
  if (!io::has_attr(root, "filetype") || io::read_attr_string(root, "filetype", f) != kFileType)
    throw IoError(
        fmt::format("{}: not a faultsweep results file (no filetype = \"{}\")", f, kFileType));
  const auto version = io::read_attr_int(root, "schema_version", f);
  if (version != kSchemaVersion)
    throw IoError(fmt::format("{}: schema_version {} is not supported (this faultsweep reads {})",
                              f, version, kSchemaVersion));
  StoredResults s;
  s.model = io::read_attr_string(root, "model", f);
  s.job_text = io::read_attr_string(root, "job_file", f);
  s.job_file_name = io::read_attr_string(root, "job_file_name", f);
  s.job_sha256 = io::read_attr_string(root, "job_file_sha256", f);
  if (io::has_attr(root, "slice")) s.slice = io::read_attr_string(root, "slice", f);
  if (io::exists(root, "warnings")) s.warnings = io::read_strings(root, "warnings", f);
  s.created_utc = io::read_attr_string(root, "created_utc", f);
  s.git_sha = io::read_attr_string(root, "git_sha", f);
  s.version = io::read_attr_string(root, "faultsweep_version", f);
  s.master_seed = io::read_attr_uint(root, "master_seed", f);
  if (io::has_attr(root, "results_version"))
    s.results_version = io::read_attr_int(root, "results_version", f);
  s.complete = io::read_attr_int(root, "complete", f) != 0;
  s.axes = split(io::read_attr_string(root, "axes", f), ',');
  s.metrics = split(io::read_attr_string(root, "metrics", f), ',');
  s.inputs = read_inputs(root, f);
  io::Handle results = io::open_group(root, "results", f);
  std::vector<hsize_t> dims;
  const auto done = io::read_u8(results.id(), "done", dims, f);
  if (dims.size() != 2)
    throw IoError(fmt::format(
        "{}: /results/done has {} dimension{}, expected 2 (points x replicas): a damaged file "
        "or not one faultsweep wrote",
        f, dims.size(), dims.size() == 1 ? "" : "s"));
  s.table = ResultTable(dims[0], dims[1], s.metrics.size());
  s.table.done = done;
  for (std::size_t m = 0; m < s.metrics.size(); ++m) {
    std::vector<hsize_t> md;
    const auto v = io::read_doubles(results.id(), s.metrics[m], md, f);
    if (md != dims)
      throw IoError(fmt::format("{}: /results/{} has the wrong shape", f, s.metrics[m]));
    std::copy(v.begin(), v.end(),
              s.table.values.begin() + static_cast<std::ptrdiff_t>(m * s.table.tasks()));
    io::Handle ds(H5Dopen2(results.id(), s.metrics[m].c_str(), H5P_DEFAULT), H5Dclose);
    s.units.push_back(io::has_attr(ds.id(), "units") ? io::read_attr_string(ds.id(), "units", f)
                                                     : "");
  }
  s.records = read_records(root, s.table.replicas_max, f);
  return s;
}

}  // namespace faultsweep::sweep

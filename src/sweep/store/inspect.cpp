#include "faultsweep/sweep/inspect.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <vector>

#include "faultsweep/fit_command/fit_command.hpp"
#include "faultsweep/io/h5.hpp"
#include "faultsweep/io/output.hpp"
#include "faultsweep/sweep/job.hpp"
#include "faultsweep/sweep/record_store.hpp"
#include "faultsweep/sweep/store.hpp"

namespace faultsweep::sweep {

namespace {

std::string axis_summary(const io::File& file, const std::string& name) {
  const std::string f = file.path();
  io::Handle g = io::open_group(file.id(), "points", f);
  std::string units;
  {
    io::Handle d(H5Dopen2(g.id(), name.c_str(), H5P_DEFAULT), H5Dclose);
    if (io::has_attr(d.id(), "units")) units = io::read_attr_string(d.id(), "units", f);
  }
  if (io::is_string_dataset(g.id(), name, f)) {
    const auto v = io::read_strings(g.id(), name, f);
    std::vector<std::string> uniq;
    for (const auto& s : v)
      if (std::find(uniq.begin(), uniq.end(), s) == uniq.end()) uniq.push_back(s);
    return fmt::format("{} values: {}", uniq.size(), fmt::join(uniq, ", "));
  }
  std::vector<hsize_t> dims;
  const auto v = io::read_doubles(g.id(), name, dims, f);
  const std::set<double> uniq(v.begin(), v.end());
  if (uniq.empty()) return "no values";
  return fmt::format("{} values from {:.6g} to {:.6g}{}", uniq.size(), *uniq.begin(),
                     *uniq.rbegin(), units.empty() || units == "1" ? "" : " " + units);
}

// The option keys ("k=v;k=v") whose values are not the same in all of `options` (a key some
// of them lack included), in first-seen order.
std::vector<std::string> differing_keys(const std::vector<const std::string*>& options) {
  struct Key {
    std::string name;
    std::set<std::string> values;
    std::size_t seen = 0;
  };
  std::vector<Key> keys;
  for (const std::string* o : options)
    for (std::size_t at = 0; at < o->size();) {
      const std::size_t end = std::min(o->find(';', at), o->size());
      const std::string kv = o->substr(at, end - at);
      const std::size_t eq = std::min(kv.find('='), kv.size());
      auto k = std::find_if(keys.begin(), keys.end(),
                            [&](const Key& x) { return x.name == kv.substr(0, eq); });
      if (k == keys.end()) k = keys.insert(keys.end(), Key{kv.substr(0, eq), {}, 0});
      k->values.insert(eq < kv.size() ? kv.substr(eq + 1) : std::string());
      ++k->seen;
      at = end + 1;
    }
  std::vector<std::string> out;
  for (const Key& k : keys)
    if (k.values.size() > 1 || k.seen < options.size()) out.push_back(k.name);
  return out;
}

// One line per distinct summary of an input's readings: a file read at every point with
// options that differ (a machine size set by an axis) but the same outcome is said once.
std::vector<std::string> reading_lines(const InputFile& in) {
  std::vector<std::string> out;
  std::vector<bool> said(in.read.size(), false);
  for (std::size_t i = 0; i < in.read.size(); ++i) {
    if (said[i]) continue;
    std::vector<const std::string*> options;
    for (std::size_t j = i; j < in.read.size(); ++j)
      if (!said[j] && in.read[j].summary == in.read[i].summary) {
        said[j] = true;
        options.push_back(&in.read[j].options);
      }
    if (options.size() == 1) {
      out.push_back(in.read[i].summary);
      continue;
    }
    const auto keys = differing_keys(options);
    out.push_back(fmt::format("{} ({} readings{}{})", in.read[i].summary, options.size(),
                              keys.empty() ? "" : " alike but for ", fmt::join(keys, ", ")));
  }
  return out;
}

}  // namespace

int inspect_file(const std::string& path, std::FILE* out) {
  if (int code = 0; inspect_journal(path, out, &code)) return code;
  if (io::hdf5_filetype(path) == fit_command::kFitFileType)
    return fit_command::inspect_fit_file(path, out);
  const StoredResults s = read_results(path);
  const ResultTable& t = s.table;
  io::File file = io::File::open_read(path);
  std::fprintf(out, "%s: faultsweep results (schema %lld, results version %lld), %s\n",
               path.c_str(), static_cast<long long>(kSchemaVersion),
               static_cast<long long>(s.results_version),
               s.complete ? "COMPLETE" : "INCOMPLETE: rerun the job with --resume to finish it");
  std::fprintf(out, "  model      %s, master seed %llu\n", s.model.c_str(),
               static_cast<unsigned long long>(s.master_seed));
  std::fprintf(out, "  written    %s by faultsweep %s (git %s)\n", s.created_utc.c_str(),
               s.version.c_str(), s.git_sha.c_str());
  std::fprintf(out, "  job file   %s (%zu bytes stored in the file)\n", s.job_file_name.c_str(),
               s.job_text.size());
  for (const InputFile& in : s.inputs)
    std::fprintf(out, "  input      %s (%llu bytes, sha256 %s)\n", in.path.c_str(),
                 static_cast<unsigned long long>(in.size_bytes), in.sha256.c_str());
  for (const InputFile& in : s.inputs)
    for (const std::string& line : reading_lines(in))
      std::fprintf(out, "  read       %s: %s\n", in.path.c_str(), line.c_str());
  // Loading notices include each input's read summary ("read FILE: ..."): a warning only when
  // its reader dropped something; a summary already listed above is not repeated.
  for (const std::string& w : s.warnings) {
    if (w.rfind("read ", 0) == 0 && w.find("; dropped: ") == std::string::npos) {
      const bool listed = std::any_of(s.inputs.begin(), s.inputs.end(), [&](const InputFile& in) {
        return std::any_of(in.read.begin(), in.read.end(), [&](const InputReading& r) {
          return w.size() > r.summary.size() + 2 &&
                 w.compare(w.size() - r.summary.size() - 2, std::string::npos, ": " + r.summary) ==
                     0;
        });
      });
      if (!listed) std::fprintf(out, "  read       %s\n", w.c_str() + 5);
      continue;
    }
    std::fprintf(out, "  warning    %s\n", w.c_str());
  }
  std::fprintf(out, "  points     %zu\n", t.points);
  for (const auto& a : s.axes)
    std::fprintf(out, "    axis %-14s %s\n", a.c_str(), axis_summary(file, a).c_str());
  std::size_t lo = t.replicas_max, hi = 0;
  for (std::size_t p = 0; p < t.points; ++p) {
    std::size_t n = 0;
    for (std::size_t r = 0; r < t.replicas_max; ++r) n += t.done[p * t.replicas_max + r];
    lo = std::min(lo, n), hi = std::max(hi, n);
  }
  std::fprintf(out, "  replicas   %zu of %zu tasks done; per point %zu to %zu (at most %zu)\n",
               t.done_count(), t.tasks(), t.points ? lo : 0, hi, t.replicas_max);
  std::fprintf(out, "  metrics    (range of the replica values over all points)\n");
  for (std::size_t m = 0; m < s.metrics.size(); ++m) {
    double mn = INFINITY, mx = -INFINITY;
    for (std::size_t i = 0; i < t.tasks(); ++i)
      if (t.done[i] && !std::isnan(t.value(m, i)))
        mn = std::min(mn, t.value(m, i)), mx = std::max(mx, t.value(m, i));
    if (mn > mx)  // nothing but NaN (or no task done)
      std::fprintf(out, "    %-20s [%s] no values (every done replica gave NaN, or none ran)\n",
                   s.metrics[m].c_str(), s.units[m].c_str());
    else
      std::fprintf(out, "    %-20s [%s] values from %.6g to %.6g\n", s.metrics[m].c_str(),
                   s.units[m].c_str(), mn, mx);
  }
  for (const std::string& line : describe_records(s.records, t.replicas_max))
    std::fprintf(out, "  %s\n", line.c_str());
  return 0;
}

}  // namespace faultsweep::sweep

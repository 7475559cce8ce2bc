// The [sweep] key `record`: which tasks keep records and which tables (sweep/job.hpp).
#include <fmt/format.h>

#include <algorithm>
#include <iterator>

#include "faultsweep/sim/records.hpp"
#include "job_loader.hpp"

namespace faultsweep::sweep {

unsigned RecordSelection::for_task(std::uint64_t point, std::uint64_t replica) const {
  if (what == 0 || !std::binary_search(replicas.begin(), replicas.end(), replica)) return 0;
  return all_points || std::binary_search(points.begin(), points.end(), point) ? what : 0;
}

std::string RecordSelection::text() const {
  if (what == 0) return "none";
  std::vector<std::string> tables;
  for (unsigned b = 0; b < std::size(sim::kRecordTableNames); ++b)
    if (what & (1u << b)) tables.push_back(sim::kRecordTableNames[b]);
  return fmt::format("points {} replicas [{}] what [{}]",
                     all_points ? "all" : fmt::format("[{}]", fmt::join(points, ",")),
                     fmt::join(replicas, ","), fmt::join(tables, ","));
}

namespace detail {
namespace {

const char* kRecordHelp =
    "a table { points = \"all\" | [point indices], replicas = [replica indices], what = "
    "[\"jobs\", \"failures\", \"nodes\", \"decisions\"] }";

}  // namespace

void Loader::parse_record(const toml::value& v) {
  RecordSelection& r = job_.record;
  if (!v.is_table()) error_at(v, "sweep.record", std::string("expected ") + kRecordHelp);
  check_keys(v, "sweep.record.", {"points", "replicas", "what"});
  if (!job_.model->keeps_records())
    error_at(v, "sweep.record",
             fmt::format("model {} keeps no records (the cluster model does)", job_.model->name()));
  r.line = line_of(v);
  // A list of distinct indices below `n`, sorted.
  const auto indices = [&](const toml::value& list, const std::string& key, std::uint64_t n,
                           const char* of) {
    if (!list.is_array() || list.as_array().empty())
      error_at(list, key, fmt::format("expected a non-empty list of {} indices", of));
    std::vector<std::uint64_t> out;
    for (const toml::value& x : list.as_array()) {
      if (!x.is_integer() || x.as_integer() < 0 || static_cast<std::uint64_t>(x.as_integer()) >= n)
        error_at(x, key,
                 fmt::format("a {} index from 0 to {} (the job has {} {}s)", of, n - 1, n, of));
      out.push_back(static_cast<std::uint64_t>(x.as_integer()));
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  };
  if (v.contains("points")) {
    const toml::value& p = v.at("points");
    r.all_points = p.is_string() && p.as_string().str == "all";
    if (!r.all_points && p.is_string())
      error_at(p, "sweep.record.points", "\"all\" or a list of point indices");
    if (!r.all_points) r.points = indices(p, "sweep.record.points", job_.points.size(), "point");
  }
  r.replicas = {0};
  if (v.contains("replicas"))
    r.replicas = indices(v.at("replicas"), "sweep.record.replicas",
                         static_cast<std::uint64_t>(job_.replicas.max), "replica");
  r.what = sim::kRecordAll;
  if (!v.contains("what")) return;
  const toml::value& w = v.at("what");
  if (!w.is_array() || w.as_array().empty())
    error_at(w, "sweep.record.what", "expected a non-empty list of table names");
  const std::vector<std::string> names(std::begin(sim::kRecordTableNames),
                                       std::end(sim::kRecordTableNames));
  r.what = 0;
  for (const toml::value& x : w.as_array()) {
    const auto it =
        x.is_string() ? std::find(names.begin(), names.end(), x.as_string().str) : names.end();
    if (it == names.end())
      error_at(x, "sweep.record.what",
               fmt::format("one of {}", fmt::format("\"{}\"", fmt::join(names, "\", \""))));
    r.what |= 1u << static_cast<unsigned>(it - names.begin());
  }
}

}  // namespace detail
}  // namespace faultsweep::sweep

#pragma once
// The job-file loader (internal to src/sweep/job): TOML in, a validated JobSpec out. job.cpp holds
// the sections ([sweep], [params], [axes]) and the point expansion; job_values.cpp converts and
// checks single values against a model's ParamSpecs and builds axes.
#include <map>
#include <string>
#include <toml.hpp>
#include <utility>
#include <vector>

#include "faultsweep/core/error.hpp"
#include "faultsweep/sweep/job.hpp"

namespace faultsweep::sweep::detail {

using models::ParamKind;
using models::ParamSpec;

int line_of(const toml::value& v);
// A short, single-line rendering of a TOML value for error messages.
std::string show(const toml::value& v);
const char* type_name(const toml::value& v);
// Entries of a table sorted by source line (toml11 keeps no order), then by key.
std::vector<std::pair<std::string, const toml::value*>> ordered(const toml::value& table);

// Fills job.record's size estimate (record_estimate.cpp) and throws InputError (key
// sweep.record, at its line) when the records cannot fit in the coordinator's memory.
void estimate_records(JobSpec& job);

class Loader {
 public:
  Loader(std::string file, std::string text, std::uint64_t max_points = kMaxPoints)
      : file_(std::move(file)), text_(std::move(text)), max_points_(max_points) {}
  JobSpec load();

 private:
  [[noreturn]] void error(int line, const std::string& key, const std::string& value,
                          const std::string& expected) const {
    throw InputError(key, value, expected).located(file_, line);
  }
  [[noreturn]] void error_at(const toml::value& v, const std::string& key,
                             const std::string& expected) const {
    error(line_of(v), key, show(v), expected);
  }
  void check_keys(const toml::value& table, const std::string& where,
                  const std::vector<std::string>& allowed) const;
  // Refuses integers whose source text does not fit 64 bits (toml11 would clamp them).
  void check_integers(const toml::value& v, const std::string& key) const;
  void parse_sweep(const toml::value& sweep);
  void parse_replicas(const toml::value& v);
  void parse_record(const toml::value& v);  // job_record.cpp; after expand_points()
  const ParamSpec* find_spec(const std::string& name) const;
  Value convert(const toml::value& v, const ParamSpec& spec, const std::string& key) const;
  void add_fixed(const std::string& name, const toml::value& v);
  void add_axis(const std::string& name, const toml::value& v);
  AxisMember make_member(const std::string& key, const toml::value& v, const std::string& where);
  std::vector<Value> axis_values(const toml::value& v, const ParamSpec& spec,
                                 const std::string& where) const;
  Value table_field(const ParamSpec& spec, const std::string& sub, const toml::value& v,
                    const std::string& where) const;
  // Refuses an axis of n values that is too long or would make the grid too large (before any
  // value is built).
  void check_axis_size(const toml::value& v, const std::string& where, std::uint64_t n) const;
  // Refuses a grid whose tasks exceed kMaxTasks or whose table would need more than half of
  // the machine's memory (sweep_memory_bytes).
  void check_memory(std::uint64_t points) const;
  void fill_defaults();
  void expand_points();
  int line_for_key(const std::string& key, std::string* prefix) const;

  std::string file_, text_;
  std::uint64_t max_points_;
  JobSpec job_;
  int sweep_line_ = 0;
  std::uint64_t grid_points_ = 1;           // product of the sizes of the axes added so far
  std::map<std::string, int> param_lines_;  // params key (dotted) -> line
  std::map<std::string, int> axis_lines_;   // axis member key -> line
};

// Estimated peak memory of a sweep (points, tasks and result table), in bytes.
std::uint64_t sweep_memory_bytes(std::uint64_t points, std::uint64_t params_per_point,
                                 std::uint64_t tasks, std::uint64_t metrics);

// A value inside a dist table: "dist" is a string; everything else a number or a duration.
Value dist_field(const Loader*, const toml::value& v);

}  // namespace faultsweep::sweep::detail

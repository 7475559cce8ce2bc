// The `failures` table: its process row (failures/process_registry.hpp) decides the allowed
// keys, the parse, the checks and the source; nothing here names a process.
#include "faultsweep/failures/factory.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <variant>

#include "faultsweep/core/error.hpp"
#include "faultsweep/failures/process_registry.hpp"

namespace faultsweep::failures {
namespace {

std::string expected_process() {
  return "expected one of " + joined_names(failure_processes(), ", ");
}

const ProcessRow& row_of(const Params& table) {
  if (!table.has("process"))
    throw InputError("process", "", fmt::format("required; {}", expected_process()));
  const Value& pv = table.at("process");
  const auto* name = std::get_if<std::string>(&pv);
  const ProcessRow* row = name ? find_row(failure_processes(), *name) : nullptr;
  if (row == nullptr) throw InputError("process", canonical_value(pv), expected_process());
  return *row;
}

std::vector<std::string> allowed_keys(const ProcessRow& row, const Params& table) {
  std::vector<std::string> keys = {"process"};
  if (row.allowed) {
    const std::vector<std::string> more = row.allowed(table);
    keys.insert(keys.end(), more.begin(), more.end());
  } else if (row.keys) {
    for (const ParamSpec& k : row.keys()) keys.push_back(k.name);
  }
  return keys;
}

FailureSpec parse(const Params& table, int nodes) {
  if (nodes < 1) throw InputError("nodes", std::to_string(nodes), "must be >= 1");
  FailureSpec s;
  s.row = &row_of(table);
  const TableReader r(table, fmt::format("process = \"{}\"", s.row->name));
  r.check_keys(allowed_keys(*s.row, table));
  if (s.row->parse) s.row->parse(r, table, nodes, s);
  return s;
}

}  // namespace

ParamSpec failures_table_spec() {
  ParamSpec process = make_param("process", ParamKind::string, "", std::nullopt,
                                 "the failure process (its keys below)");
  process.choices = row_names(failure_processes());
  process.choice_keys = choice_specs(failure_processes());
  const std::string names = joined_names(failure_processes(), " | ", "\"");
  ParamSpec f =
      make_param("failures", ParamKind::table, "", std::nullopt,
                 "node failures: { process = " + names + ", ... } (failures/factory.hpp)");
  f.keys = {process};
  collect_duration_keys(f.keys, f.duration_keys);
  return f;
}

const std::vector<std::string>& failure_duration_keys() {
  static const std::vector<std::string> keys = failures_table_spec().duration_keys;
  return keys;
}

void validate_failures(const Params& table, int nodes, const std::filesystem::path& base_dir) {
  const FailureSpec s = parse(table, nodes);
  if (s.row->check) s.row->check(s, table, nodes, base_dir);
}

std::optional<InputReading> trace_reading(const Params& table, int nodes,
                                          const std::filesystem::path& base_dir) {
  const FailureSpec s = parse(table, nodes);
  if (!s.row->reading) return std::nullopt;
  return s.row->reading(s, table, base_dir);
}

double failure_node_mtbf_s(const Params& table, int nodes) {
  if (!table.has("process")) return std::numeric_limits<double>::infinity();
  const ProcessRow& row = row_of(table);
  return row.node_mtbf_s ? row.node_mtbf_s(table, nodes) : std::numeric_limits<double>::quiet_NaN();
}

bool failures_finite(const Params& table) {
  return !table.has("process") || row_of(table).traits.finite;
}

std::optional<std::filesystem::path> failure_input_file(const Params& table,
                                                        const std::filesystem::path& base_dir) {
  const auto* name =
      table.has("process") ? std::get_if<std::string>(&table.at("process")) : nullptr;
  const ProcessRow* row = name ? find_row(failure_processes(), *name) : nullptr;
  if (row == nullptr || !row->traits.reads_file || !table.has("file")) return std::nullopt;
  const std::filesystem::path f(table.str("file"));
  return f.is_absolute() ? f : base_dir / f;
}

std::unique_ptr<FailureSource> make_failure_source(const Params& table, int nodes, double horizon_s,
                                                   const RunContext& ctx) {
  // Streams keyed by the failure configuration only (DESIGN §4): scheduling policies compared
  // in one replica see the same failures (each row keys its own streams).
  const FailureSpec s = parse(table, nodes);
  return s.row->make(s, table, nodes, horizon_s, ctx);
}

}  // namespace faultsweep::failures

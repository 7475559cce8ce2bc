// /records of a results file (sweep/record_store.hpp): one group per recorded task, one
// compound table per kind of row, units and codes in attributes.
#include <fmt/format.h>

#include <cstddef>
#include <cstdio>
#include <iterator>

#include "faultsweep/io/h5.hpp"
#include "faultsweep/io/h5_table.hpp"
#include "faultsweep/sim/records.hpp"
#include "faultsweep/sweep/record_store.hpp"

namespace faultsweep::sweep {
namespace {

using io::Column;
using sim::AllocationRow;
using sim::AttemptRow;
using sim::DecisionRow;
using sim::FailureRow;
using sim::JobRow;
using sim::NodeRow;

#define FS_COL(Row, field, type, unit)       \
  Column {                                   \
#field, offsetof(Row, field), type, unit \
  }
// HDF5's native types are read at first use, never while static objects are initialized: an
// H5T_NATIVE_* read before main() starts the library with its exit handler before
// io::quiet_hdf5() can switch it off, and that handler crashes at exit on a file a full disk
// left half closed (integration.disk_full).
hid_t I64() {
  return H5T_NATIVE_INT64;
}
hid_t I32() {
  return H5T_NATIVE_INT32;
}
hid_t F64() {
  return H5T_NATIVE_DOUBLE;
}
hid_t U8() {
  return H5T_NATIVE_UINT8;
}

const std::vector<Column>& job_columns() {
  static const std::vector<Column> c{
      FS_COL(JobRow, index, I32(), ""),          FS_COL(JobRow, id, I64(), ""),
      FS_COL(JobRow, user, I32(), ""),           FS_COL(JobRow, requested_size, I32(), "nodes"),
      FS_COL(JobRow, size, I32(), "nodes"),      FS_COL(JobRow, submit_s, F64(), "s"),
      FS_COL(JobRow, first_start_s, F64(), "s"), FS_COL(JobRow, finish_s, F64(), "s"),
      FS_COL(JobRow, runtime_s, F64(), "s"),     FS_COL(JobRow, estimate_s, F64(), "s"),
      FS_COL(JobRow, wait_s, F64(), "s"),        FS_COL(JobRow, run_s, F64(), "s"),
      FS_COL(JobRow, suspended_s, F64(), "s"),   FS_COL(JobRow, lost_s, F64(), "s"),
      FS_COL(JobRow, checkpoint_s, F64(), "s"),  FS_COL(JobRow, checkpoints, I32(), "1"),
      FS_COL(JobRow, failures, I32(), "1"),      FS_COL(JobRow, migrations, I32(), "1"),
      FS_COL(JobRow, attempts, I32(), "1"),      FS_COL(JobRow, state, U8(), ""),
      FS_COL(JobRow, group, I32(), ""),          FS_COL(JobRow, executable, I32(), ""),
      FS_COL(JobRow, queue, I32(), ""),          FS_COL(JobRow, partition, I32(), "")};
  return c;
}
const std::vector<Column>& attempt_columns() {
  static const std::vector<Column> c{
      FS_COL(AttemptRow, job, I32(), ""), FS_COL(AttemptRow, attempt, I32(), ""),
      FS_COL(AttemptRow, start_s, F64(), "s"), FS_COL(AttemptRow, end_s, F64(), "s"),
      FS_COL(AttemptRow, end, U8(), "")};
  return c;
}
const std::vector<Column>& allocation_columns() {
  static const std::vector<Column> c{
      FS_COL(AllocationRow, job, I32(), ""), FS_COL(AllocationRow, attempt, I32(), ""),
      FS_COL(AllocationRow, first_node, I32(), ""), FS_COL(AllocationRow, count, I32(), "nodes")};
  return c;
}
const std::vector<Column>& failure_columns() {
  static const std::vector<Column> c{
      FS_COL(FailureRow, time_s, F64(), "s"), FS_COL(FailureRow, node, I32(), ""),
      FS_COL(FailureRow, repair_s, F64(), "s"), FS_COL(FailureRow, job, I32(), ""),
      FS_COL(FailureRow, predicted, U8(), "")};
  return c;
}
const std::vector<Column>& node_columns() {
  static const std::vector<Column> c{
      FS_COL(NodeRow, time_s, F64(), "s"), FS_COL(NodeRow, node, I32(), ""),
      FS_COL(NodeRow, state, U8(), ""), FS_COL(NodeRow, job, I32(), "")};
  return c;
}
const std::vector<Column>& decision_columns() {
  static const std::vector<Column> c{
      FS_COL(DecisionRow, time_s, F64(), "s"),    FS_COL(DecisionRow, kind, U8(), ""),
      FS_COL(DecisionRow, cause, U8(), ""),       FS_COL(DecisionRow, job, I32(), ""),
      FS_COL(DecisionRow, node_from, I32(), ""),  FS_COL(DecisionRow, node_to, I32(), ""),
      FS_COL(DecisionRow, overhead_s, F64(), "s")};
  return c;
}
#undef FS_COL

// The tables: name, columns, description (codes spelled out).
struct TableInfo {
  const char* name;
  unsigned needs;  // sim::RecordTable flag
  const std::vector<Column>& (*columns)();
  const char* description;
};
const TableInfo kTables[] = {
    {"jobs", sim::kRecordJobs, job_columns,
     "one row per job of the workload: index (position in the workload; other tables' job), id "
     "(SWF job number), sizes, times (NaN: never), per-state times, work lost, counts; state: "
     "0 pending, 1 waiting, 2 running, 3 suspended, 4 done, 5 rejected; group, executable, "
     "queue, partition: the SWF log's fields 13-16 (-1: unknown or a generated job)"},
    {"attempts", sim::kRecordJobs, attempt_columns,
     "one row per execution of a job; end: 0 completed, 1 failure, 2 move, 3 checkpoint_now, "
     "4 still running when the run stopped"},
    {"allocations", sim::kRecordJobs, allocation_columns,
     "the nodes of each attempt: count consecutive nodes from first_node"},
    {"failures", sim::kRecordFailures, failure_columns,
     "one row per injected failure: node, repair end, the running job it interrupted (-1: "
     "none), predicted: the node was in the predictor's last report"},
    {"nodes", sim::kRecordNodes, node_columns,
     "one row per change of a node's state other than a job starting or ending on an idle "
     "node (allocations say those): failures, repairs, spares, a suspended job's nodes held; "
     "all nodes idle at the start; state (after the change): 0 idle, 1 busy, 2 held (by a "
     "suspended job), 3 down, 4 spare; job: its owner after the change"},
    {"decisions", sim::kRecordDecisions, decision_columns,
     "one row per action of a runtime strategy; kind: 0 move, 1 spare_hold, 2 spare_release, 3 "
     "checkpoint_now; cause: 0 periodic tick, 1 failure warning, 2 job end, 3 a call the "
     "strategy asked for, 4 after a failure"},
};

template <class F>
void for_tables(sim::RecordTables& t, F&& f) {
  f(kTables[0], t.jobs);
  f(kTables[1], t.attempts);
  f(kTables[2], t.allocations);
  f(kTables[3], t.failures);
  f(kTables[4], t.node_changes);
  f(kTables[5], t.decisions);
}

// The numbers n of the members `prefix`n of group g.
std::vector<unsigned long long> numbered(hid_t g, const char* prefix) {
  std::vector<unsigned long long> out;
  H5G_info_t info;
  if (H5Gget_info(g, &info) < 0) return out;
  const std::string format = std::string(prefix) + "%llu";
  for (hsize_t i = 0; i < info.nlinks; ++i) {
    char name[64] = {};
    H5Lget_name_by_idx(g, ".", H5_INDEX_NAME, H5_ITER_INC, i, name, sizeof name, H5P_DEFAULT);
    unsigned long long n = 0;
    if (std::sscanf(name, format.c_str(), &n) == 1) out.push_back(n);
  }
  return out;
}

}  // namespace

void write_records(hid_t root, std::size_t replicas_max, const TaskRecords& records,
                   const std::vector<std::uint8_t>& done, const std::string& file) {
  bool any = false;
  for (const auto& [task, bytes] : records) any = any || (task < done.size() && done[task]);
  if (!any) return;
  io::Handle g = io::create_group(root, "records", file);
  io::write_attr(g.id(), "description",
                 std::string("what happened inside the recorded replicas (job file key "
                             "sweep.record): point_<p>/replica_<r>/<table>"),
                 file);
  std::uint64_t last_point = ~std::uint64_t{0};
  io::Handle point;
  for (const auto& [task, bytes] : records) {
    if (task >= done.size() || !done[task]) continue;
    const std::uint64_t p = task / replicas_max, r = task % replicas_max;
    if (p != last_point) {
      point = io::create_group(g.id(), fmt::format("point_{}", p), file);
      last_point = p;
    }
    sim::RecordTables t = sim::decode_records(bytes, file);
    io::Handle rg = io::create_group(point.id(), fmt::format("replica_{}", r), file);
    io::write_attr(rg.id(), "nodes", static_cast<std::int64_t>(t.nodes), file);
    io::write_attr(rg.id(), "start_s", t.start_s, file);
    io::write_attr(rg.id(), "end_s", t.end_s, file);
    io::write_attr(rg.id(), "what", static_cast<std::int64_t>(t.what), file);
    for_tables(t, [&](const TableInfo& info, const auto& rows) {
      if (t.what & info.needs)
        io::write_rows(rg.id(), info.name, rows, info.columns(), info.description, file);
    });
  }
}

std::vector<std::string> describe_records(const TaskRecords& records, std::size_t replicas_max) {
  if (records.empty()) return {};
  std::vector<std::string> out{fmt::format(
      "records: {} tasks under /records/point_<p>/replica_<r> (`faultsweep export` writes one "
      "as SWF or Batsim CSV)",
      records.size())};
  for (const auto& [task, bytes] : records) {
    const sim::RecordTables t = sim::decode_records(bytes, "records");
    std::vector<std::string> what;
    for (unsigned b = 0; b < std::size(sim::kRecordTableNames); ++b)
      if (t.what & (1u << b)) what.push_back(sim::kRecordTableNames[b]);
    out.push_back(fmt::format(
        "  point {} replica {}: {} ({} jobs, {} attempts, {} failures, {} node changes, {} "
        "decisions)",
        task / replicas_max, task % replicas_max, fmt::join(what, ", "), t.jobs.size(),
        t.attempts.size(), t.failures.size(), t.node_changes.size(), t.decisions.size()));
  }
  return out;
}

TaskRecords read_records(hid_t root, std::size_t replicas_max, const std::string& file) {
  TaskRecords out;
  if (!io::exists(root, "records")) return out;
  io::Handle g = io::open_group(root, "records", file);
  for (const unsigned long long p : numbered(g.id(), "point_")) {
    io::Handle pg = io::open_group(g.id(), fmt::format("point_{}", p), file);
    for (const unsigned long long r : numbered(pg.id(), "replica_")) {
      if (r >= replicas_max) continue;
      io::Handle rg = io::open_group(pg.id(), fmt::format("replica_{}", r), file);
      sim::RecordTables t;
      t.nodes = static_cast<std::int32_t>(io::read_attr_int(rg.id(), "nodes", file));
      t.start_s = io::read_attr_double(rg.id(), "start_s", file);
      t.end_s = io::read_attr_double(rg.id(), "end_s", file);
      t.what = static_cast<unsigned>(io::read_attr_int(rg.id(), "what", file));
      for_tables(t, [&](const TableInfo& ti, auto& rows) {
        using Row = typename std::decay_t<decltype(rows)>::value_type;
        if (t.what & ti.needs) rows = io::read_rows<Row>(rg.id(), ti.name, ti.columns(), file);
      });
      out[p * replicas_max + r] = sim::encode_records(t);
    }
  }
  return out;
}

}  // namespace faultsweep::sweep

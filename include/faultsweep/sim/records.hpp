#pragma once
// Records of one replica: what happened inside the cluster simulation, row by row (DESIGN §5c).
// The engine fills a Recorder when one is attached (Simulation::set_recorder); without one it
// records nothing and allocates nothing. Tables (times in seconds of simulated time, nodes and
// jobs by index; a job's index is its position in the workload, its `id` the SWF job number):
//   jobs       one row per job of the workload, written at the end of the run;
//   attempts   one row per execution of a job (a job restarted after a failure, a move or a
//              checkpoint-now has several), with the reason it ended;
//   allocations the nodes of each attempt as ranges of consecutive node indices;
//   failures   one row per injected failure: its node, repair end, the running job it hit;
//   nodes      one row per change of a node's state other than a job starting or ending on an
//              idle node (those are the attempts' allocations): failures, repairs, spares
//              held and released, a suspended job's nodes held (all nodes idle at the start);
//   decisions  one row per action of a runtime strategy, with what triggered it.
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <vector>

namespace faultsweep::sim {

// Job lifecycle; the engine accounts time per state (waiting, running, suspended).
enum class JobState : std::uint8_t { pending, waiting, running, suspended, done, rejected };

// The tables a selection asks for (bit flags; attempts and allocations come with jobs).
enum RecordTable : unsigned {
  kRecordJobs = 1u,
  kRecordFailures = 2u,
  kRecordNodes = 4u,
  kRecordDecisions = 8u,
};
inline constexpr unsigned kRecordAll = 15u;
// The names of the tables a selection names in a job file, in bit order.
inline constexpr const char* kRecordTableNames[] = {"jobs", "failures", "nodes", "decisions"};

// Why an attempt ended.
enum class AttemptEnd : std::uint8_t { completed, failure, move, checkpoint_now, run_end };
// What made a runtime strategy act.
enum class DecisionCause : std::uint8_t { tick, warning, job_end, call, failure };
enum class DecisionKind : std::uint8_t { move, spare_hold, spare_release, checkpoint_now };

inline constexpr double kNotYet = std::numeric_limits<double>::quiet_NaN();

struct JobRow {
  std::int64_t id = 0;  // SWF job number (or the generated job's index)
  std::int32_t index = 0, user = -1, requested_size = 0, size = 0;
  double submit_s = 0, first_start_s = kNotYet, finish_s = kNotYet;
  double runtime_s = 0, estimate_s = 0;           // failure-free run time and estimate at `size`
  double wait_s = 0, run_s = 0, suspended_s = 0;  // time per state
  double lost_s = 0, checkpoint_s = 0;            // wall time rolled back; writing checkpoints
  std::int32_t checkpoints = 0, failures = 0, migrations = 0, attempts = 0;
  std::int32_t group = -1, executable = -1, queue = -1, partition = -1;  // SWF fields 13-16
  std::uint8_t state = 0;                                                // sim::JobState
};

struct AttemptRow {
  std::int32_t job = 0, attempt = 0;
  double start_s = 0, end_s = kNotYet;
  std::uint8_t end = 0;  // AttemptEnd
};

struct AllocationRow {
  std::int32_t job = 0, attempt = 0, first_node = 0, count = 0;
};

struct FailureRow {
  double time_s = 0, repair_s = 0;
  std::int32_t node = 0, job = -1;  // job: the running job it interrupted, or -1
  std::uint8_t predicted = 0;       // the node was in the predictor's last report
};

struct NodeRow {
  double time_s = 0;
  std::int32_t node = 0, job = -1;  // job: the node's owner after the change, or -1
  std::uint8_t state = 0;           // policy::NodeUse: idle, busy, held, down, spare
};

struct DecisionRow {
  double time_s = 0, overhead_s = 0;
  std::int32_t job = -1, node_from = -1, node_to = -1;
  std::uint8_t kind = 0, cause = 0;  // DecisionKind, DecisionCause
};

// The records of one replica, with what the metrics need besides the rows.
struct RecordTables {
  unsigned what = 0;  // RecordTable flags
  std::int32_t nodes = 0;
  double start_s = 0, end_s = 0;  // the run's first and last instant
  std::vector<JobRow> jobs;
  std::vector<AttemptRow> attempts;
  std::vector<AllocationRow> allocations;
  std::vector<FailureRow> failures;
  std::vector<NodeRow> node_changes;
  std::vector<DecisionRow> decisions;
};

// The bytes of a RecordTables (for the journal and MPI) and back; decode throws IoError naming
// `where` on bytes that are not one.
std::vector<unsigned char> encode_records(const RecordTables& t);
RecordTables decode_records(std::span<const unsigned char> bytes, const std::string& where);

// What the engine calls while it runs (only when a Recorder is attached).
class Recorder {
 public:
  Recorder(unsigned what, std::size_t jobs);
  bool wants(unsigned table) const { return (t_.what & table) != 0; }
  void begin_attempt(std::int32_t job, double t, std::span<const std::int32_t> nodes);
  void end_attempt(std::int32_t job, double t, AttemptEnd why);
  void failure(double t, std::int32_t node, double repair_s, std::int32_t job, bool predicted);
  // A node's change from state `from` to `to`; kept unless it is a job's start or end on an
  // idle node (busy <-> idle: the attempts and allocations say those).
  void node(double t, std::int32_t node, std::uint8_t from, std::uint8_t to, std::int32_t job);
  void decision(double t, DecisionKind kind, DecisionCause cause, std::int32_t job,
                std::int32_t from, std::int32_t to, double overhead_s);
  // Ends the attempts still open at `end_s` (the run stopped at its horizon).
  void close(double end_s);
  RecordTables& tables() { return t_; }

 private:
  RecordTables t_;
  std::vector<std::int32_t> open_;      // per job: its open attempt row, or -1
  std::vector<std::int32_t> attempts_;  // per job: attempts so far
};

}  // namespace faultsweep::sim

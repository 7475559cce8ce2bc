#pragma once
// The coordinator's wire format (Boost.MPI, serialized). Shared by coordinator.cpp and the
// coordinator benchmark, so that the benchmark measures the real messages.
#include <boost/serialization/string.hpp>
#include <boost/serialization/vector.hpp>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace faultsweep::sweep {

inline constexpr int kTagReport = 11;  // worker -> coordinator: results (or "ready")
inline constexpr int kTagAssign = 12;  // coordinator -> worker: a batch, or stop
inline constexpr int kTagCancel = 13;  // coordinator -> worker: abandon the rest of the batch

// How often a worker reports finished tasks of a running batch, and how often the coordinator
// fsyncs the journal: together they bound the work a kill -9 loses (docs/command-line.md: 0.1 s).
inline constexpr double kReportIntervalS = 0.02;
inline constexpr double kSyncIntervalS = 0.04;
// The batches a remote worker holds at once: the one it runs and the next, which waits in its
// queue so that the worker never waits for the coordinator between batches.
inline constexpr int kBatchesHeld = 2;
// Whether a worker that runs a batch gets its next one now: only while enough tasks wait that
// every worker could have one more; near the end, a batch held in one worker's queue would wait
// there while another worker stands idle.
inline bool worth_holding_next(std::size_t pending_tasks, std::size_t workers) {
  return pending_tasks >= workers;
}

struct Report {
  std::vector<std::uint64_t> tasks;  // finished tasks
  std::vector<double> values;        // tasks.size() x metrics
  std::string error;                 // a task threw: message
  bool input_error = false;
  // A partial report: tasks finished so far in a batch that is still running (sent at most
  // every kReportInterval, so that the journal holds them if the run is killed); the batch's
  // final report follows.
  bool partial = false;
  // Per task, its encoded records (sim/records.hpp), empty when it keeps none; empty
  // altogether when the job records nothing.
  std::vector<std::vector<unsigned char>> records;
  template <class Ar>
  void serialize(Ar& ar, unsigned) {
    ar& tasks& values& error& input_error& partial& records;
  }
};

struct Assignment {
  std::vector<std::uint64_t> tasks;
  bool stop = false;
  template <class Ar>
  void serialize(Ar& ar, unsigned) {
    ar& tasks& stop;
  }
};

}  // namespace faultsweep::sweep

#include "faultsweep/sweep/coordinator.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <boost/mpi.hpp>
#include <boost/serialization/string.hpp>
#include <boost/serialization/vector.hpp>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "faultsweep/core/error.hpp"
#include "faultsweep/core/stop.hpp"
#include "faultsweep/core/task_progress.hpp"
#include "faultsweep/sweep/messages.hpp"
#include "faultsweep/sweep/progress.hpp"
#include "faultsweep/sweep/rounds.hpp"
#include "faultsweep/sweep/signals.hpp"
#include "workers.hpp"

namespace faultsweep::sweep {
namespace mpi = boost::mpi;

using detail::Backoff;
using detail::Clock;
using detail::LocalWorker;
using detail::run_batch;

void run_task(const JobSpec& job, std::uint64_t task, std::span<double> out,
              std::vector<unsigned char>* records, const std::atomic<bool>* stop) {
  const std::size_t R = static_cast<std::size_t>(job.replicas.max);
  models::RunContext ctx;
  ctx.master_seed = job.seed;
  ctx.replica = task % R;
  ctx.base_dir = job.base_dir;
  ctx.stop = stop != nullptr ? stop : &stop_requested();
  if (records != nullptr) {
    records->clear();
    ctx.record = job.record.for_task(task / R, task % R);
    ctx.records_out = records;
  }
  // The progress line's view inside the task: cleared when it starts and however it ends.
  struct Cleared {
    Cleared() { task_progress().clear(); }
    ~Cleared() { task_progress().clear(); }
  } cleared;
  job.model->run(job.points[task / R], ctx, out);
}

namespace {

// Rank 0's side of a sweep: hands batches of tasks to its local worker thread and to the other
// ranks, records what they report in the table and the journal, and stops cleanly on an error,
// a failed journal write or a stop request.
class Coordinator {
 public:
  Coordinator(const JobSpec& job, mpi::communicator& world, ResultTable& table, Journal& journal,
              bool show_progress, std::vector<char> task_mask, RecordOutput* records)
      : job_(job),
        records_(records),
        world_(world),
        table_(table),
        journal_(journal),
        M_(job.metric_count()),
        R_(table.replicas_max),
        slots_(world.size()),
        local_(job),
        remote_held_(static_cast<std::size_t>(slots_), 0),
        remote_ready_(static_cast<std::size_t>(slots_), 0),
        planner_(job, std::move(task_mask)),
        progress_(show_progress),
        done_(table.done_count()) {}

  CoordinatorOutcome run();

 private:
  double cost_of(std::uint64_t t) const { return job_.costs[t / R_]; }
  bool start_round();
  std::vector<std::uint64_t> take_batch();
  void record(Report& rep);  // takes the records out of rep
  void sync(bool now);
  bool any_busy() const;
  void enter_stopping();
  bool collect_reports();
  bool hand_out_work();
  void release_workers();
  void show(bool final) {
    progress_.update(done_, std::max(done_, planner_.planned_tasks()), cost_done_, cost_total_,
                     job_.replicas.adaptive() ? planner_.round() : 0, final);
  }

  const JobSpec& job_;
  RecordOutput* records_;
  mpi::communicator& world_;
  ResultTable& table_;
  Journal& journal_;
  const std::size_t M_, R_;
  const int slots_;  // slot 0 = local worker, slot i = rank i
  LocalWorker local_;
  std::vector<int> remote_held_;     // batches given to a remote worker and not yet reported
  std::vector<mpi::request> sends_;  // assignments under way (each owns its serialized batch)
  std::vector<char> remote_ready_;   // a remote worker starts by reporting that it is idle
  RoundPlanner planner_;
  Progress progress_;
  CoordinatorOutcome outcome_;
  bool stopping_ = false;
  std::deque<std::uint64_t> pending_;
  double pending_cost_ = 0, cost_done_ = 0, cost_total_ = 0;
  std::size_t done_;
  Clock::time_point last_sync_ = Clock::now();
  const Clock::time_point start_ = Clock::now();
};

bool Coordinator::start_round() {
  const auto tasks = planner_.next_round(table_);
  pending_.assign(tasks.begin(), tasks.end());
  for (std::uint64_t t : tasks) pending_cost_ += cost_of(t), cost_total_ += cost_of(t);
  return !tasks.empty();
}

// Guided self-scheduling by cost (batch_cost_limit): a quarter of a fair share of what is left,
// at most about a second of work at the speed seen so far (every slot busy since the start).
std::vector<std::uint64_t> Coordinator::take_batch() {
  std::vector<std::uint64_t> batch;
  const double busy_s = std::chrono::duration<double>(Clock::now() - start_).count() * slots_;
  const double share =
      batch_cost_limit(pending_cost_, slots_, cost_done_ > 0 ? busy_s / cost_done_ : 0);
  double c = 0;
  while (!pending_.empty() && (batch.empty() || c + cost_of(pending_.front()) <= share) &&
         batch.size() < 4096) {
    c += cost_of(pending_.front());
    batch.push_back(pending_.front());
    pending_.pop_front();
  }
  pending_cost_ = pending_.empty() ? 0 : pending_cost_ - c;
  return batch;
}

void Coordinator::record(Report& rep) {
  for (std::size_t i = 0; i < rep.tasks.size(); ++i) {
    const std::uint64_t t = rep.tasks[i];
    FS_CHECK(t < table_.tasks() && !table_.done[t], fmt::format("task {} reported twice", t));
    table_.done[t] = 1;
    for (std::size_t m = 0; m < M_; ++m) table_.value(m, t) = rep.values[i * M_ + m];
    journal_.append(t, &rep.values[i * M_]);
    if (records_ != nullptr && rep.records.size() == rep.tasks.size() && !rep.records[i].empty()) {
      records_->journal.append(t, rep.records[i]);
      records_->tasks[t] = std::move(rep.records[i]);
    }
    cost_done_ += cost_of(t);
    ++done_;
  }
  if (!rep.error.empty() && outcome_.error.empty()) {
    outcome_.error = rep.error;
    outcome_.status =
        rep.input_error ? CoordinatorOutcome::input_error : CoordinatorOutcome::failed;
  }
}

// The journal is fsync'd at most every kSyncIntervalS (tiny tasks stay cheap). A failed write
// (disk full) stops the run like a signal: the finished tasks still go into the results file.
void Coordinator::sync(bool now) {
  if (!journal_.has_unsynced() && !now) return;
  if (!now && Clock::now() - last_sync_ < std::chrono::duration<double>(kSyncIntervalS)) return;
  try {
    // Records first: a task in the result journal without its records is run again on resume.
    if (records_ != nullptr) records_->journal.sync();
    journal_.sync();
  } catch (const IoError& e) {
    if (outcome_.status != CoordinatorOutcome::io_error) {
      outcome_.status = CoordinatorOutcome::io_error;
      outcome_.error = e.what();
    }
  }
  last_sync_ = Clock::now();
}

bool Coordinator::any_busy() const {
  if (local_.busy()) return true;
  for (int i = 1; i < slots_; ++i)
    if (remote_held_[static_cast<std::size_t>(i)] > 0) return true;
  return false;
}

void Coordinator::enter_stopping() {
  if (stopping_) return;
  stopping_ = true;
  pending_.clear();
  pending_cost_ = 0;
  local_.cancel();
  for (int i = 1; i < slots_; ++i)
    if (remote_held_[static_cast<std::size_t>(i)] > 0) world_.send(i, kTagCancel);
}

// Records every report waiting (remote ranks, the local worker); true if there was one.
bool Coordinator::collect_reports() {
  bool progressed = false;
  while (auto st = world_.iprobe(mpi::any_source, kTagReport)) {
    Report rep;
    world_.recv(st->source(), kTagReport, rep);
    record(rep);
    if (!rep.partial) {  // a batch ended (or the worker said it is ready)
      int& held = remote_held_[static_cast<std::size_t>(st->source())];
      held = std::max(held - 1, 0);
      remote_ready_[static_cast<std::size_t>(st->source())] = 1;
    }
    progressed = true;
  }
  if (auto rep = local_.take_partial()) record(*rep), progressed = true;
  if (auto rep = local_.take()) record(*rep), progressed = true;
  return progressed;
}

// Gives a batch to the local worker if idle and to every remote worker that holds fewer than
// kBatchesHeld (the next one only while worth_holding_next); true if one got work. A remote
// worker gets its next batch while it runs one, so it starts it as soon as the one it runs
// ends, without waiting for this rank to answer its report and for its own poll to see the
// answer (on a crowded node, tens of ms a batch).
bool Coordinator::hand_out_work() {
  bool progressed = false;
  if (!local_.busy() && !pending_.empty()) local_.give(take_batch()), progressed = true;
  for (int round = 0; round < kBatchesHeld; ++round) {
    for (int i = 1; i < slots_ && !pending_.empty(); ++i) {
      const auto s = static_cast<std::size_t>(i);
      if (remote_held_[s] > round || !remote_ready_[s]) continue;
      if (remote_held_[s] > 0 &&
          !worth_holding_next(pending_.size(), static_cast<std::size_t>(slots_)))
        return progressed;
      Assignment a;
      a.tasks = take_batch();
      // Not a blocking send: the worker may be sending a report of its own just now, and it
      // takes the batch only after that send; two blocking sends of large messages would wait
      // for each other.
      sends_.push_back(world_.isend(i, kTagAssign, a));
      ++remote_held_[s];
      progressed = true;
    }
  }
  return progressed;
}

// Release the remote workers: each is idle now, waiting for an assignment.
void Coordinator::release_workers() {
  for (int i = 1; i < slots_; ++i) {
    const auto s = static_cast<std::size_t>(i);
    if (!remote_ready_[s]) {  // never reported: wait for its hello so it is listening
      Report hello;
      world_.recv(i, kTagReport, hello);
      record(hello);
    }
    Assignment stop;
    stop.stop = true;
    world_.send(i, kTagAssign, stop);
  }
}

CoordinatorOutcome Coordinator::run() {
  const auto start = Clock::now();
  start_round();
  Backoff backoff;
  while (true) {
    std::erase_if(sends_, [](mpi::request& r) { return r.test().has_value(); });
    bool progressed = collect_reports();
    sync(false);
    if (!outcome_.error.empty() || stop_requested().load()) enter_stopping();
    if (!stopping_) progressed = hand_out_work() || progressed;
    show(false);
    if (pending_.empty() && !any_busy()) {
      if (stopping_) break;
      sync(true);
      if (!outcome_.error.empty()) continue;  // the sync failed: stop at the next turn
      if (!start_round()) break;
      continue;
    }
    if (progressed)
      backoff.reset();
    else
      backoff.idle();
  }
  mpi::wait_all(sends_.begin(), sends_.end());  // done already: each batch was reported
  sends_.clear();
  release_workers();
  sync(true);
  show(true);
  progress_.finish();
  if (stopping_ && outcome_.error.empty()) outcome_.status = CoordinatorOutcome::interrupted;
  outcome_.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return outcome_;
}

}  // namespace

CoordinatorOutcome coordinate(const JobSpec& job, mpi::communicator& world, ResultTable& table,
                              Journal& journal, bool show_progress, std::vector<char> task_mask,
                              RecordOutput* records) {
  // Collective: the remote ranks count the ranks on their node (run_remote_worker) here.
  (void)detail::remote_poll_cap_us(world);
  return Coordinator(job, world, table, journal, show_progress, std::move(task_mask), records)
      .run();
}

int detail::remote_poll_cap_us(mpi::communicator& world) {
  MPI_Comm node = MPI_COMM_NULL;
  int on_node = 1;
  if (MPI_Comm_split_type(world, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) == MPI_SUCCESS) {
    MPI_Comm_size(node, &on_node);
    MPI_Comm_free(&node);
  }
  const int cores = static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
  const int per_core = std::max(1, on_node / cores);
  return std::min(2000 * per_core, 100000);
}

void run_remote_worker(const JobSpec& job, mpi::communicator& world) {
  Backoff backoff(detail::remote_poll_cap_us(world));  // collective: every rank calls it first
  world.send(0, kTagReport, Report{});                 // ready
  for (;;) {
    Assignment a;
    mpi::request req = world.irecv(0, kTagAssign, a);
    while (!req.test()) backoff.idle();  // no busy-wait: ranks may share cores
    backoff.reset();
    if (a.stop) break;
    // The batch runs in a thread of its own; this one (the only one that calls MPI) forwards
    // its reports and watches for the coordinator's cancel, which comes only when the run
    // stops: it ends the task under way at once, as a signal to this rank would. A rank that
    // finished its task first held the stop up by seconds when the ranks are signalled one
    // after the other (srun, a script) or not at all (a stop on rank 0 only).
    // It sleeps until the batch hands over a report (or for at most the poll cap, to look for
    // a cancel), so a working rank's MPI thread takes no core from the batches.
    std::mutex mu;
    std::condition_variable handed;
    std::vector<Report> parts;
    std::optional<Report> last;
    std::atomic<bool> cancelled{false};
    std::thread batch([&] {
      Report rep = run_batch(
          job, a.tasks, [&] { return cancelled.load() || stop_requested().load(); },
          [&](const Report& part) {
            {
              const std::lock_guard lock(mu);
              parts.push_back(part);
            }
            handed.notify_one();
          });
      {
        const std::lock_guard lock(mu);
        last = std::move(rep);
      }
      handed.notify_one();
    });
    const auto poll = std::chrono::microseconds(backoff.cap_us());
    for (bool done = false; !done;) {
      std::vector<Report> out;
      {
        std::unique_lock lock(mu);
        handed.wait_for(lock, poll, [&] { return !parts.empty() || last.has_value(); });
        out.swap(parts);
        done = last.has_value();
      }
      for (const Report& p : out) world.send(0, kTagReport, p);
      if (done) break;
      if (!cancelled.load() && world.iprobe(0, kTagCancel)) {
        world.recv(0, kTagCancel);
        cancelled = true;
        stop_flag().store(true);  // the engine and a Python policy's call see it at once
      }
    }
    batch.join();
    world.send(0, kTagReport, *last);
  }
  // A cancel that crossed our last report is still queued: drain it.
  while (world.iprobe(0, kTagCancel)) world.recv(0, kTagCancel);
}

}  // namespace faultsweep::sweep

#include "faultsweep/sweep/coordinator.hpp"

#include <fmt/format.h>

#include <atomic>
#include <boost/mpi.hpp>
#include <boost/serialization/string.hpp>
#include <boost/serialization/vector.hpp>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include "faultsweep/core/error.hpp"
#include "faultsweep/core/task_progress.hpp"
#include "faultsweep/sweep/messages.hpp"
#include "faultsweep/sweep/progress.hpp"
#include "faultsweep/sweep/rounds.hpp"
#include "faultsweep/sweep/signals.hpp"

namespace faultsweep::sweep {
namespace mpi = boost::mpi;

namespace {

using Clock = std::chrono::steady_clock;

// Runs a batch until done or `cancelled()` says stop; never throws (but `flush` may). Every
// kReportIntervalS it hands the tasks finished so far to `flush` (a partial report) and goes on.
template <class Cancelled, class Flush>
Report run_batch(const JobSpec& job, const std::vector<std::uint64_t>& tasks, Cancelled cancelled,
                 Flush flush) {
  Report rep;
  const std::size_t M = job.metric_count();
  std::vector<double> out(M);
  const auto interval = std::chrono::duration<double>(kReportIntervalS);
  auto last_flush = Clock::now();
  for (std::uint64_t t : tasks) {
    if (!rep.tasks.empty() && Clock::now() - last_flush >= interval) {
      rep.partial = true;
      flush(rep);
      rep = Report{};
      last_flush = Clock::now();
    }
    if (cancelled()) break;
    try {
      run_task(job, t, out);
    } catch (const Interrupted&) {
      break;  // a stop was requested mid-task: the task stays undone and runs again on resume
    } catch (const InputError& e) {
      rep.error = e.what();
      rep.input_error = true;
      break;
    } catch (const std::exception& e) {
      const std::size_t R = static_cast<std::size_t>(job.replicas.max);
      rep.error =
          fmt::format("task {} (point {}, replica {}) failed: {}", t, t / R, t % R, e.what());
      break;
    }
    rep.tasks.push_back(t);
    rep.values.insert(rep.values.end(), out.begin(), out.end());
  }
  return rep;
}

// Rank 0's own worker thread; talks to the coordinator through memory, not MPI.
class LocalWorker {
 public:
  explicit LocalWorker(const JobSpec& job) : job_(job), thread_([this] { loop(); }) {}
  ~LocalWorker() {
    {
      std::lock_guard lock(mu_);
      quit_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
  bool busy() const { return busy_; }
  void give(std::vector<std::uint64_t> batch) {
    {
      std::lock_guard lock(mu_);
      batch_ = std::move(batch);
      has_batch_ = true;
    }
    busy_ = true;
    cv_.notify_all();
  }
  // The final report of the batch, with any partial report not yet taken in front of it.
  std::optional<Report> take() {
    std::lock_guard lock(mu_);
    if (!has_result_) return std::nullopt;
    has_result_ = false;
    busy_ = false;
    if (!partial_.tasks.empty()) {
      result_.tasks.insert(result_.tasks.begin(), partial_.tasks.begin(), partial_.tasks.end());
      result_.values.insert(result_.values.begin(), partial_.values.begin(), partial_.values.end());
      partial_ = Report{};
    }
    return std::move(result_);
  }
  // Tasks finished so far by the running batch (a partial report), if any.
  std::optional<Report> take_partial() {
    std::lock_guard lock(mu_);
    if (partial_.tasks.empty() || has_result_) return std::nullopt;  // take() gets them
    Report r = std::move(partial_);
    partial_ = Report{};
    return r;
  }
  void cancel() { cancel_ = true; }

 private:
  void loop() {
    for (;;) {
      std::vector<std::uint64_t> batch;
      {
        std::unique_lock lock(mu_);
        cv_.wait(lock, [&] { return has_batch_ || quit_; });
        if (!has_batch_) return;
        batch = std::move(batch_);
        has_batch_ = false;
      }
      Report r = run_batch(
          job_, batch, [&] { return cancel_.load() || stop_requested().load(); },
          [&](const Report& part) {
            std::lock_guard lock(mu_);
            partial_.tasks.insert(partial_.tasks.end(), part.tasks.begin(), part.tasks.end());
            partial_.values.insert(partial_.values.end(), part.values.begin(), part.values.end());
          });
      std::lock_guard lock(mu_);
      result_ = std::move(r);
      has_result_ = true;
    }
  }
  const JobSpec& job_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::uint64_t> batch_;
  Report result_, partial_;
  bool has_batch_ = false, has_result_ = false, quit_ = false;
  bool busy_ = false;  // coordinator thread only
  std::atomic<bool> cancel_{false};
  std::thread thread_;  // last: starts after the members above exist
};

// Sleeps a little longer each idle turn (50 us up to 2 ms), so an idle poll costs little CPU.
class Backoff {
 public:
  void idle() {
    std::this_thread::sleep_for(std::chrono::microseconds(us_));
    us_ = std::min(us_ * 2, 2000);
  }
  void reset() { us_ = 50; }

 private:
  int us_ = 50;
};

}  // namespace

void run_task(const JobSpec& job, std::uint64_t task, std::span<double> out) {
  const std::size_t R = static_cast<std::size_t>(job.replicas.max);
  models::RunContext ctx;
  ctx.master_seed = job.seed;
  ctx.replica = task % R;
  ctx.base_dir = job.base_dir;
  ctx.stop = &stop_requested();
  // The progress line's view inside the task: cleared when it starts and however it ends.
  struct Cleared {
    Cleared() { task_progress().clear(); }
    ~Cleared() { task_progress().clear(); }
  } cleared;
  job.model->run(job.points[task / R], ctx, out);
}

CoordinatorOutcome coordinate(const JobSpec& job, mpi::communicator& world, ResultTable& table,
                              Journal& journal, bool show_progress, std::vector<char> task_mask) {
  const auto start = Clock::now();
  const std::size_t M = job.metric_count(), R = table.replicas_max;
  const int slots = world.size();  // slot 0 = local worker, slot i = rank i
  LocalWorker local(job);
  std::vector<char> remote_busy(static_cast<std::size_t>(slots), 0);
  RoundPlanner planner(job, std::move(task_mask));
  Progress progress(show_progress);
  CoordinatorOutcome outcome;
  bool stopping = false;

  std::deque<std::uint64_t> pending;
  double pending_cost = 0, cost_done = 0, cost_total = 0;
  std::size_t done = table.done_count();
  const auto cost_of = [&](std::uint64_t t) { return job.costs[t / R]; };
  const auto start_round = [&] {
    const auto tasks = planner.next_round(table);
    pending.assign(tasks.begin(), tasks.end());
    for (std::uint64_t t : tasks) pending_cost += cost_of(t), cost_total += cost_of(t);
    return !tasks.empty();
  };
  // Guided self-scheduling by cost: a batch takes a quarter of a fair share of what is left.
  const auto take_batch = [&] {
    std::vector<std::uint64_t> batch;
    const double share = pending_cost / (4.0 * slots);
    double c = 0;
    while (!pending.empty() && (batch.empty() || c + cost_of(pending.front()) <= share) &&
           batch.size() < 4096) {
      c += cost_of(pending.front());
      batch.push_back(pending.front());
      pending.pop_front();
    }
    pending_cost = pending.empty() ? 0 : pending_cost - c;
    return batch;
  };
  auto last_sync = Clock::now();
  const auto record = [&](const Report& rep) {
    for (std::size_t i = 0; i < rep.tasks.size(); ++i) {
      const std::uint64_t t = rep.tasks[i];
      FS_CHECK(t < table.tasks() && !table.done[t], fmt::format("task {} reported twice", t));
      table.done[t] = 1;
      for (std::size_t m = 0; m < M; ++m) table.value(m, t) = rep.values[i * M + m];
      journal.append(t, &rep.values[i * M]);
      cost_done += cost_of(t);
      ++done;
    }
    if (!rep.error.empty() && outcome.error.empty()) {
      outcome.error = rep.error;
      outcome.status =
          rep.input_error ? CoordinatorOutcome::input_error : CoordinatorOutcome::failed;
    }
  };
  // The journal is fsync'd at most every kSyncIntervalS (tiny tasks stay cheap). A failed write
  // (disk full) stops the run like a signal: the finished tasks still go into the results file.
  const auto sync = [&](bool now) {
    if (!journal.has_unsynced() && !now) return;
    if (!now && Clock::now() - last_sync < std::chrono::duration<double>(kSyncIntervalS)) return;
    try {
      journal.sync();
    } catch (const IoError& e) {
      if (outcome.status != CoordinatorOutcome::io_error) {
        outcome.status = CoordinatorOutcome::io_error;
        outcome.error = e.what();
      }
    }
    last_sync = Clock::now();
  };
  const auto any_busy = [&] {
    if (local.busy()) return true;
    for (int i = 1; i < slots; ++i)
      if (remote_busy[static_cast<std::size_t>(i)]) return true;
    return false;
  };
  const auto enter_stopping = [&] {
    if (stopping) return;
    stopping = true;
    pending.clear();
    pending_cost = 0;
    local.cancel();
    for (int i = 1; i < slots; ++i)
      if (remote_busy[static_cast<std::size_t>(i)]) world.send(i, kTagCancel);
  };

  // Every remote worker starts by sending an empty report: it is idle until given work.
  std::vector<char> remote_ready(static_cast<std::size_t>(slots), 0);
  bool more = start_round();
  Backoff backoff;
  while (true) {
    bool progressed = false;
    while (auto st = world.iprobe(mpi::any_source, kTagReport)) {
      Report rep;
      world.recv(st->source(), kTagReport, rep);
      record(rep);
      if (!rep.partial) {
        remote_busy[static_cast<std::size_t>(st->source())] = 0;
        remote_ready[static_cast<std::size_t>(st->source())] = 1;
      }
      progressed = true;
    }
    if (auto rep = local.take_partial()) record(*rep), progressed = true;
    if (auto rep = local.take()) {
      record(*rep);
      progressed = true;
    }
    sync(false);
    if (!outcome.error.empty() || stop_requested().load()) enter_stopping();
    if (!stopping) {
      if (!local.busy() && !pending.empty()) local.give(take_batch()), progressed = true;
      for (int i = 1; i < slots && !pending.empty(); ++i) {
        const auto s = static_cast<std::size_t>(i);
        if (remote_busy[s] || !remote_ready[s]) continue;
        Assignment a;
        a.tasks = take_batch();
        world.send(i, kTagAssign, a);
        remote_busy[s] = 1;
        progressed = true;
      }
    }
    progress.update(done, std::max(done, planner.planned_tasks()), cost_done, cost_total,
                    job.replicas.adaptive() ? planner.round() : 0);
    if (pending.empty() && !any_busy()) {
      if (stopping) break;
      sync(true);
      if (!outcome.error.empty()) continue;  // the sync failed: stop at the next turn
      more = start_round();
      if (!more) break;
      continue;
    }
    if (progressed)
      backoff.reset();
    else
      backoff.idle();
  }
  // Release the remote workers: each is idle now, waiting for an assignment.
  for (int i = 1; i < slots; ++i) {
    const auto s = static_cast<std::size_t>(i);
    if (!remote_ready[s]) {  // never reported: wait for its hello so it is listening
      Report hello;
      world.recv(i, kTagReport, hello);
      record(hello);
    }
    Assignment stop;
    stop.stop = true;
    world.send(i, kTagAssign, stop);
  }
  sync(true);
  progress.update(done, std::max(done, planner.planned_tasks()), cost_done, cost_total,
                  job.replicas.adaptive() ? planner.round() : 0, true);
  progress.finish();
  if (stopping && outcome.error.empty()) outcome.status = CoordinatorOutcome::interrupted;
  outcome.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return outcome;
}

void run_remote_worker(const JobSpec& job, mpi::communicator& world) {
  world.send(0, kTagReport, Report{});  // ready
  Backoff backoff;
  for (;;) {
    Assignment a;
    mpi::request req = world.irecv(0, kTagAssign, a);
    while (!req.test()) backoff.idle();  // no busy-wait: ranks may share cores
    backoff.reset();
    if (a.stop) break;
    bool cancelled = false;
    Report rep = run_batch(
        job, a.tasks,
        [&] {
          if (!cancelled && world.iprobe(0, kTagCancel)) {
            world.recv(0, kTagCancel);
            cancelled = true;
          }
          return cancelled || stop_requested().load();
        },
        [&](const Report& part) { world.send(0, kTagReport, part); });
    world.send(0, kTagReport, rep);
  }
  // A cancel that crossed our last report is still queued: drain it.
  while (world.iprobe(0, kTagCancel)) world.recv(0, kTagCancel);
}

}  // namespace faultsweep::sweep

#pragma once
// The workers of a sweep (private to src/sweep/run): a batch of tasks run until done or cancelled,
// rank 0's own worker thread, and the idle back-off of a coordinator or worker loop.
#include <fmt/format.h>

#include <atomic>
#include <boost/mpi/communicator.hpp>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "faultsweep/core/error.hpp"
#include "faultsweep/sweep/coordinator.hpp"
#include "faultsweep/sweep/messages.hpp"

namespace faultsweep::sweep::detail {

using Clock = std::chrono::steady_clock;

// Runs a batch until done or `cancelled()` says stop; never throws (but `flush` may). Every
// kReportIntervalS it hands the tasks finished so far to `flush` (a partial report) and goes on.
template <class Cancelled, class Flush>
Report run_batch(const JobSpec& job, const std::vector<std::uint64_t>& tasks, Cancelled cancelled,
                 Flush flush) {
  Report rep;
  const std::size_t M = job.metric_count();
  std::vector<double> out(M);
  const bool recording = job.record.what != 0;
  std::vector<unsigned char> records;
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
      run_task(job, t, out, recording ? &records : nullptr);
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
    if (recording) rep.records.push_back(std::move(records));
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
      result_.records.insert(result_.records.begin(), partial_.records.begin(),
                             partial_.records.end());
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
            partial_.records.insert(partial_.records.end(), part.records.begin(),
                                    part.records.end());
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

// Sleeps a little longer each idle turn (50 us up to cap_us, 2 ms by default), so an idle poll
// costs little CPU.
class Backoff {
 public:
  explicit Backoff(int cap_us = 2000) : cap_us_(cap_us) {}
  void idle() {
    std::this_thread::sleep_for(std::chrono::microseconds(us_));
    us_ = std::min(us_ * 2, cap_us_);
  }
  void reset() { us_ = 50; }
  [[nodiscard]] int cap_us() const { return cap_us_; }

 private:
  int cap_us_;
  int us_ = 50;
};

// The longest idle poll of a remote rank: 2 ms x the ranks per core on its node (at least 1), at
// most 100 ms. With many more ranks than cores, 2 ms polls by every idle rank take the cores
// from the ranks that work; each rank still answers within the cap.
int remote_poll_cap_us(boost::mpi::communicator& world);

}  // namespace faultsweep::sweep::detail

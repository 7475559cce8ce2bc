// How far one coordinator scales. Two parts, not a test:
//
// 1. Measured on this machine, in one process: the coordinator's cost per task of recording a
//    result (ResultTable + journal append, the real code), of the journal's fdatasync, and of one
//    message of b tasks through Boost.MPI (a report and an assignment sent to self on
//    MPI_COMM_SELF: serialisation, MPI and deserialisation of both sides).
// 2. A discrete-event model of coordinate(): one coordinator serving N workers, the same
//    guided self-scheduling by cost (a batch is a quarter of a fair share of what is left, at
//    most 4096 tasks), each message costing the coordinator the measured time, plus a wake-up
//    latency per assignment (the idle back-off of the coordinator and of the workers' polls);
//    a worker holds the next batch while it runs one (HELD, default the coordinator's 2; 1 is
//    the coordinator before it did).
//    It prints the sweep efficiency (task time / (N x makespan)) at 1 to 16,384 ranks for task
//    sizes from 1 ms to 10 s, the task size needed to stay above 90 %, and the same with slices
//    (N ranks as S independent coordinators of N / S ranks each).
//
// Usage: bench_coordinator [TASKS_PER_RANK=100] [LATENCY_US=1000] [CV=1] [MESSAGE_US] [HELD]
// (MESSAGE_US replaces the measured fixed cost of a message, e.g. 5 for a network between nodes;
// 0 keeps the measured one)
//        bench_coordinator --predict RANKS TASK_S TASKS [LATENCY_US=1000] [CV=0] [HELD]
// prints the model's efficiency (%) of one sweep of TASKS tasks of mean TASK_S seconds on RANKS
// ranks, to set beside a measured run (bench/coordinator_ranks.sh).
#include <fmt/format.h>

#include <algorithm>
#include <boost/mpi.hpp>
#include <boost/serialization/string.hpp>
#include <boost/serialization/vector.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <queue>
#include <string_view>
#include <vector>

#include "faultsweep/dist/distribution.hpp"
#include "faultsweep/sweep/journal.hpp"
#include "faultsweep/sweep/messages.hpp"
#include "faultsweep/sweep/store.hpp"

namespace mpi = boost::mpi;
namespace sw = faultsweep::sweep;
using Clock = std::chrono::steady_clock;

namespace {

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

struct Costs {
  double record_s = 0;  // per task: table + journal append
  double sync_s = 0;    // one fdatasync of 0.1 s worth of records (at most 10 per second)
  double msg_fixed_s = 0, msg_per_task_s = 0;  // coordinator's share of one report + assignment
};

Costs measure(std::size_t metrics) {
  Costs c;
  const auto dir = std::filesystem::temp_directory_path() / "faultsweep_bench_coordinator";
  std::filesystem::create_directories(dir);
  const auto path = dir / "journal";
  // Recording: the coordinator's record() without the MPI part.
  {
    const std::size_t P = 20000, R = 50;
    std::vector<double> rec;
    for (int rep = 0; rep < 5; ++rep) {
      std::filesystem::remove(path);
      sw::ResultTable table(P, R, metrics);
      sw::Journal journal = sw::Journal::create(path, "bench.toml", "[sweep]\n", metrics);
      std::vector<double> v(metrics, 0.5);
      const auto t0 = Clock::now();
      for (std::size_t t = 0; t < table.tasks(); ++t) {
        if (table.done[t]) std::abort();
        table.done[t] = 1;
        for (std::size_t m = 0; m < metrics; ++m) table.value(m, t) = v[m];
        journal.append(t, v.data());
      }
      const double s = seconds_since(t0);
      const auto t1 = Clock::now();
      journal.sync();
      rec.push_back(s / static_cast<double>(table.tasks()));
      c.sync_s = std::max(c.sync_s, seconds_since(t1));
    }
    c.record_s = median(rec);
    // A typical sync: the records of 0.1 s.
    std::vector<double> syncs;
    for (int rep = 0; rep < 9; ++rep) {
      std::filesystem::remove(path);
      sw::Journal journal = sw::Journal::create(path, "bench.toml", "[sweep]\n", metrics);
      std::vector<double> v(metrics, 0.5);
      for (std::uint64_t t = 0; t < 1000; ++t) journal.append(t, v.data());
      const auto t0 = Clock::now();
      journal.sync();
      syncs.push_back(seconds_since(t0));
    }
    c.sync_s = median(syncs);
    std::filesystem::remove_all(dir);
  }
  // Messages: to self, both sides of a report of b results and an assignment of b tasks.
  mpi::communicator self(MPI_COMM_SELF, mpi::comm_attach);
  const auto msg = [&](std::size_t b) {
    sw::Report rep;
    sw::Assignment a;
    for (std::size_t i = 0; i < b; ++i) rep.tasks.push_back(i), a.tasks.push_back(i);
    rep.values.assign(b * metrics, 0.25);
    const int n = b > 1000 ? 200 : 2000;
    std::vector<double> v;
    for (int k = 0; k < 5; ++k) {
      const auto t0 = Clock::now();
      for (int i = 0; i < n; ++i) {
        sw::Report r2;
        sw::Assignment a2;
        mpi::request q1 = self.isend(0, 1, rep);
        self.recv(0, 1, r2);
        q1.wait();
        mpi::request q2 = self.isend(0, 2, a);
        self.recv(0, 2, a2);
        q2.wait();
      }
      // The coordinator does half of this: it deserialises the report, serialises the batch.
      v.push_back(0.5 * seconds_since(t0) / n);
    }
    return median(v);
  };
  const double m1 = msg(1), m1000 = msg(1000);
  c.msg_per_task_s = std::max(0.0, (m1000 - m1) / 999.0);
  c.msg_fixed_s = std::max(0.0, m1 - c.msg_per_task_s);
  return c;
}

// --- the discrete-event model -----------------------------------------------------------------

struct ModelResult {
  double efficiency = 0, makespan_s = 0, coordinator_busy = 0;
  std::size_t messages = 0;
};

// One coordinator, `ranks` workers (slot 0 is rank 0's own worker), `tasks` tasks of
// durations `dur` (already in the coordinator's order: most expensive first). Each remote
// worker holds up to `held` batches (sweep/messages.hpp: kBatchesHeld): it runs one while the next
// waits in its queue, and starts the next when both the one before has ended and the next has
// arrived.
ModelResult simulate(const std::vector<double>& dur, int ranks, const Costs& c, double latency_s,
                     int held = sw::kBatchesHeld) {
  const std::size_t T = dur.size();
  std::deque<std::size_t> pending;
  double pending_cost = 0;
  for (std::size_t t = 0; t < T; ++t) pending.push_back(t), pending_cost += dur[t];
  // The real coordinator batches by the model's cost estimate; here the estimate is exact.
  const auto take_batch = [&](std::vector<std::size_t>& batch) {
    batch.clear();
    const double share = pending_cost / (4.0 * ranks);
    double s = 0;
    while (!pending.empty() && (batch.empty() || s + dur[pending.front()] <= share) &&
           batch.size() < 4096) {
      s += dur[pending.front()];
      batch.push_back(pending.front());
      pending.pop_front();
    }
    pending_cost = pending.empty() ? 0 : pending_cost - s;
    return s;
  };
  // Events: a worker's report reaches the coordinator at time t (with b results).
  using Ev = std::pair<double, std::pair<int, std::size_t>>;  // time, (worker, results)
  std::priority_queue<Ev, std::vector<Ev>, std::greater<>> q;
  // Every worker starts idle ("ready") and asks for as many batches as it holds; rank 0's own
  // worker, a thread beside the coordinator, holds one.
  for (int k = 0; k < held; ++k)
    for (int w = k == 0 ? 0 : 1; w < ranks; ++w) q.push({0.0, {w, 0}});
  std::vector<double> worker_free(static_cast<std::size_t>(ranks), 0.0);
  std::vector<int> holds(static_cast<std::size_t>(ranks), 0);
  double coord_free = 0, busy = 0, end = 0, next_sync = 0.1, work = 0;
  std::size_t messages = 0, unsynced = 0;
  std::vector<std::size_t> batch;
  while (!q.empty()) {
    const auto [t, wb] = q.top();
    q.pop();
    const auto [w, results] = wb;
    end = std::max(end, t);
    double start = std::max(t, coord_free);
    double cost =
        (results > 0 ? c.msg_fixed_s + c.msg_per_task_s * static_cast<double>(results) : 0) +
        c.record_s * static_cast<double>(results);
    unsynced += results;
    if (start >= next_sync && unsynced > 0) {  // fsync at most ten times a second
      cost += c.sync_s;
      next_sync = start + 0.1;
      unsynced = 0;
    }
    int& holding = holds[static_cast<std::size_t>(w)];
    if (results > 0) --holding;
    if (pending.empty() ||
        (holding > 0 && !sw::worth_holding_next(pending.size(), static_cast<std::size_t>(ranks)))) {
      coord_free = start + cost;
      busy += cost;
      end = std::max(end, coord_free);
      continue;
    }
    const double batch_s = take_batch(batch);
    work += batch_s;
    cost += c.msg_fixed_s + c.msg_per_task_s * static_cast<double>(batch.size());
    ++messages;
    coord_free = start + cost;
    busy += cost;
    ++holding;
    double& free_at = worker_free[static_cast<std::size_t>(w)];
    free_at = std::max(free_at, coord_free + latency_s) + batch_s;
    q.push({free_at, {w, batch.size()}});
  }
  ModelResult r;
  r.makespan_s = end;
  r.efficiency = work / (static_cast<double>(ranks) * end);
  r.coordinator_busy = busy / end;
  r.messages = messages;
  return r;
}

// Task durations with mean `mean_s` and coefficient of variation `cv` (lognormal), most
// expensive first, as the coordinator orders them when the cost estimate is good.
std::vector<double> durations(std::size_t n, double mean_s, double cv, std::uint64_t seed) {
  // The project's own streams and distributions (DESIGN §4), so the model reproduces anywhere.
  faultsweep::Engine rng = faultsweep::make_stream(seed, 0, faultsweep::Purpose::runtimes, "bench");
  std::vector<double> v(n, mean_s);
  if (cv > 0) {
    const double s2 = std::log(1 + cv * cv);
    const auto d = faultsweep::dist::Dist::lognormal(std::log(mean_s) - 0.5 * s2, std::sqrt(s2));
    for (auto& x : v) x = d.sample(rng);
  }
  std::sort(v.begin(), v.end(), std::greater<>());
  return v;
}

// Efficiency of `ranks` ranks split into `slices` independent coordinators: the tasks are dealt
// round-robin by cost (run --slice), and the sweep ends with the slowest slice.
double sliced_efficiency(const std::vector<double>& dur, int ranks, int slices, const Costs& c,
                         double latency_s, int held) {
  double work = 0, end = 0;
  for (int s = 0; s < slices; ++s) {
    std::vector<double> part;
    for (std::size_t t = static_cast<std::size_t>(s); t < dur.size();
         t += static_cast<std::size_t>(slices))
      part.push_back(dur[t]);
    const ModelResult r = simulate(part, ranks / slices, c, latency_s, held);
    end = std::max(end, r.makespan_s);
    for (double d : part) work += d;
  }
  return work / (static_cast<double>(ranks) * end);
}

}  // namespace

int main(int argc, char** argv) {
  mpi::environment env;
  if (argc > 1 && std::string_view(argv[1]) == "--predict") {
    if (argc < 5) {
      std::fprintf(
          stderr,
          "usage: bench_coordinator --predict RANKS TASK_S TASKS [LATENCY_US] [CV] [HELD]\n");
      return 2;
    }
    const int ranks = std::atoi(argv[2]);
    const double task_s = std::atof(argv[3]);
    const auto tasks = static_cast<std::size_t>(std::atof(argv[4]));
    const double lat = (argc > 5 ? std::atof(argv[5]) : 1000) * 1e-6;
    const double cv = argc > 6 ? std::atof(argv[6]) : 0.0;
    const int held = argc > 7 ? std::atoi(argv[7]) : sw::kBatchesHeld;
    const ModelResult r =
        simulate(durations(tasks, task_s, cv, 42), ranks, measure(2), lat, std::max(held, 1));
    std::printf("%.2f\n", 100 * r.efficiency);
    return 0;
  }
  const double per_rank = argc > 1 ? std::atof(argv[1]) : 100;
  const double latency_s = (argc > 2 ? std::atof(argv[2]) : 1000) * 1e-6;
  const double cv = argc > 3 ? std::atof(argv[3]) : 1.0;

  Costs c = measure(2);
  const bool message_set = argc > 4 && std::atof(argv[4]) > 0;
  if (message_set) c.msg_fixed_s = std::atof(argv[4]) * 1e-6;
  const int held = std::max(argc > 5 ? std::atoi(argv[5]) : sw::kBatchesHeld, 1);
  std::printf(
      "measured (median of 5): record %.3f us/task, message %.2f us%s + %.4f us/task (the "
      "coordinator's share), fdatasync %.0f us (at most 10/s)\n",
      c.record_s * 1e6, c.msg_fixed_s * 1e6, message_set ? " (set on the command line)" : "",
      c.msg_per_task_s * 1e6, c.sync_s * 1e6);
  std::printf(
      "model: %.0f tasks per rank, lognormal task times with CV %.2g, a worker holds %d "
      "batch%s, wake-up latency %.0f "
      "us per assignment\n\n",
      per_rank, cv, held, held > 1 ? "es" : "", latency_s * 1e6);

  const std::vector<int> rank_counts{1, 2, 3, 64, 1024, 4096, 16384};
  const std::vector<double> sizes{1e-3, 1e-2, 0.1, 1.0, 10.0};
  std::printf("efficiency by ranks (rows) and mean task time (columns), one coordinator\n");
  std::printf("%8s", "ranks");
  for (double s : sizes) std::printf(" %9s", fmt::format("{:g} s", s).c_str());
  std::printf("   coordinator busy at 1 s\n");
  for (int n : rank_counts) {
    std::printf("%8d", n);
    double busy = 0;
    for (double s : sizes) {
      const auto d = durations(static_cast<std::size_t>(per_rank * n), s, cv, 42);
      const ModelResult r = simulate(d, n, c, latency_s, held);
      std::printf(" %8.1f%%", 100 * r.efficiency);
      if (s == 1.0) busy = r.coordinator_busy;
    }
    std::printf("   %.1f%%\n", 100 * busy);
  }

  // The smallest mean task time (on a 1-2-5 grid) that keeps efficiency >= 90 %.
  std::printf("\nsmallest mean task time for >= 90 %% efficiency\n");
  for (int n : {1024, 16384}) {
    for (int slices : {1, 16}) {
      if (n / slices < 1) continue;
      double found = NAN;
      for (double s :
           {1e-3, 2e-3, 5e-3, 1e-2, 2e-2, 5e-2, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0}) {
        const auto d = durations(static_cast<std::size_t>(per_rank * n), s, cv, 42);
        const double e = slices == 1 ? simulate(d, n, c, latency_s, held).efficiency
                                     : sliced_efficiency(d, n, slices, c, latency_s, held);
        if (e >= 0.9) {
          found = s;
          std::printf("  %6d ranks, %2d slice%s of %5d: %g s (efficiency %.1f %%)\n", n, slices,
                      slices > 1 ? "s" : " ", n / slices, s, 100 * e);
          break;
        }
      }
      if (std::isnan(found)) std::printf("  %6d ranks, %2d slices: none up to 50 s\n", n, slices);
    }
  }
  return 0;
}

// Cost curves of the cluster simulator: jobs per CPU second and peak memory against the machine
// size (128, 1,024, 10,000, 100,000 nodes; Lublin-style jobs, whose sizes scale with the
// machine) and the failures per job (0, 0.1, 1, 10: exponential node failures, 10-min repairs,
// node MTBF set from the failure-free makespan of the same jobs), for each queue policy (with
// first fit) and each allocator (with EASY). Each case runs in a child process, so its peak
// resident memory is its own. CSV on stdout; one line per case, no pass/fail.
// Usage: bench_scaling [--full] [--jobs N] [--nodes N] [--case QUEUE,ALLOCATOR] [--failures F]
//                      [--warm]
//   default: every size and failure level for EASY + first fit; the other queue policies and
//   allocators at failures per job 0, 0.1 and 1 (two levels with failures give each a slope per
//   doubling of failures; the reliability-aware allocators up to 10,000 nodes); --full: every
//   combination. N jobs per case (default 2,000). --nodes and --case keep only the cases of that
//   machine size, or of that queue policy and allocator; --failures the cases of that many nominal
//   failures per job. --warm: each case's child runs the replica twice and reports the second,
//   as a sweep that runs many replicas in one process sees them (code, caches and freed memory
//   warm); without it, the first replica of a fresh process, one-time costs included.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bench_support.hpp"
#include "faultsweep/core/memory.hpp"
#include "faultsweep/core/params.hpp"
#include "faultsweep/models/cluster.hpp"

namespace {

using namespace faultsweep;

struct Case {
  std::string queue, allocator;
  int nodes;
  double failures_per_job;
};

struct Outcome {
  double cpu_s = 0, jobs = 0, failures = 0, hours = 0;  // hours: the simulated makespan
  double mean_size = 0;  // nodes per completed job: the per-node work of a start and an end
};

Params point(const Case& c, std::int64_t jobs, double node_mtbf_s) {
  Params p;
  p.set("nodes", std::int64_t{c.nodes});
  p.set("queue", c.queue);
  p.set("allocator", c.allocator);
  p.set("workload.source", std::string("lublin"));
  p.set("workload.jobs", jobs);
  if (node_mtbf_s > 0) {
    p.set("failures.process", std::string("renewal"));
    p.set("failures.dist", std::string("exponential"));
    p.set("failures.mean", node_mtbf_s);
    p.set("failures.downtime", 600.0);
  } else {
    p.set("failures.process", std::string("none"));
  }
  return models::ClusterModel().with_defaults(std::move(p));
}

// Runs one replica in this process.
Outcome run_here(const Params& p) {
  const models::ClusterModel model;
  model.validate(p, ".");
  std::vector<double> out(model.metrics().size());
  models::RunContext ctx;
  ctx.master_seed = 2026;
  const double c0 = bench::thread_cpu_s();
  model.run(p, ctx, out);
  Outcome o;
  o.cpu_s = bench::thread_cpu_s() - c0;
  double per_h = 0;
  for (std::size_t i = 0; i < out.size(); ++i) {
    const std::string& name = model.metrics()[i].name;
    if (name == "jobs") o.jobs = out[i];
    if (name == "failures") o.failures = out[i];
    if (name == "mean_job_size") o.mean_size = out[i];
    if (name == "throughput_per_h") per_h = out[i];
  }
  o.hours = per_h > 0 ? o.jobs / per_h : 0;
  return o;
}

bool g_warm = false;  // --warm

// Runs one replica in a child process (--warm: two, and returns the second); returns its outcome
// and peak resident memory (KiB).
Outcome run_child(const Params& p, long& peak_kib) {
  int fd[2];
  if (pipe(fd) != 0) std::exit(1);
  const pid_t pid = fork();
  if (pid == 0) {
    close(fd[0]);
    Outcome o = run_here(p);
    if (g_warm) o = run_here(p);
    const ssize_t n = write(fd[1], &o, sizeof o);
    _exit(n == static_cast<ssize_t>(sizeof o) ? 0 : 1);
  }
  close(fd[1]);
  Outcome o;
  const ssize_t n = read(fd[0], &o, sizeof o);
  close(fd[0]);
  int status = 0;
  rusage ru{};
  wait4(pid, &status, 0, &ru);
  peak_kib = ru.ru_maxrss;
  if (n != static_cast<ssize_t>(sizeof o) || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::fprintf(stderr, "bench_scaling: a case failed\n");
    std::exit(1);
  }
  return o;
}

std::vector<Case> cases(bool full) {
  const int sizes[] = {128, 1024, 10000, 100000};
  const double levels[] = {0, 0.1, 1, 10};
  const char* queues[] = {"fcfs", "easy", "conservative"};
  const char* allocators[] = {"first_fit", "round_robin", "lff", "ras", "ljras", "ra"};
  std::vector<Case> v;
  for (const int n : sizes)
    for (const double f : levels) {
      const bool wide = full || f <= 1;
      for (const char* q : queues)
        if (std::string(q) == "easy" || wide) v.push_back({q, "first_fit", n, f});
      for (const char* a : allocators) {
        const std::string al = a;
        const bool reliability = al == "ras" || al == "ljras" || al == "ra";
        if (al == "first_fit" || !wide || (reliability && n > 10000 && !full)) continue;
        v.push_back({"easy", al, n, f});
      }
    }
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  faultsweep::keep_freed_memory();  // as the faultsweep binary does
  bool full = false;
  std::int64_t jobs = 2000;
  int only_nodes = 0;
  std::string only_case;
  double only_failures = -1;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--full") == 0) {
      full = true;
    } else if (std::strcmp(argv[i], "--jobs") == 0 && i + 1 < argc) {
      jobs = std::atoll(argv[++i]);
    } else if (std::strcmp(argv[i], "--nodes") == 0 && i + 1 < argc) {
      only_nodes = std::atoi(argv[++i]);
    } else if (std::strcmp(argv[i], "--case") == 0 && i + 1 < argc) {
      only_case = argv[++i];
    } else if (std::strcmp(argv[i], "--failures") == 0 && i + 1 < argc) {
      only_failures = std::atof(argv[++i]);
    } else if (std::strcmp(argv[i], "--warm") == 0) {
      g_warm = true;
    } else {
      std::fprintf(stderr,
                   "usage: bench_scaling [--full] [--jobs N] [--nodes N] [--case QUEUE,ALLOCATOR] "
                   "[--failures F] [--warm]\n");
      return 2;
    }
  }
  std::printf(
      "queue,allocator,nodes,failures_per_job,jobs,failures,cpu_s,jobs_per_cpu_s,peak_rss_mib,"
      "mean_job_size\n");
  int calibrated = -1;
  double makespan_h = 0;
  for (const Case& c : cases(full)) {
    if ((only_nodes > 0 && c.nodes != only_nodes) ||
        (!only_case.empty() && only_case != c.queue + "," + c.allocator) ||
        (only_failures >= 0 && c.failures_per_job != only_failures))
      continue;
    // Node MTBF for the failure level: failures per job f over the failure-free makespan T of
    // the same jobs on this machine is nodes x T / MTBF = f x jobs.
    if (c.nodes != calibrated) {
      long kib = 0;
      makespan_h = run_child(point({"easy", "first_fit", c.nodes, 0}, jobs, 0), kib).hours;
      calibrated = c.nodes;
    }
    const double mtbf_s =
        c.failures_per_job > 0
            ? c.nodes * makespan_h * 3600.0 / (c.failures_per_job * static_cast<double>(jobs))
            : 0;
    long kib = 0;
    const Outcome o = run_child(point(c, jobs, mtbf_s), kib);
    std::printf("%s,%s,%d,%g,%.0f,%.0f,%.4f,%.1f,%.1f,%.1f\n", c.queue.c_str(), c.allocator.c_str(),
                c.nodes, c.failures_per_job, o.jobs, o.failures, o.cpu_s,
                o.cpu_s > 0 ? o.jobs / o.cpu_s : 0.0, static_cast<double>(kib) / 1024.0,
                o.mean_size);
    std::fflush(stdout);
  }
  return 0;
}
